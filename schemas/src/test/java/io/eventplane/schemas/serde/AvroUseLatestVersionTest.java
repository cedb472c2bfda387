package io.eventplane.schemas.serde;

import static io.eventplane.schemas.serde.TestRecords.widget;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import io.eventplane.schemas.serde.testing.Widget;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class AvroUseLatestVersionTest {

    private final String url = TestRecords.mockUrl();
    private final MockSchemaRegistry registry = TestRecords.registryOf(url);
    private final Map<String, Object> config = new HashMap<>(Map.of(
            SerdeConfig.SCHEMA_REGISTRY_URL, url,
            SerdeConfig.USE_LATEST_VERSION, true,
            SerdeConfig.AUTO_REGISTER_SCHEMAS, false));

    @Test
    void whenTheLatestVersionIsTheRecordsSchemaItsIdIsUsedAndNothingIsRegistered() {
        int id = registry.register("same-value", Widget.getClassSchema());
        try (AvroSerializer<Widget> serializer = serializer()) {
            assertEquals(id, WireFormat.schemaId(serializer.serialize("same", widget("w", 1))));
        }
        assertEquals(1, registry.getLatest("same-value").version());
    }

    @Test
    void whenTheLatestVersionIsNewerTheRecordIsWrittenInItsShapeUnderItsId() {
        registry.register("newer-value", Widget.getClassSchema());
        int latestId = registry.register("newer-value", TestRecords.WIDGET_WITH_COLOR);

        byte[] bytes;
        try (AvroSerializer<Widget> serializer = serializer()) {
            bytes = serializer.serialize("newer", widget("w", 9));
        }
        assertEquals(latestId, WireFormat.schemaId(bytes));
        try (AvroDeserializer<GenericRecord> generic = new AvroDeserializer<>();
             AvroDeserializer<Widget> specific = new AvroDeserializer<>(Widget.class)) {
            generic.configure(config, false);
            specific.configure(config, false);
            assertEquals("red", generic.deserialize("newer", bytes).get("color").toString());
            assertEquals(widget("w", 9), specific.deserialize("newer", bytes));
        }
    }

    @Test
    void aSubjectWithoutVersionsIsASerializationError() {
        try (AvroSerializer<Widget> serializer = serializer()) {
            SerializationException e = assertThrows(SerializationException.class,
                    () -> serializer.serialize("empty", widget("w", 1)));
            assertTrue(e.getMessage().contains("empty-value"), e.getMessage());
        }
    }

    @Test
    void aLatestVersionThatCannotRepresentTheRecordIsASerializationError() {
        registry.setCompatibility("retyped-value", CompatibilityLevel.NONE);
        registry.register("retyped-value", TestRecords.WIDGET_WITH_STRING_COUNT);
        try (AvroSerializer<Widget> serializer = serializer()) {
            SerializationException e = assertThrows(SerializationException.class,
                    () -> serializer.serialize("retyped", widget("w", 1)));
            assertTrue(e.getMessage().contains("cannot represent"), e.getMessage());
        }
    }

    private AvroSerializer<Widget> serializer() {
        AvroSerializer<Widget> serializer = new AvroSerializer<>();
        serializer.configure(config, false);
        return serializer;
    }
}
