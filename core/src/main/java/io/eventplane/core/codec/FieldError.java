package io.eventplane.core.codec;

/**
 * One problem found while decoding, at a Kubernetes field path such as {@code spec.containers[0].ports[1].containerPort}
 * or {@code metadata.labels[app]}. The path is empty for problems with the document as a whole.
 */
public record FieldError(String path, String message) {

    static FieldError unknownField(String path) {
        return new FieldError(path, "unknown field \"" + path + "\"");
    }

    static FieldError duplicateField(String path) {
        return new FieldError(path, "duplicate field \"" + path + "\"");
    }

    /** True for the errors Kubernetes groups as "strict decoding error" (unknown and duplicate fields). */
    public boolean strict() {
        return message.startsWith("unknown field \"") || message.startsWith("duplicate field \"");
    }

    /** The message as a client reads it: {@code path: message}, or the message alone when it already names the path. */
    public String describe() {
        return strict() || path.isEmpty() ? message : path + ": " + message;
    }
}
