package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificData;

/** An Avro record as a JSON object: fields by their JSON name, Avro defaults for absent fields, omitempty on encode. */
final class RecordCodec extends SchemaCodec {
    record Field(Schema.Field avro, SchemaCodec codec) {
    }

    private final Schema schema;
    private final Supplier<IndexedRecord> factory;
    private final GenericData model;
    private String[] names;
    private int[] positions;
    private SchemaCodec[] codecs;
    private Object[] defaults;
    private boolean[] required;
    private Map<String, Integer> byName;

    RecordCodec(Schema schema, Class<?> type) {
        this.schema = schema;
        this.model = type != null && IndexedRecord.class.isAssignableFrom(type) ? SpecificData.getForClass(type) : GenericData.get();
        this.factory = factoryFor(schema, type);
    }

    Schema schema() {
        return schema;
    }

    private static Supplier<IndexedRecord> factoryFor(Schema schema, Class<?> type) {
        if (type != null && IndexedRecord.class.isAssignableFrom(type)) {
            try {
                Constructor<?> ctor = type.getDeclaredConstructor();
                return () -> {
                    try {
                        return (IndexedRecord) ctor.newInstance();
                    } catch (ReflectiveOperationException e) {
                        throw new IllegalStateException("cannot instantiate " + type.getName(), e);
                    }
                };
            } catch (NoSuchMethodException e) {
                // fall through to a generic record
            }
        }
        return () -> new GenericData.Record(schema);
    }

    void init(List<Field> fields) {
        int n = fields.size();
        names = new String[n];
        positions = new int[n];
        codecs = new SchemaCodec[n];
        defaults = new Object[n];
        required = new boolean[n];
        byName = new HashMap<>(n * 2);
        for (int i = 0; i < n; i++) {
            Schema.Field f = fields.get(i).avro();
            // A JSON name Avro cannot spell (a strategic-merge directive such as "$patch") is a field property.
            String jsonName = f.getProp("jsonName");
            names[i] = jsonName != null ? jsonName : f.name();
            positions[i] = f.pos();
            codecs[i] = fields.get(i).codec();
            if (f.hasDefaultValue()) {
                defaults[i] = model.getDefaultValue(f);
            } else {
                required[i] = !codecs[i].nullable();
            }
            byName.put(names[i], i);
        }
    }

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.OBJECT;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof IndexedRecord r && r.getSchema().getFullName().equals(schema.getFullName());
    }

    @Override
    String expected() {
        return "object";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        return decode(node, ctx, false);
    }

    /** At the root, {@code apiVersion} and {@code kind} belong to the envelope, not to the record. */
    IndexedRecord decode(JsonNode node, DecodeContext ctx, boolean root) {
        if (!node.isObject()) {
            ctx.mismatch(expected(), node);
            return null;
        }
        ctx.checkDuplicates(node, false);
        IndexedRecord out = factory.get();
        boolean[] seen = new boolean[names.length];
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (root && (e.getKey().equals("apiVersion") || e.getKey().equals("kind"))) {
                continue; // the envelope, even where the record has such fields for embedding (PersistentVolumeClaim)
            }
            Integer i = byName.get(e.getKey());
            if (i == null) {
                ctx.unknownField(ctx.childPath(e.getKey()));
                continue;
            }
            JsonNode value = e.getValue();
            if (value.isNull()) {
                continue; // JSON null is absent
            }
            seen[i] = true;
            int mark = ctx.enterField(names[i]);
            Object decoded = codecs[i].decode(value, ctx);
            ctx.leave(mark);
            if (decoded != null) {
                out.put(positions[i], decoded);
            }
        }
        for (int i = 0; i < names.length; i++) {
            if (seen[i]) {
                continue;
            }
            if (defaults[i] != null) {
                out.put(positions[i], model.deepCopy(schema.getFields().get(positions[i]).schema(), defaults[i]));
            } else if (required[i]) {
                ctx.errors.add(new FieldError(ctx.childPath(names[i]), "required value"));
            }
        }
        return out;
    }

    @Override
    ObjectNode encode(Object value) {
        IndexedRecord record = (IndexedRecord) value;
        ObjectNode out = NODES.objectNode();
        for (int i = 0; i < names.length; i++) {
            Object v = record.get(positions[i]);
            if (v == null || (v instanceof Collection<?> c && c.isEmpty()) || (v instanceof Map<?, ?> m && m.isEmpty())) {
                continue; // omitempty; an empty record ({} as in emptyDir: {}) is kept
            }
            out.set(names[i], codecs[i].encode(v));
        }
        return out;
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeStartObject();
        writeFields((IndexedRecord) value, out);
        out.writeEndObject();
    }

    /** The fields of {@link #encode}, without the braces (a root object writes apiVersion and kind first). */
    void writeFields(IndexedRecord record, JsonGenerator out) throws IOException {
        for (int i = 0; i < names.length; i++) {
            Object v = record.get(positions[i]);
            if (v == null || (v instanceof Collection<?> c && c.isEmpty()) || (v instanceof Map<?, ?> m && m.isEmpty())) {
                continue;
            }
            out.writeFieldName(names[i]);
            codecs[i].write(v, out);
        }
    }

    /** Whether the record has a field of this JSON name. */
    boolean hasField(String jsonName) {
        return byName.containsKey(jsonName);
    }
}
