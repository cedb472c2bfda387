package io.eventplane.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Two processes registering the first schema of a subject at once (Apicurio answers the later level with 409). */
class SchemaRegistrationRaceTest {
    private static final Schema SCHEMA = SchemaBuilder.record("Thing").namespace("test").fields()
            .requiredString("name").endRecord();

    /** A registry where someone else sets {@code theirs} just before our own attempt, which is then refused. */
    private static SchemaRegistryClient racing(CompatibilityLevel theirs) {
        MockSchemaRegistry registry = MockSchemaRegistry.forScope("race-" + theirs + System.nanoTime());
        registry.setCompatibility(null, CompatibilityLevel.NONE); // so our registration has a level to set
        return new SchemaRegistryClient() {
            @Override
            public int register(String subject, Schema schema) {
                return registry.register(subject, schema);
            }

            @Override
            public int lookupId(String subject, Schema schema) {
                return registry.lookupId(subject, schema);
            }

            @Override
            public Schema getById(int id) {
                return registry.getById(id);
            }

            @Override
            public RegisteredSchema getLatest(String subject) {
                return registry.getLatest(subject);
            }

            @Override
            public Optional<CompatibilityLevel> getCompatibility(String subject) {
                return registry.getCompatibility(subject);
            }

            @Override
            public void setCompatibility(String subject, CompatibilityLevel level) {
                registry.setCompatibility(subject, theirs);
                throw new SchemaRegistryException("HTTP 409, error_code 0: A rule named 'COMPATIBILITY' already exists.",
                        409, 0);
            }

            @Override
            public boolean testCompatibility(String subject, Schema schema) {
                return registry.testCompatibility(subject, schema);
            }

            @Override
            public void close() {
            }
        };
    }

    @Test
    @DisplayName("a level set meanwhile by another process is accepted when it includes BACKWARD")
    void concurrentBackwardIsAccepted() {
        SchemaRegistryClient client = racing(CompatibilityLevel.BACKWARD);
        int id = SchemaRegistration.register(client, "things-value", SCHEMA);
        assertEquals(id, client.lookupId("things-value", SCHEMA));
    }

    @Test
    @DisplayName("a level set meanwhile that does not include BACKWARD is still an error")
    void concurrentNoneIsRefused() {
        SchemaRegistryClient client = racing(CompatibilityLevel.NONE);
        SchemaRegistryException e = assertThrows(SchemaRegistryException.class,
                () -> SchemaRegistration.register(client, "things-value", SCHEMA));
        assertEquals(409, e.status());
    }
}
