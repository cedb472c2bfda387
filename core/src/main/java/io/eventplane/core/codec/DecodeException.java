package io.eventplane.core.codec;

import java.util.ArrayList;
import java.util.List;

/** The input could not be decoded; {@link #errors()} lists every problem found, the message lists them all too. */
public final class DecodeException extends RuntimeException {
    private final List<FieldError> errors;

    public DecodeException(List<FieldError> errors) {
        super(render(errors));
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("a DecodeException needs at least one error");
        }
        this.errors = List.copyOf(errors);
    }

    /** A problem with the document as a whole (malformed JSON or YAML, wrong top-level shape). */
    static DecodeException malformed(String message) {
        return new DecodeException(List.of(new FieldError("", message)));
    }

    public List<FieldError> errors() {
        return errors;
    }

    /** Type errors first, then Kubernetes' {@code strict decoding error: unknown field "a", duplicate field "b"}. */
    private static String render(List<FieldError> errors) {
        List<String> plain = new ArrayList<>();
        List<String> strict = new ArrayList<>();
        for (FieldError e : errors) {
            (e.strict() ? strict : plain).add(e.describe());
        }
        StringBuilder sb = new StringBuilder(String.join("; ", plain));
        if (!strict.isEmpty()) {
            if (!sb.isEmpty()) {
                sb.append("; ");
            }
            sb.append("strict decoding error: ").append(String.join(", ", strict));
        }
        return sb.toString();
    }
}
