package io.eventplane.core.codec;

import java.util.List;

/** A decoded object and the warnings decoding produced (unknown or duplicate fields under {@link FieldValidation#WARN}). */
public record Decoded<T>(T value, List<String> warnings) {
    public Decoded {
        warnings = List.copyOf(warnings);
    }
}
