package io.eventplane.schemas.serde;

import static io.eventplane.schemas.serde.TestRecords.widget;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import io.eventplane.schemas.serde.testing.Widget;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The REST client and the serde against the real Apicurio Registry (Confluent-compatible API). */
@ExtendWith(SharedClusterExtension.class)
class AvroSerdeRegistryIntegrationTest {

    private final String url = SharedCluster.get().registryUrl();

    @Test
    void aRegisteredSchemaResolvesByIdToTheSameSchema() {
        String subject = SharedCluster.uniqueName("resolve") + "-value";
        int id;
        try (RestSchemaRegistryClient writer = new RestSchemaRegistryClient(url)) {
            id = writer.register(subject, Widget.getClassSchema());
            assertEquals(id, writer.register(subject, Widget.getClassSchema()), "registering again is a no-op");
        }
        try (RestSchemaRegistryClient fresh = new RestSchemaRegistryClient(url)) {
            assertEquals(Widget.getClassSchema(), fresh.getById(id));
            assertEquals(id, fresh.lookupId(subject, Widget.getClassSchema()));
            RegisteredSchema latest = fresh.getLatest(subject);
            assertEquals(id, latest.id());
            assertEquals(1, latest.version());
            assertEquals(Widget.getClassSchema(), latest.schema());
        }
    }

    @Test
    void theSerializerSetsBackwardOnTheSubjectItRegisters() {
        String topic = SharedCluster.uniqueName("backward");
        try (AvroSerializer<Widget> serializer = new AvroSerializer<>()) {
            serializer.configure(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, url), false);
            serializer.serialize(topic, widget("w", 1));
        }
        try (RestSchemaRegistryClient client = new RestSchemaRegistryClient(url)) {
            assertTrue(SchemaRegistration.effectiveCompatibility(client, topic + "-value").includesBackward());
        }
    }

    @Test
    void anIncompatibleEvolutionIsRefusedByTheRegistryOnceBackwardIsSet() {
        String subject = SharedCluster.uniqueName("evolve") + "-value";
        try (RestSchemaRegistryClient client = new RestSchemaRegistryClient(url)) {
            SchemaRegistration.register(client, subject, Widget.getClassSchema());

            assertFalse(client.testCompatibility(subject, TestRecords.WIDGET_WITH_REQUIRED_SIZE));
            SchemaRegistryException refused = assertThrows(SchemaRegistryException.class,
                    () -> client.register(subject, TestRecords.WIDGET_WITH_REQUIRED_SIZE));
            assertTrue(refused.isIncompatible(), refused.getMessage());
            assertTrue(refused.getMessage().contains("error_code"), refused.getMessage());

            assertTrue(client.testCompatibility(subject, TestRecords.WIDGET_WITH_COLOR));
            int evolved = client.register(subject, TestRecords.WIDGET_WITH_COLOR);
            assertEquals(evolved, client.getLatest(subject).id());
            assertEquals(2, client.getLatest(subject).version());
        }
    }

    @Test
    void anUnknownIdIsANotFoundAndAPoisonRecordForTheDeserializer() {
        try (RestSchemaRegistryClient client = new RestSchemaRegistryClient(url)) {
            SchemaRegistryException e = assertThrows(SchemaRegistryException.class, () -> client.getById(99_999_999));
            assertTrue(e.isNotFound(), e.getMessage());
            assertFalse(e.isRetriable());
        }
        try (AvroDeserializer<Widget> deserializer = new AvroDeserializer<>(Widget.class)) {
            deserializer.configure(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, url), false);
            byte[] unknownId = {0, 0x05, (byte) 0xf5, (byte) 0xe0, (byte) 0xff, 2, 'x', 2};
            SerializationException e = assertThrows(SerializationException.class,
                    () -> deserializer.deserialize("widgets", unknownId));
            assertTrue(e.getMessage().contains("schema id 99999999 is not known"), e.getMessage());
        }
    }

    @Test
    void theGlobalLevelCanBeReadAndTheSubjectLevelSet() {
        String subject = SharedCluster.uniqueName("config") + "-value";
        try (RestSchemaRegistryClient client = new RestSchemaRegistryClient(url)) {
            client.register(subject, Widget.getClassSchema());
            client.setCompatibility(subject, CompatibilityLevel.FULL_TRANSITIVE);
            assertEquals(CompatibilityLevel.FULL_TRANSITIVE, client.getCompatibility(subject).orElseThrow());
            client.getCompatibility(null);
        }
    }
}
