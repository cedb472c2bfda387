package io.eventplane.schemas.serde;

import java.util.Optional;

import org.apache.avro.Schema;

/**
 * The part of a Confluent-compatible schema registry the serde needs. Methods throw {@link SchemaRegistryException}
 * when the registry refuses or cannot be reached.
 */
public interface SchemaRegistryClient extends AutoCloseable {

    /** Registers {@code schema} under {@code subject} (a no-op if already there) and returns its global id. */
    int register(String subject, Schema schema);

    /** The id of {@code schema} if already registered under {@code subject}; 404 otherwise. */
    int lookupId(String subject, Schema schema);

    /** The schema with this global id; 404 if unknown. */
    Schema getById(int id);

    /** The latest version registered under {@code subject}; 404 if the subject is unknown. */
    RegisteredSchema getLatest(String subject);

    /**
     * The compatibility configured for {@code subject}, or for the whole registry when {@code subject} is null;
     * empty if none is configured at that level.
     */
    Optional<CompatibilityLevel> getCompatibility(String subject);

    /** Sets the compatibility of {@code subject}, or of the whole registry when {@code subject} is null. */
    void setCompatibility(String subject, CompatibilityLevel level);

    /** Whether {@code schema} may be registered next under {@code subject} (true for an unknown subject). */
    boolean testCompatibility(String subject, Schema schema);

    @Override
    default void close() {
    }

    /**
     * A client for {@code url}: {@code mock://<scope>} gives the in-JVM {@link MockSchemaRegistry} of that scope,
     * anything else a {@link RestSchemaRegistryClient} (comma-separated URLs are tried in order).
     */
    static SchemaRegistryClient forUrl(String url) {
        if (url == null || url.isBlank()) {
            throw new IllegalArgumentException(SerdeConfig.SCHEMA_REGISTRY_URL + " is not set");
        }
        if (url.startsWith(SerdeConfig.MOCK_URL_PREFIX)) {
            return MockSchemaRegistry.forScope(url.substring(SerdeConfig.MOCK_URL_PREFIX.length()));
        }
        return new RestSchemaRegistryClient(url);
    }
}
