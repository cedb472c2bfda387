package io.eventplane.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Schema;
import org.apache.avro.data.TimeConversions;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.DatumWriter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The serde's compiled Avro writer and reader")
class CompiledDatumCodersTest {
    private static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "Thing", "namespace": "t", "fields": [
              {"name": "nullFirst", "type": ["null", "string"], "default": null},
              {"name": "nullLast", "type": ["long", "null"], "default": 0},
              {"name": "choice", "type": ["null", "string", "long"], "default": null},
              {"name": "inner", "type": ["null", {"type": "record", "name": "Inner", "fields": [
                {"name": "n", "type": "int"}]}], "default": null},
              {"name": "flag", "type": "boolean", "default": false},
              {"name": "ratio", "type": "double", "default": 0},
              {"name": "small", "type": "float", "default": 0},
              {"name": "blob", "type": "bytes", "default": ""},
              {"name": "digest", "type": {"type": "fixed", "name": "Digest", "size": 4}, "default": "\\u0000\\u0000\\u0000\\u0000"},
              {"name": "color", "type": {"type": "enum", "name": "Color", "symbols": ["RED", "GREEN", "BLUE"]}, "default": "RED"},
              {"name": "tags", "type": {"type": "array", "items": "string"}, "default": []},
              {"name": "labels", "type": {"type": "map", "values": ["null", "string"]}, "default": {}},
              {"name": "at", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}], "default": null},
              {"name": "since", "type": {"type": "long", "logicalType": "timestamp-millis"}, "default": 0},
              {"name": "children", "type": {"type": "array", "items": "Thing"}, "default": []}
            ]}""");

    @Test
    @DisplayName("writes the same bytes as Avro's own writer for every type, union side, nesting and recursion")
    void sameBytesAsAvro() throws IOException {
        GenericData.Record inner = new GenericData.Record(SCHEMA.getField("inner").schema().getTypes().get(1));
        inner.put("n", 5);
        Schema digest = SCHEMA.getField("digest").schema();
        Schema color = SCHEMA.getField("color").schema();
        Map<String, Object> labels = new LinkedHashMap<>();
        labels.put("app", "web");
        labels.put("empty", null);
        GenericData.Record child = thing(Map.of("nullFirst", "child", "tags", List.of("x")));
        for (Map<String, Object> values : List.<Map<String, Object>>of(
                Map.of(),
                Map.of("nullFirst", "a", "nullLast", 7L, "choice", 3L, "inner", inner),
                Map.of("choice", "text", "flag", true, "ratio", 2.5, "small", 1.25f),
                Map.of("blob", ByteBuffer.wrap(new byte[] {1, 2, 3}),
                        "digest", new GenericData.Fixed(digest, new byte[] {9, 8, 7, 6}),
                        "color", new GenericData.EnumSymbol(color, "BLUE")),
                Map.of("tags", List.of("a", "b", "ü"), "labels", labels, "at", 1_700_000_000_123L,
                        "since", 42L, "children", List.of(child, thing(Map.of()))))) {
            GenericData.Record thing = thing(values);
            assertArrayEquals(bytes(new GenericDatumWriter<>(SCHEMA), thing),
                    bytes(new CompiledDatumWriter(SCHEMA, GenericData.get()), thing), values.toString());
        }
    }

    @Test
    @DisplayName("converts a timestamp held as an Instant, as Avro does with the model's conversion")
    void logicalTypesUseTheModelsConversions() throws IOException {
        GenericData model = new GenericData();
        model.addLogicalTypeConversion(new TimeConversions.TimestampMillisConversion());
        GenericData.Record asInstant = thing(Map.of("at", Instant.ofEpochMilli(1_700_000_000_123L),
                "since", Instant.ofEpochMilli(42)));
        GenericData.Record asLong = thing(Map.of("at", 1_700_000_000_123L, "since", 42L));
        byte[] expected = bytes(new GenericDatumWriter<>(SCHEMA, model), asInstant);
        assertArrayEquals(expected, bytes(new CompiledDatumWriter(SCHEMA, model), asInstant));
        assertArrayEquals(expected, bytes(new CompiledDatumWriter(SCHEMA, model), asLong));
    }

    @Test
    @DisplayName("refuses a value of the wrong type or a missing one, naming the field")
    void wrongOrMissingValuesFail() {
        GenericData.Record wrong = thing(Map.of("nullLast", "not a long"));
        ClassCastException cast = assertThrows(ClassCastException.class,
                () -> bytes(new CompiledDatumWriter(SCHEMA, GenericData.get()), wrong));
        assertTrue(cast.getMessage().endsWith(" in field nullLast"), cast.getMessage());

        GenericData.Record missing = thing(Map.of());
        missing.put("tags", null);
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> bytes(new CompiledDatumWriter(SCHEMA, GenericData.get()), missing));
        assertTrue(npe.getMessage().endsWith(" in field tags"), npe.getMessage());

        GenericData.Record nested = thing(Map.of("children", List.of(thing(Map.of("flag", "yes")))));
        ClassCastException deep = assertThrows(ClassCastException.class,
                () -> bytes(new CompiledDatumWriter(SCHEMA, GenericData.get()), nested));
        assertTrue(deep.getMessage().endsWith(" in field flag in field children"), deep.getMessage());
    }

    @Test
    @DisplayName("reads back what it wrote: every type, union side, nesting and recursion, equal to Avro's reader")
    void readsBackEqualToAvro() throws IOException {
        Map<String, Object> labels = new LinkedHashMap<>();
        labels.put("app", "web");
        labels.put("empty", null);
        GenericData.Record thing = thing(Map.of("nullFirst", "a", "nullLast", 7L, "choice", 3L,
                "blob", ByteBuffer.wrap(new byte[] {1, 2, 3}),
                "color", new GenericData.EnumSymbol(SCHEMA.getField("color").schema(), "BLUE"),
                "tags", List.of("a", "b", "ü"), "labels", labels, "at", 1_700_000_000_123L,
                "children", List.of(thing(Map.of("choice", "text")))));
        byte[] bytes = bytes(new GenericDatumWriter<>(SCHEMA), thing);
        Object avro = new GenericDatumReader<>(SCHEMA).read(null, DecoderFactory.get().binaryDecoder(bytes, null));
        Object compiled = new CompiledDatumReader<>(SCHEMA, GenericData.get())
                .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
        assertEquals(avro, compiled);
        assertEquals(avro.toString(), compiled.toString());
    }

    @Test
    @DisplayName("refuses corrupt bytes: an out-of-range union branch or enum symbol, a flood of items that take no "
            + "bytes, a count larger than the bytes left; it never allocates for a count it has not read")
    void corruptBytesFail() {
        Schema union = new Schema.Parser().parse("{\"type\": \"record\", \"name\": \"U\", \"fields\": ["
                + "{\"name\": \"u\", \"type\": [\"null\", \"string\"]}]}");
        assertThrows(AvroTypeException.class, () -> read(union, new byte[] {4}));
        Schema color = SCHEMA.getField("color").schema();
        assertThrows(AvroTypeException.class, () -> read(color, new byte[] {6}));
        Schema nulls = new Schema.Parser().parse("{\"type\": \"array\", \"items\": \"null\"}");
        // one block claiming 2^30 nulls: refused, not looped over
        assertThrows(AvroRuntimeException.class, () -> read(nulls, new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80,
                (byte) 0x80, 0x08}));
        Schema strings = new Schema.Parser().parse("{\"type\": \"array\", \"items\": \"string\"}");
        // a block claiming 2^30 strings in three bytes: the bytes run out, nothing large was allocated
        assertThrows(java.io.EOFException.class, () -> read(strings, new byte[] {(byte) 0x80, (byte) 0x80,
                (byte) 0x80, (byte) 0x80, 0x08, 0x02, 'a'}));
    }

    private static Object read(Schema schema, byte[] bytes) throws IOException {
        return new CompiledDatumReader<>(schema, GenericData.get())
                .read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    }

    private static GenericData.Record thing(Map<String, Object> values) {
        GenericData.Record thing = new GenericData.Record(SCHEMA);
        thing.put("nullLast", 0L);
        thing.put("flag", false);
        thing.put("ratio", 0.0);
        thing.put("small", 0.0f);
        thing.put("blob", ByteBuffer.allocate(0));
        thing.put("digest", new GenericData.Fixed(SCHEMA.getField("digest").schema(), new byte[4]));
        thing.put("color", new GenericData.EnumSymbol(SCHEMA.getField("color").schema(), "RED"));
        thing.put("tags", new ArrayList<>());
        thing.put("labels", new HashMap<>());
        thing.put("since", 0L);
        thing.put("children", new ArrayList<>());
        values.forEach(thing::put);
        return thing;
    }

    private static byte[] bytes(DatumWriter<Object> writer, Object datum) throws IOException {
        return AvroBinary.bytes(writer, datum);
    }
}
