package io.eventplane.schemas.serde;

import java.util.Optional;

import org.apache.avro.Schema;

/**
 * Registers a schema after making sure its subject is at least BACKWARD compatible, so that a consumer on the new
 * schema can always read the records already in the log.
 *
 * <p>A subject (or, failing that, the registry) already at BACKWARD, BACKWARD_TRANSITIVE, FULL or FULL_TRANSITIVE is
 * left alone. Otherwise the subject gets the weakest level that adds BACKWARD to what it had: NONE becomes BACKWARD,
 * FORWARD becomes FULL, FORWARD_TRANSITIVE becomes FULL_TRANSITIVE.
 */
public final class SchemaRegistration {

    private SchemaRegistration() {
    }

    /** Ensures BACKWARD compatibility on {@code subject}, registers {@code schema} there and returns its id. */
    public static int register(SchemaRegistryClient client, String subject, Schema schema) {
        CompatibilityLevel effective = effectiveCompatibility(client, subject);
        if (effective.includesBackward()) {
            return client.register(subject, schema);
        }
        CompatibilityLevel wanted = effective.withBackward();
        try {
            setCompatibility(client, subject, wanted);
        } catch (SchemaRegistryException e) {
            if (!e.isNotFound()) {
                throw e;
            }
            // Some registries (Apicurio) keep the level on the subject, which exists only after its first version;
            // a first version has nothing to be compatible with, so registering it first is safe.
            int id = client.register(subject, schema);
            setCompatibility(client, subject, wanted);
            return id;
        }
        return client.register(subject, schema);
    }

    /**
     * Sets the level; when another process set one at the same moment (Apicurio answers 409, "a rule named
     * COMPATIBILITY already exists"), the level it set is accepted if it includes BACKWARD. Two services starting
     * together on a new topic raced here, and one of them failed its first send.
     */
    private static void setCompatibility(SchemaRegistryClient client, String subject, CompatibilityLevel wanted) {
        try {
            client.setCompatibility(subject, wanted);
        } catch (SchemaRegistryException e) {
            if (e.status() != 409 || !effectiveCompatibility(client, subject).includesBackward()) {
                throw e;
            }
        }
    }

    /** The level the registry applies to {@code subject}: its own, else the registry-wide one, else NONE. */
    public static CompatibilityLevel effectiveCompatibility(SchemaRegistryClient client, String subject) {
        Optional<CompatibilityLevel> own = client.getCompatibility(subject);
        return own.or(() -> client.getCompatibility(null)).orElse(CompatibilityLevel.NONE);
    }
}
