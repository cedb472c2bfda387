package io.eventplane.core.customavro;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.schemas.serde.AvroBinary;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

/**
 * A custom object's body (its JSON without apiVersion, kind and metadata) to and from the Avro binary encoding of its
 * version's schema ({@link CustomAvroSchemas}). Encoding fails with {@link IllegalArgumentException} when the body
 * does not fit the schema (a value of another type, a required field missing): the caller then keeps JSON text.
 */
public final class CustomAvroValues {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private CustomAvroValues() {
    }

    /** The Avro binary encoding (no header) of {@code body} in {@code schema}. */
    public static byte[] encode(ObjectNode body, Schema schema) {
        Object datum = toAvro(body, schema, "");
        try {
            return AvroBinary.bytes(new GenericDatumWriter<>(schema), datum);
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("cannot encode in " + schema.getFullName() + ": " + e.getMessage(), e);
        }
    }

    /** The body encoded in {@code bytes[offset..]} with the writer schema {@code schema}. */
    public static ObjectNode decode(byte[] bytes, int offset, Schema schema) {
        BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(bytes, offset, bytes.length - offset, null);
        try {
            Object datum = new GenericDatumReader<>(schema).read(null, decoder);
            return (ObjectNode) toJson(datum, schema);
        } catch (IOException e) {
            throw new IllegalStateException("a custom object's typed bytes do not decode with "
                    + schema.getFullName() + ": " + e.getMessage(), e);
        }
    }

    private static Object toAvro(JsonNode node, Schema s, String path) {
        if (s.getType() == Schema.Type.UNION) {
            if (node == null || node.isNull()) {
                return null;
            }
            return toAvro(node, s.getTypes().get(1), path);
        }
        if (node == null || node.isNull()) {
            throw mismatch(path, "a value", node);
        }
        return switch (s.getType()) {
            case STRING -> CustomAvroSchemas.isJsonText(s) ? node.toString() : text(node, path);
            case LONG -> {
                if (!node.isIntegralNumber() || !node.canConvertToLong()) {
                    throw mismatch(path, "an integer", node);
                }
                yield node.longValue();
            }
            case DOUBLE -> {
                if (!node.isNumber()) {
                    throw mismatch(path, "a number", node);
                }
                yield node.doubleValue();
            }
            case BOOLEAN -> {
                if (!node.isBoolean()) {
                    throw mismatch(path, "a boolean", node);
                }
                yield node.booleanValue();
            }
            case ARRAY -> {
                if (!node.isArray()) {
                    throw mismatch(path, "an array", node);
                }
                List<Object> items = new ArrayList<>(node.size());
                for (int i = 0; i < node.size(); i++) {
                    items.add(toAvro(node.get(i), s.getElementType(), path + "[" + i + "]"));
                }
                yield new GenericData.Array<>(s, items);
            }
            case MAP -> {
                if (!node.isObject()) {
                    throw mismatch(path, "an object", node);
                }
                Map<String, Object> values = new HashMap<>();
                node.fields().forEachRemaining(e -> values.put(e.getKey(),
                        toAvro(e.getValue(), s.getValueType(), path + "." + e.getKey())));
                yield values;
            }
            case RECORD -> record((ObjectNode) (node.isObject() ? node : null), node, s, path);
            default -> throw new IllegalArgumentException(path + ": no mapping for " + s.getType());
        };
    }

    private static GenericRecord record(ObjectNode object, JsonNode node, Schema s, String path) {
        if (object == null) {
            throw mismatch(path, "an object", node);
        }
        GenericData.Record r = new GenericData.Record(s);
        ObjectNode unknown = null;
        Map<String, Schema.Field> byJsonName = new HashMap<>();
        for (Schema.Field f : s.getFields()) {
            if (!f.name().equals(CustomAvroSchemas.UNKNOWN_FIELDS)) {
                byJsonName.put(CustomAvroSchemas.jsonName(f), f);
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Schema.Field f = byJsonName.get(e.getKey());
            if (f != null && e.getValue().isNull()) {
                // A field's null is its absence in Avro: an explicit null (nullable: true) stays JSON text.
                throw mismatch(path.isEmpty() ? e.getKey() : path + "." + e.getKey(), "a value", e.getValue());
            } else if (f != null) {
                r.put(f.pos(), toAvro(e.getValue(), f.schema(), path.isEmpty() ? e.getKey() : path + "." + e.getKey()));
            } else if (s.getField(CustomAvroSchemas.UNKNOWN_FIELDS) != null) {
                if (unknown == null) {
                    unknown = NODES.objectNode();
                }
                unknown.set(e.getKey(), e.getValue());
            } else {
                throw new IllegalArgumentException((path.isEmpty() ? "" : path + ".") + e.getKey()
                        + ": not in the schema");
            }
        }
        for (Schema.Field f : s.getFields()) {
            if (!object.has(CustomAvroSchemas.jsonName(f)) && f.schema().getType() != Schema.Type.UNION) {
                throw new IllegalArgumentException((path.isEmpty() ? "" : path + ".") + CustomAvroSchemas.jsonName(f)
                        + ": required but missing");
            }
        }
        if (unknown != null) {
            r.put(CustomAvroSchemas.UNKNOWN_FIELDS, unknown.toString());
        }
        return r;
    }

    private static String text(JsonNode node, String path) {
        if (!node.isTextual()) {
            throw mismatch(path, "a string", node);
        }
        return node.textValue();
    }

    private static IllegalArgumentException mismatch(String path, String expected, JsonNode node) {
        return new IllegalArgumentException(path + ": expected " + expected + ", got " + node);
    }

    /** The node Jackson parses the number's text into (an int when it fits), so trees compare equal. */
    private static JsonNode integral(long v) {
        return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
    }

    private static JsonNode toJson(Object datum, Schema s) throws IOException {
        if (s.getType() == Schema.Type.UNION) {
            return datum == null ? NODES.nullNode() : toJson(datum, s.getTypes().get(1));
        }
        return switch (s.getType()) {
            case STRING -> CustomAvroSchemas.isJsonText(s) ? MAPPER.readTree(datum.toString())
                    : NODES.textNode(datum.toString());
            case LONG -> integral((Long) datum);
            // Kubernetes keeps numbers as float64 and writes an integral one without a fraction: so do we.
            case DOUBLE -> {
                double d = (Double) datum;
                yield d == Math.rint(d) && Math.abs(d) < 1e15 ? integral((long) d) : NODES.numberNode(d);
            }
            case BOOLEAN -> NODES.booleanNode((Boolean) datum);
            case BYTES -> NODES.binaryNode(((ByteBuffer) datum).array());
            case ARRAY -> {
                ArrayNode a = NODES.arrayNode();
                for (Object item : (List<?>) datum) {
                    a.add(toJson(item, s.getElementType()));
                }
                yield a;
            }
            case MAP -> {
                ObjectNode o = NODES.objectNode();
                for (Map.Entry<?, ?> e : new java.util.TreeMap<>((Map<?, ?>) datum).entrySet()) {
                    o.set(e.getKey().toString(), toJson(e.getValue(), s.getValueType()));
                }
                yield o;
            }
            case RECORD -> {
                GenericRecord r = (GenericRecord) datum;
                // Fields in name order, as Kubernetes writes an unstructured object.
                Map<String, JsonNode> fields = new java.util.TreeMap<>();
                for (Schema.Field f : s.getFields()) {
                    Object v = r.get(f.pos());
                    if (f.name().equals(CustomAvroSchemas.UNKNOWN_FIELDS)) {
                        if (v != null) {
                            MAPPER.readTree(v.toString()).fields().forEachRemaining(e -> fields.put(e.getKey(),
                                    e.getValue()));
                        }
                    } else if (v != null) {
                        fields.put(CustomAvroSchemas.jsonName(f), toJson(v, f.schema()));
                    }
                }
                ObjectNode o = NODES.objectNode();
                o.setAll(fields);
                yield o;
            }
            default -> throw new IOException("no mapping for " + s.getType());
        };
    }
}
