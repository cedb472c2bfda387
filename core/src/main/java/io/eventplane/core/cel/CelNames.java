package io.eventplane.core.cel;

import java.util.Optional;
import java.util.Set;

/**
 * How Kubernetes names a schema property inside CEL (apiserver's cel.Escape): a CEL reserved word becomes
 * {@code __word__}; {@code __}, {@code .}, {@code -} and {@code /} become {@code __underscores__}, {@code __dot__},
 * {@code __dash__} and {@code __slash__}. A name starting with a digit or holding any other character has no CEL
 * name (empty).
 */
public final class CelNames {
    private static final Set<String> RESERVED = Set.of("true", "false", "null", "in", "as", "break", "const",
            "continue", "else", "for", "function", "if", "import", "let", "loop", "package", "namespace", "return",
            "var", "void", "while");

    private CelNames() {
    }

    public static Optional<String> escape(String name) {
        if (name.isEmpty() || name.charAt(0) >= '0' && name.charAt(0) <= '9') {
            return Optional.empty();
        }
        if (RESERVED.contains(name)) {
            return Optional.of("__" + name + "__");
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '_' && i + 1 < name.length() && name.charAt(i + 1) == '_') {
                out.append("__underscores__");
                i++;
            } else if (c == '.') {
                out.append("__dot__");
            } else if (c == '-') {
                out.append("__dash__");
            } else if (c == '/') {
                out.append("__slash__");
            } else if (c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
                out.append(c);
            } else {
                return Optional.empty();
            }
        }
        return Optional.of(out.toString());
    }
}
