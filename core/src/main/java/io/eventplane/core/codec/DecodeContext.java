package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The mutable state of one decode call: where we are, what went wrong, what to warn about. Not shared between threads. */
final class DecodeContext {
    private static final int MAX_SHOWN = 64;

    final FieldValidation mode;
    private final Map<JsonNode, List<String>> duplicates;
    private final StringBuilder path = new StringBuilder(64);
    final List<FieldError> errors = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();

    DecodeContext(FieldValidation mode, Map<JsonNode, List<String>> duplicates) {
        this.mode = mode;
        this.duplicates = duplicates;
    }

    /** Enters a record field; returns the mark to {@link #leave} with. */
    int enterField(String name) {
        int mark = path.length();
        if (mark > 0) {
            path.append('.');
        }
        path.append(name);
        return mark;
    }

    int enterIndex(int index) {
        int mark = path.length();
        path.append('[').append(index).append(']');
        return mark;
    }

    int enterKey(String key) {
        int mark = path.length();
        path.append('[').append(key).append(']');
        return mark;
    }

    void leave(int mark) {
        path.setLength(mark);
    }

    String path() {
        return path.toString();
    }

    String childPath(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    String keyPath(String key) {
        return path + "[" + key + "]";
    }

    /** Records a type error at the current path; decoding goes on so that every error is reported at once. */
    Object error(String message) {
        errors.add(new FieldError(path(), message));
        return null;
    }

    Object mismatch(String expected, JsonNode got) {
        return error("expected " + expected + ", got " + describe(got));
    }

    void unknownField(String fullPath) {
        strictProblem(FieldError.unknownField(fullPath));
    }

    /** Reports the keys of {@code node} that appeared more than once in the source document. */
    void checkDuplicates(JsonNode node, boolean mapKeys) {
        if (duplicates.isEmpty() || mode == FieldValidation.IGNORE) {
            return;
        }
        List<String> names = duplicates.get(node);
        if (names != null) {
            for (String name : names) {
                strictProblem(FieldError.duplicateField(mapKeys ? keyPath(name) : childPath(name)));
            }
        }
    }

    private void strictProblem(FieldError e) {
        switch (mode) {
            case STRICT -> errors.add(e);
            case WARN -> warnings.add(e.message());
            case IGNORE -> { }
        }
    }

    /** A short description of a JSON value for error messages: {@code string "eighty"}, {@code number 80.5}, {@code object}. */
    static String describe(JsonNode n) {
        return switch (n.getNodeType()) {
            case STRING -> "string " + quote(n.textValue());
            case NUMBER -> "number " + n.asText();
            case BOOLEAN -> "boolean " + n.booleanValue();
            case OBJECT -> "object";
            case ARRAY -> "array";
            case NULL, MISSING -> "null";
            default -> n.getNodeType().name().toLowerCase();
        };
    }

    static String quote(String s) {
        String shown = s.length() > MAX_SHOWN ? s.substring(0, MAX_SHOWN) + "..." : s;
        StringBuilder sb = new StringBuilder(shown.length() + 2).append('"');
        for (int i = 0; i < shown.length(); i++) {
            char c = shown.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
