package io.eventplane.schemas.serde;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.UUID;

import io.eventplane.schemas.serde.testing.Widget;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificDatumWriter;

/** Widgets and evolved Widget schemas shared by the serde tests. */
final class TestRecords {

    /** Widget plus a field with a default: BACKWARD and FORWARD compatible with Widget. */
    static final Schema WIDGET_WITH_COLOR = parse("""
            {"type":"record","name":"Widget","namespace":"io.eventplane.schemas.serde.testing","fields":[
              {"name":"name","type":{"type":"string","avro.java.string":"String"}},
              {"name":"count","type":"int"},
              {"name":"note","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},
              {"name":"color","type":{"type":"string","avro.java.string":"String"},"default":"red"}]}
            """);

    /** An older Widget without {@code note}: Widget can read it (note defaults to null). */
    static final Schema WIDGET_WITHOUT_NOTE = parse("""
            {"type":"record","name":"Widget","namespace":"io.eventplane.schemas.serde.testing","fields":[
              {"name":"name","type":{"type":"string","avro.java.string":"String"}},
              {"name":"count","type":"int"}]}
            """);

    /** Widget with {@code count} retyped to string: incompatible both ways. */
    static final Schema WIDGET_WITH_STRING_COUNT = parse("""
            {"type":"record","name":"Widget","namespace":"io.eventplane.schemas.serde.testing","fields":[
              {"name":"name","type":{"type":"string","avro.java.string":"String"}},
              {"name":"count","type":{"type":"string","avro.java.string":"String"}},
              {"name":"note","type":["null",{"type":"string","avro.java.string":"String"}],"default":null}]}
            """);

    /** Widget plus a required field without a default: a new reader cannot read old data (not BACKWARD). */
    static final Schema WIDGET_WITH_REQUIRED_SIZE = parse("""
            {"type":"record","name":"Widget","namespace":"io.eventplane.schemas.serde.testing","fields":[
              {"name":"name","type":{"type":"string","avro.java.string":"String"}},
              {"name":"count","type":"int"},
              {"name":"note","type":["null",{"type":"string","avro.java.string":"String"}],"default":null},
              {"name":"size","type":"long"}]}
            """);

    private TestRecords() {
    }

    static Widget widget(String name, int count) {
        return Widget.newBuilder().setName(name).setCount(count).build();
    }

    static GenericRecord generic(Schema schema, Map<String, Object> values) {
        GenericData.Record record = new GenericData.Record(schema);
        values.forEach(record::put);
        return record;
    }

    /** A fresh mock registry URL, so tests never share state. */
    static String mockUrl() {
        return SerdeConfig.MOCK_URL_PREFIX + UUID.randomUUID();
    }

    static MockSchemaRegistry registryOf(String mockUrl) {
        return MockSchemaRegistry.forScope(mockUrl.substring(SerdeConfig.MOCK_URL_PREFIX.length()));
    }

    static byte[] avroBinary(Widget widget) {
        try {
            return AvroBinary.bytes(new SpecificDatumWriter<Widget>(Widget.getClassSchema()), widget);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Schema parse(String json) {
        return new Schema.Parser().parse(json);
    }
}
