package io.eventplane.core.meta;

/** Go's string formatting where Kubernetes' messages show it, so that ours read the same. */
public final class GoStrings {
    private GoStrings() {
    }

    /** Go's {@code strconv.Quote} ({@code %q}) for ASCII text: escapes quotes, backslashes and control characters. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
