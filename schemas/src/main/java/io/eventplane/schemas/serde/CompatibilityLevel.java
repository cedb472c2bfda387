package io.eventplane.schemas.serde;

/** Schema registry compatibility levels (the Confluent names). */
public enum CompatibilityLevel {
    NONE,
    BACKWARD,
    BACKWARD_TRANSITIVE,
    FORWARD,
    FORWARD_TRANSITIVE,
    FULL,
    FULL_TRANSITIVE;

    /** True if a new schema must be able to read data written with the previous one. */
    public boolean includesBackward() {
        return this == BACKWARD || this == BACKWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
    }

    /** True if data written with a new schema must be readable with the previous one. */
    public boolean includesForward() {
        return this == FORWARD || this == FORWARD_TRANSITIVE || this == FULL || this == FULL_TRANSITIVE;
    }

    /** True if the check covers every earlier version, not just the latest. */
    public boolean isTransitive() {
        return this == BACKWARD_TRANSITIVE || this == FORWARD_TRANSITIVE || this == FULL_TRANSITIVE;
    }

    /** The weakest level that keeps this one's guarantees and adds BACKWARD. */
    public CompatibilityLevel withBackward() {
        return switch (this) {
            case NONE -> BACKWARD;
            case FORWARD -> FULL;
            case FORWARD_TRANSITIVE -> FULL_TRANSITIVE;
            default -> this;
        };
    }

    /** Parses a registry's answer; Apicurio and Confluent both use these names. */
    public static CompatibilityLevel parse(String text) {
        return valueOf(text.trim().toUpperCase(java.util.Locale.ROOT));
    }
}
