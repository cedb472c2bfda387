package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;

/** Field causes worded as Kubernetes' validation words them: {@code spec.containers: Required value}. */
public final class Causes {
    private Causes() {
    }

    public static StatusCause required(String field) {
        return cause("FieldValueRequired", field, field + ": Required value");
    }

    public static StatusCause invalid(String field, Object value, String detail) {
        return cause("FieldValueInvalid", field, field + ": Invalid value: " + quote(value) + ": " + detail);
    }

    /** An Invalid cause whose value is shown as given (Go's rendering of a struct or map), not quoted. */
    public static StatusCause invalidShown(String field, String shown, String detail) {
        return cause("FieldValueInvalid", field, field + ": Invalid value: " + shown + ": " + detail);
    }

    /** A Required cause with Kubernetes' detail text: {@code spec.completions: Required value: when ...}. */
    public static StatusCause required(String field, String detail) {
        return cause("FieldValueRequired", field, field + ": Required value: " + detail);
    }

    public static StatusCause duplicate(String field, Object value) {
        return cause("FieldValueDuplicate", field, field + ": Duplicate value: " + quote(value));
    }

    public static StatusCause forbidden(String field, String detail) {
        return cause("FieldValueForbidden", field, field + ": Forbidden: " + detail);
    }

    public static StatusCause notSupported(String field, Object value, java.util.List<String> supported) {
        StringBuilder s = new StringBuilder();
        for (String v : supported) {
            s.append(s.length() == 0 ? "" : ", ").append('"').append(v).append('"');
        }
        return cause("FieldValueNotSupported", field,
                field + ": Unsupported value: " + quote(value) + ": supported values: " + s);
    }

    /** {@code endpoints: Too many: 1001: must have at most 1000 items}. */
    public static StatusCause tooMany(String field, int actual, int max) {
        return cause("FieldValueTooMany", field, field + ": Too many: " + actual + ": must have at most " + max + " items");
    }

    public static StatusCause cause(String reason, String field, String message) {
        return StatusCause.newBuilder().setReason(reason).setField(field).setMessage(message).build();
    }

    private static String quote(Object value) {
        return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    }
}
