package io.eventplane.schemas.serde;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.Encoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * An Avro writer compiled once per schema into a tree of small writers, one per schema node, so that writing a record
 * does no per-field lookups: Avro's {@code SpecificDatumWriter} asks, for every field of every record, the field's
 * schema type, its logical type and conversion, and (for a union) which branch the value belongs to. Here each of
 * those answers is taken when the tree is built; writing is a walk over the record's fields with {@code get(pos)}.
 *
 * <p>The bytes are Avro's binary encoding, identical to {@code SpecificDatumWriter}'s for generated classes and
 * generic records alike (tests compare them for every example object). Nullable unions ({@code ["null", T]}, almost
 * every field of a Kubernetes object) pick their branch by the value being null or not; other unions resolve as Avro
 * resolves them. Logical types use the conversions of the root schema's model (a generated class's {@code MODEL$}),
 * as Avro does, and a value already in the raw type (a {@code long} for a timestamp in a generic record) is written
 * as it is. A value of the wrong type fails with a {@link ClassCastException}, a missing one with a
 * {@link NullPointerException}, each naming the field.
 */
public final class CompiledDatumWriter implements DatumWriter<Object> {

    /** Writes one value of one schema node. */
    @FunctionalInterface
    interface Node {
        void write(Object value, Encoder out) throws IOException;
    }

    private final Node root;

    /** A writer for records (or values) of {@code schema}; conversions come from its generated class, if any. */
    public CompiledDatumWriter(Schema schema) {
        this(schema, SpecificData.getForSchema(schema));
    }

    /** A writer for {@code schema} whose logical types use {@code model}'s conversions. */
    public CompiledDatumWriter(Schema schema, GenericData model) {
        this.root = new Compiler(model).node(schema);
    }

    @Override
    public void setSchema(Schema schema) {
        throw new UnsupportedOperationException("a compiled writer writes the schema it was built for");
    }

    @Override
    public void write(Object datum, Encoder out) throws IOException {
        root.write(datum, out);
    }

    private static final class Compiler extends SchemaTreeCompiler<Node, RecordNode> {
        Compiler(GenericData model) {
            super(model);
        }

        @Override
        Node converting(Node raw, Schema schema, LogicalType logicalType, Conversion<Object> conversion) {
            Class<?> converted = conversion.getConvertedType();
            return (value, out) -> raw.write(converted.isInstance(value)
                    ? Conversions.convertToRawType(value, schema, logicalType, conversion) : value, out);
        }

        @Override
        Node rawNode(Schema schema) {
            switch (schema.getType()) {
                case RECORD:
                    return recordNode(schema);
                case UNION:
                    return union(schema);
                case STRING:
                    return (value, out) -> out.writeString((CharSequence) value);
                case LONG:
                    return (value, out) -> out.writeLong(((Number) value).longValue());
                case INT:
                    return (value, out) -> out.writeInt(((Number) value).intValue());
                case BOOLEAN:
                    return (value, out) -> out.writeBoolean((Boolean) value);
                case DOUBLE:
                    return (value, out) -> out.writeDouble(((Number) value).doubleValue());
                case FLOAT:
                    return (value, out) -> out.writeFloat(((Number) value).floatValue());
                case BYTES:
                    return (value, out) -> out.writeBytes((ByteBuffer) value);
                case ARRAY:
                    return array(node(schema.getElementType()));
                case MAP:
                    return map(node(schema.getValueType()));
                case ENUM:
                    return enumeration(schema);
                case FIXED:
                    int size = schema.getFixedSize();
                    return (value, out) -> out.writeFixed(((GenericFixed) value).bytes(), 0, size);
                case NULL:
                    return (value, out) -> {
                        if (value != null) {
                            throw new AvroTypeException("Not null: " + value);
                        }
                        out.writeNull();
                    };
                default:
                    throw new AvroTypeException("Unknown type: " + schema);
            }
        }

        private Node recordNode(Schema schema) {
            return record(schema, s -> new RecordNode(s), record -> record.fields = fields(schema, Node[]::new));
        }

        private Node union(Schema schema) {
            List<Schema> types = schema.getTypes();
            int nullBranch = types.size() != 2 ? -1 : types.get(0).getType() == Schema.Type.NULL ? 0
                    : types.get(1).getType() == Schema.Type.NULL ? 1 : -1;
            if (nullBranch >= 0) {
                int valueBranch = 1 - nullBranch;
                Node value = node(types.get(valueBranch));
                return (v, out) -> {
                    if (v == null) {
                        out.writeIndex(nullBranch);
                        out.writeNull();
                    } else {
                        out.writeIndex(valueBranch);
                        value.write(v, out);
                    }
                };
            }
            Node[] branches = nodes(types, Node[]::new);
            // A generated class names one branch: its branch is looked up once (the log's object union has ~40).
            Map<Class<?>, Integer> byClass = new ConcurrentHashMap<>();
            return (v, out) -> {
                int branch;
                if (v instanceof SpecificRecord) {
                    Integer known = byClass.get(v.getClass());
                    if (known == null) {
                        known = model.resolveUnion(schema, v);
                        byClass.put(v.getClass(), known);
                    }
                    branch = known;
                } else {
                    branch = model.resolveUnion(schema, v);
                }
                out.writeIndex(branch);
                branches[branch].write(v, out);
            };
        }

        private static Node array(Node element) {
            return (value, out) -> {
                Collection<?> items = (Collection<?>) value;
                int size = items.size();
                out.writeArrayStart();
                out.setItemCount(size);
                int written = 0;
                for (Object item : items) {
                    out.startItem();
                    element.write(item, out);
                    written++;
                }
                out.writeArrayEnd();
                sameCount("array", size, written);
            };
        }

        private static Node map(Node valueNode) {
            return (value, out) -> {
                Map<?, ?> entries = (Map<?, ?>) value;
                int size = entries.size();
                out.writeMapStart();
                out.setItemCount(size);
                int written = 0;
                for (Map.Entry<?, ?> entry : entries.entrySet()) {
                    out.startItem();
                    out.writeString((CharSequence) entry.getKey());
                    valueNode.write(entry.getValue(), out);
                    written++;
                }
                out.writeMapEnd();
                sameCount("map", size, written);
            };
        }

        /** A collection changed while it was written: its count, written first, no longer matches its items. */
        private static void sameCount(String what, int size, int written) {
            if (written != size) {
                throw new java.util.ConcurrentModificationException(
                        "size of " + what + " " + size + ", but " + written + " written");
            }
        }

        private static Node enumeration(Schema schema) {
            return (value, out) -> {
                if (value instanceof Enum<?> constant) {
                    // A generated enum declares its symbols in the schema's order.
                    out.writeEnum(constant.ordinal());
                } else {
                    String symbol = value.toString();
                    if (!schema.hasEnumSymbol(symbol)) {
                        throw new AvroTypeException("Not an enum: " + symbol + " for schema: " + schema);
                    }
                    out.writeEnum(schema.getEnumOrdinal(symbol));
                }
            };
        }
    }

    /** A record: its fields in order; a failure names the field (and, on the way out, each enclosing field). */
    private static final class RecordNode implements Node {
        private final Schema schema;
        Node[] fields;

        RecordNode(Schema schema) {
            this.schema = schema;
        }

        @Override
        public void write(Object value, Encoder out) throws IOException {
            IndexedRecord record = (IndexedRecord) value;
            if (record == null) {
                throw new NullPointerException("null value for (non-nullable) " + schema.getFullName());
            }
            Node[] nodes = fields;
            int i = 0;
            try {
                for (; i < nodes.length; i++) {
                    nodes[i].write(record.get(i), out);
                }
            } catch (NullPointerException e) {
                NullPointerException named =
                        new NullPointerException(inField(e, "null value for (non-nullable) field", i));
                named.initCause(e);
                throw named;
            } catch (ClassCastException e) {
                ClassCastException named = new ClassCastException(inField(e, "wrong type", i));
                named.initCause(e);
                throw named;
            }
        }

        /** Avro's way: the innermost message, then " in field f" for each record on the way out. */
        private String inField(RuntimeException e, String otherwise, int field) {
            return (e.getMessage() == null ? otherwise : e.getMessage()) + " in field "
                    + schema.getFields().get(field).name();
        }
    }
}
