package io.eventplane.schemas.serde;

import static io.eventplane.schemas.serde.TestRecords.generic;
import static io.eventplane.schemas.serde.TestRecords.widget;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.eventplane.schemas.serde.testing.Widget;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

class AvroSerdeTest {

    private final String url = TestRecords.mockUrl();
    private final MockSchemaRegistry registry = TestRecords.registryOf(url);
    private final Map<String, Object> config = new HashMap<>(Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, url));

    @Test
    void aWidgetComesBackEqualAfterSerializingAndDeserializing() {
        try (AvroSerde<Widget> serde = AvroSerde.configured(Widget.class, config, false)) {
            Widget original = Widget.newBuilder().setName("w").setCount(3).setNote("n").build();
            byte[] bytes = serde.serializer().serialize("widgets", original);
            assertEquals(original, serde.deserializer().deserialize("widgets", bytes));
        }
    }

    @Test
    void recordsDecodedOneAfterAnotherShareTheirEqualStrings() {
        try (AvroSerde<Widget> serde = AvroSerde.configured(Widget.class, config, false)) {
            Widget first = serde.deserializer().deserialize("widgets",
                    serde.serializer().serialize("widgets", widget("shared-name", 1)));
            Widget second = serde.deserializer().deserialize("widgets",
                    serde.serializer().serialize("widgets", widget("shared-name", 2)));
            assertSame(first.getName(), second.getName(), "one instance of the string both records decoded");
            Widget other = serde.deserializer().deserialize("widgets",
                    serde.serializer().serialize("widgets", widget("another-name", 3)));
            assertEquals("another-name", other.getName());
            for (String s : new String[]{"x".repeat(SharedStrings.LONGEST + 1), "x".repeat(100_000), "",
                    "zoë \u00e9t\u00e9 \u6771\u4eac \ud83d\ude80"}) {
                assertEquals(s, serde.deserializer().deserialize("widgets",
                        serde.serializer().serialize("widgets", widget(s, 4))).getName());
            }
            assertEquals("shared-name", serde.deserializer().deserialize("widgets",
                    serde.serializer().serialize("widgets", widget("shared-name", 5))).getName());
        }
    }

    @Test
    void theBytesAreMagicByteZeroThenTheBigEndianSchemaIdThenTheAvroBinary() {
        Widget widget = widget("w", 7);
        try (AvroSerde<Widget> serde = AvroSerde.configured(Widget.class, config, false)) {
            byte[] bytes = serde.serializer().serialize("widgets", widget);
            int registeredId = registry.lookupId("widgets-value", Widget.getClassSchema());

            assertEquals(0, bytes[0]);
            assertEquals(registeredId, ByteBuffer.wrap(bytes, 1, 4).getInt());
            assertEquals(registeredId, WireFormat.schemaId(bytes));
            assertArrayEquals(TestRecords.avroBinary(widget), Arrays.copyOfRange(bytes, 5, bytes.length));
        }
    }

    @Test
    void theRegisteredSchemaIsTheGeneratedClassSchema() {
        try (AvroSerde<Widget> serde = AvroSerde.configured(Widget.class, config, false)) {
            byte[] bytes = serde.serializer().serialize("widgets", widget("w", 1));
            assertEquals(Widget.getClassSchema().toString(), registry.getById(WireFormat.schemaId(bytes)).toString());
            assertTrue(registry.getById(WireFormat.schemaId(bytes)).toString().contains("avro.java.string"));
        }
    }

    @Test
    void manyRecordsCostOneRegistryRoundOnEachSide() {
        try (AvroSerde<Widget> serde = AvroSerde.configured(Widget.class, config, false)) {
            byte[] first = serde.serializer().serialize("widgets", widget("w", 0));
            int afterFirstWrite = registry.requestCount();
            byte[][] all = new byte[100][];
            for (int i = 0; i < all.length; i++) {
                all[i] = serde.serializer().serialize("widgets", widget("w", i));
            }
            assertEquals(afterFirstWrite, registry.requestCount(), "no registry call after the first record");

            serde.deserializer().deserialize("widgets", first);
            int afterFirstRead = registry.requestCount();
            assertEquals(afterFirstWrite + 1, afterFirstRead, "one getById for the first record read");
            for (byte[] bytes : all) {
                serde.deserializer().deserialize("widgets", bytes);
            }
            assertEquals(afterFirstRead, registry.requestCount(), "no registry call after the first read");
        }
    }

    @Test
    void aNullRecordIsATombstoneBothWays() {
        try (AvroSerde<Widget> serde = AvroSerde.configured(Widget.class, config, false)) {
            assertNull(serde.serializer().serialize("widgets", null));
            assertNull(serde.deserializer().deserialize("widgets", null));
        }
    }

    @Test
    void aRecordWrittenWithANewerSchemaIsReadIntoTheOlderClass() {
        GenericRecord newer = generic(TestRecords.WIDGET_WITH_COLOR,
                Map.of("name", "w", "count", 2, "color", "blue"));
        try (AvroSerializer<GenericRecord> serializer = new AvroSerializer<>();
             AvroDeserializer<Widget> deserializer = new AvroDeserializer<>(Widget.class)) {
            serializer.configure(config, false);
            deserializer.configure(config, false);
            Widget read = deserializer.deserialize("widgets", serializer.serialize("widgets", newer));
            assertEquals(widget("w", 2), read);
        }
    }

    @Test
    void aRecordWrittenWithAnOlderSchemaGetsTheDefaultsOfTheClass() {
        GenericRecord older = generic(TestRecords.WIDGET_WITHOUT_NOTE, Map.of("name", "old", "count", 1));
        try (AvroSerializer<GenericRecord> serializer = new AvroSerializer<>();
             AvroDeserializer<Widget> deserializer = new AvroDeserializer<>(Widget.class)) {
            serializer.configure(config, false);
            deserializer.configure(config, false);
            Widget read = deserializer.deserialize("widgets", serializer.serialize("widgets", older));
            assertEquals(widget("old", 1), read);
            assertNull(read.getNote());
        }
    }

    @Test
    void withoutATargetClassTheDeserializerReturnsGenericRecordsInTheWriterSchema() {
        try (AvroSerializer<Widget> serializer = new AvroSerializer<>();
             AvroDeserializer<GenericRecord> deserializer = new AvroDeserializer<>()) {
            serializer.configure(config, false);
            deserializer.configure(config, false);
            GenericRecord read = deserializer.deserialize("widgets", serializer.serialize("widgets", widget("g", 4)));
            assertEquals("g", read.get("name").toString());
            assertEquals(4, read.get("count"));
        }
    }

    @Test
    void theTargetClassCanComeFromTheConfiguration() {
        config.put(SerdeConfig.VALUE_TYPE, Widget.class.getName());
        try (AvroSerializer<Widget> serializer = new AvroSerializer<>();
             Deserializer<Widget> deserializer = new AvroDeserializer<>()) {
            serializer.configure(config, false);
            deserializer.configure(config, false);
            Object read = deserializer.deserialize("widgets", serializer.serialize("widgets", widget("c", 5)));
            assertInstanceOf(Widget.class, read);
        }
    }

    @Test
    void anIncompatibleSchemaIsRejectedWithTheRegistrysReason() {
        try (Serializer<Widget> widgets = new AvroSerializer<>();
             Serializer<GenericRecord> retyped = new AvroSerializer<>()) {
            widgets.configure(config, false);
            retyped.configure(config, false);
            widgets.serialize("widgets", widget("w", 1));

            GenericRecord bad = generic(TestRecords.WIDGET_WITH_STRING_COUNT, Map.of("name", "w", "count", "one"));
            SerializationException e = assertThrows(SerializationException.class,
                    () -> retyped.serialize("widgets", bad));
            assertTrue(e.getMessage().contains("incompatible"), e.getMessage());
            assertTrue(e.getMessage().contains("widgets-value"), e.getMessage());
            assertTrue(((SchemaRegistryException) e.getCause()).isIncompatible());
        }
    }

    @Test
    void theSerializerRaisesASubjectToBackwardWhenTheRegistryAllowsAnything() {
        registry.setCompatibility(null, CompatibilityLevel.NONE);
        serializeOneWidget("loose");
        assertEquals(Optional.of(CompatibilityLevel.BACKWARD), registry.getCompatibility("loose-value"));
    }

    @Test
    void theSerializerKeepsForwardGuaranteesWhenItAddsBackward() {
        registry.setCompatibility(null, CompatibilityLevel.FORWARD);
        serializeOneWidget("forward");
        assertEquals(Optional.of(CompatibilityLevel.FULL), registry.getCompatibility("forward-value"));
    }

    @Test
    void theSerializerLeavesAStricterLevelAlone() {
        registry.setCompatibility(null, CompatibilityLevel.FULL_TRANSITIVE);
        serializeOneWidget("strict");
        assertEquals(Optional.empty(), registry.getCompatibility("strict-value"));
    }

    @Test
    void withoutAutoRegistrationAnUnregisteredSchemaIsAnErrorAndARegisteredOneIsUsed() {
        config.put(SerdeConfig.AUTO_REGISTER_SCHEMAS, "false");
        try (AvroSerializer<Widget> serializer = new AvroSerializer<>()) {
            serializer.configure(config, false);
            SerializationException e = assertThrows(SerializationException.class,
                    () -> serializer.serialize("unregistered", widget("w", 1)));
            assertTrue(e.getMessage().contains("not found"), e.getMessage());
        }
        int id = registry.register("registered-value", Widget.getClassSchema());
        try (AvroSerializer<Widget> serializer = new AvroSerializer<>()) {
            serializer.configure(config, false);
            assertEquals(id, WireFormat.schemaId(serializer.serialize("registered", widget("w", 1))));
        }
    }

    private void serializeOneWidget(String topic) {
        try (AvroSerializer<Widget> serializer = new AvroSerializer<>()) {
            serializer.configure(config, false);
            serializer.serialize(topic, widget("w", 1));
        }
    }
}
