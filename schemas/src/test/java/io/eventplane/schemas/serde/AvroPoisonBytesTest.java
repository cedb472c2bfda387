package io.eventplane.schemas.serde;

import static io.eventplane.schemas.serde.TestRecords.widget;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;

import io.eventplane.schemas.serde.testing.Widget;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

/** Undecodable bytes are poison records: a SerializationException that says what is wrong. */
class AvroPoisonBytesTest {

    private final String url = TestRecords.mockUrl();
    private final AvroSerde<Widget> serde = AvroSerde.configured(Widget.class,
            Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, url), false);
    private final byte[] good = serde.serializer().serialize("widgets", widget("a-name", 42));

    @Test
    void aWrongMagicByteIsNamed() {
        byte[] bad = good.clone();
        bad[0] = 1;
        assertPoison(bad, "magic byte is 0x01, expected 0x00");
    }

    @Test
    void bytesShorterThanTheHeaderAreNamed() {
        assertPoison(new byte[] {0, 0, 1}, "3 byte(s), fewer than the 5-byte header");
        assertPoison(new byte[0], "0 byte(s)");
    }

    @Test
    void anUnknownSchemaIdIsNamed() {
        byte[] bad = good.clone();
        ByteBuffer.wrap(bad).putInt(1, 987_654);
        assertPoison(bad, "schema id 987654 is not known to the schema registry");
    }

    @Test
    void aTruncatedPayloadIsNamed() {
        assertPoison(Arrays.copyOf(good, good.length - 4), "truncated or corrupt");
    }

    @Test
    void leftOverBytesAreNamed() {
        assertPoison(Arrays.copyOf(good, good.length + 3), "bytes left over");
    }

    @Test
    void plainTextIsNamed() {
        assertPoison("{\"name\":\"json\"}".getBytes(), "magic byte is 0x7b");
    }

    @Test
    void aWriterSchemaTheClassCannotResolveIsNamed() {
        GenericRecord retyped = TestRecords.generic(TestRecords.WIDGET_WITH_STRING_COUNT,
                Map.of("name", "x", "count", "many"));
        byte[] bytes;
        try (AvroSerializer<GenericRecord> serializer = new AvroSerializer<>()) {
            serializer.configure(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, url), false);
            // Written to another topic, as a producer with the wrong schema might do; its id is global.
            bytes = serializer.serialize("elsewhere", retyped);
        }
        assertPoison(bytes, "cannot be resolved to the class's schema");
    }

    @Test
    void anUnreachableRegistryIsRetriableNotPoison() {
        try (AvroDeserializer<Widget> deserializer = new AvroDeserializer<>(Widget.class,
                new RestSchemaRegistryClient("http://127.0.0.1:1/apis/ccompat/v7"))) {
            SchemaRegistryException e = assertThrows(SchemaRegistryException.class,
                    () -> deserializer.deserialize("widgets", good));
            assertTrue(e.isRetriable());
        }
    }

    @Test
    void anUnreachableRegistryWhileSerializingIsRetriableToo() {
        try (AvroSerializer<Widget> serializer = new AvroSerializer<>(
                new RestSchemaRegistryClient("http://127.0.0.1:1/apis/ccompat/v7"))) {
            serializer.configure(Map.of(), false);
            SchemaRegistryException e = assertThrows(SchemaRegistryException.class,
                    () -> serializer.serialize("widgets", widget("w", 1)));
            assertTrue(e.isRetriable());
            assertTrue(e.getMessage().contains("unreachable"), e.getMessage());
        }
    }

    private void assertPoison(byte[] bytes, String expectedReason) {
        SerializationException e = assertThrows(SerializationException.class,
                () -> serde.deserializer().deserialize("widgets", bytes));
        assertTrue(e.getMessage().contains(expectedReason), e.getMessage());
        assertTrue(e.getMessage().contains("topic 'widgets'"), e.getMessage());
    }
}
