package io.eventplane.schemas.serde;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The serializer's union shortcut")
class NullableUnionWriterTest {
    private static final Schema SCHEMA = new Schema.Parser().parse("""
            {"type": "record", "name": "Thing", "namespace": "t", "fields": [
              {"name": "nullFirst", "type": ["null", "string"], "default": null},
              {"name": "nullLast", "type": ["long", "null"], "default": 0},
              {"name": "choice", "type": ["null", "string", "long"], "default": null},
              {"name": "inner", "type": ["null", {"type": "record", "name": "Inner", "fields": [
                {"name": "n", "type": "int"}]}], "default": null}
            ]}""");

    @Test
    @DisplayName("writes the same bytes as Avro's own writer, whichever side of the union null is on")
    void sameBytesAsAvro() throws IOException {
        GenericData.Record inner = new GenericData.Record(SCHEMA.getField("inner").schema().getTypes().get(1));
        inner.put("n", 5);
        for (Map<String, Object> values : new Map[] {
                Map.of(), Map.of("nullFirst", "a", "nullLast", 7L, "choice", 3L, "inner", inner),
                Map.of("choice", "text"), Map.of("nullLast", 1L)}) {
            GenericData.Record thing = new GenericData.Record(SCHEMA);
            new HashMap<>(values).forEach(thing::put);
            assertArrayEquals(bytes(new GenericDatumWriter<>(SCHEMA), thing),
                    bytes(new NullableUnionWriter(SCHEMA), thing));
        }
    }

    @Test
    @DisplayName("still refuses a value of the wrong type")
    void wrongTypeFails() {
        GenericData.Record thing = new GenericData.Record(SCHEMA);
        thing.put("nullLast", "not a long");
        assertThrows(ClassCastException.class, () -> bytes(new NullableUnionWriter(SCHEMA), thing));
    }

    private static byte[] bytes(DatumWriter<Object> writer, Object datum) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        writer.write(datum, encoder);
        encoder.flush();
        return out.toByteArray();
    }
}
