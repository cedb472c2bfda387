package io.eventplane.core.codec;

/** Kubernetes' {@code fieldValidation} query parameter: what to do with unknown and duplicate fields. */
public enum FieldValidation {
    /** Unknown and duplicate fields are errors. */
    STRICT,
    /** Unknown and duplicate fields are dropped and reported as warnings. */
    WARN,
    /** Unknown and duplicate fields are dropped silently. */
    IGNORE
}
