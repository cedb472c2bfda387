package io.eventplane.schemas.serde;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.AvroTypeException;
import org.apache.avro.Conversion;
import org.apache.avro.Conversions;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.Decoder;
import org.apache.avro.specific.SpecificData;

/**
 * An Avro reader compiled once per schema, for records written with the schema they are read into (the common case:
 * the writer's schema is the class's own); {@link AvroDeserializer} keeps Avro's resolving reader for the others. The
 * counterpart of {@link CompiledDatumWriter}: each schema node's reader is chosen when the tree is built, a record is
 * its generated class's constructor and a {@code put} per field, and the values are of the classes Avro's
 * {@code SpecificDatumReader} gives (Avro's arrays, its model's maps, generated enums, {@code String}s where the schema
 * asks for them, logical types through the model's conversions). Equal records, field by field and class by class,
 * for every example object (tests).
 *
 * <p>Corrupt bytes fail as Avro's reader fails (the decoder's own length checks, an {@link AvroTypeException} for an
 * out-of-range union branch or enum symbol). An array or map block never makes the reader allocate more than a few
 * dozen slots ahead of the items it has read, so a count in a corrupt record costs nothing before the bytes run out;
 * items that take no bytes at all (nulls, empty records) are limited to {@value #MAX_EMPTY_ITEMS} per collection.
 */
public final class CompiledDatumReader<T> implements DatumReader<T> {
    static final int MAX_EMPTY_ITEMS = 1 << 16;
    private static final int PREALLOCATE_AT_MOST = 64;

    /** Reads one value of one schema node. */
    @FunctionalInterface
    interface Node {
        Object read(Decoder in) throws IOException;
    }

    private final Node root;

    /** A reader of {@code schema} (written with this very schema) into {@code model}'s classes. */
    public CompiledDatumReader(Schema schema, GenericData model) {
        this.root = new Compiler(model).node(schema);
    }

    @Override
    public void setSchema(Schema schema) {
        throw new UnsupportedOperationException("a compiled reader reads the schema it was built for");
    }

    @Override
    @SuppressWarnings("unchecked")
    public T read(T reuse, Decoder in) throws IOException {
        return (T) root.read(in);
    }

    private static final class Compiler extends SchemaTreeCompiler<Node, RecordNode> {
        Compiler(GenericData model) {
            super(model);
        }

        @Override
        Node converting(Node raw, Schema schema, LogicalType logicalType, Conversion<Object> conversion) {
            return in -> Conversions.convertToLogicalType(raw.read(in), schema, logicalType, conversion);
        }

        @Override
        Node rawNode(Schema schema) {
            switch (schema.getType()) {
                case RECORD:
                    return recordNode(schema);
                case UNION:
                    return union(schema);
                case STRING:
                    // Generated classes ask for java.lang.String (and get shared ones); otherwise Avro's Utf8.
                    return GenericData.StringType.String.name().equals(schema.getProp(GenericData.STRING_PROP))
                            ? Decoder::readString : in -> in.readString(null);
                case LONG:
                    return Decoder::readLong;
                case INT:
                    return Decoder::readInt;
                case BOOLEAN:
                    return Decoder::readBoolean;
                case DOUBLE:
                    return Decoder::readDouble;
                case FLOAT:
                    return Decoder::readFloat;
                case BYTES:
                    return in -> in.readBytes(null);
                case ARRAY:
                    return array(schema, node(schema.getElementType()), minBytes(schema.getElementType()) == 0);
                case MAP:
                    return map(schema, node(schema.getValueType()));
                case ENUM:
                    return enumeration(schema);
                case FIXED:
                    int size = schema.getFixedSize();
                    return in -> {
                        GenericFixed fixed = (GenericFixed) model.createFixed(null, schema);
                        in.readFixed(fixed.bytes(), 0, size);
                        return fixed;
                    };
                case NULL:
                    return in -> {
                        in.readNull();
                        return null;
                    };
                default:
                    throw new AvroTypeException("Unknown type: " + schema);
            }
        }

        private Node recordNode(Schema schema) {
            return record(schema, s -> new RecordNode(s, model), record -> record.fields = fields(schema, Node[]::new));
        }

        private Node union(Schema schema) {
            List<Schema> types = schema.getTypes();
            Node[] branches = nodes(types, Node[]::new);
            return in -> {
                int branch = in.readIndex();
                if (branch < 0 || branch >= branches.length) {
                    throw new AvroTypeException("union branch " + branch + " of " + branches.length);
                }
                return branches[branch].read(in);
            };
        }

        private Node array(Schema schema, Node element, boolean emptyItems) {
            return in -> {
                long block = in.readArrayStart();
                // Avro's reader gives a GenericData.Array for every element type (not the model's primitive arrays)
                Collection<Object> items = new GenericData.Array<>(
                        (int) Math.min(Math.max(block, 0), PREALLOCATE_AT_MOST), schema);
                long total = 0;
                while (block > 0) {
                    total += block;
                    if (emptyItems && total > MAX_EMPTY_ITEMS) {
                        throw new AvroRuntimeException("an array of " + total + " items that take no bytes");
                    }
                    for (long i = 0; i < block; i++) {
                        items.add(element.read(in));
                    }
                    block = in.arrayNext();
                }
                return items;
            };
        }

        private Node map(Schema schema, Node value) {
            Node key = GenericData.StringType.String.name().equals(schema.getProp(GenericData.STRING_PROP))
                    ? Decoder::readString : in -> in.readString(null);
            // every entry has a key, which takes at least its length byte: no limit needed on empty items
            return in -> {
                long block = in.readMapStart();
                @SuppressWarnings("unchecked")
                Map<Object, Object> entries = (Map<Object, Object>) model.newMap(null,
                        (int) Math.min(Math.max(block, 0), PREALLOCATE_AT_MOST));
                while (block > 0) {
                    for (long i = 0; i < block; i++) {
                        Object k = key.read(in);
                        entries.put(k, value.read(in));
                    }
                    block = in.mapNext();
                }
                return entries;
            };
        }

        private Node enumeration(Schema schema) {
            List<String> symbols = schema.getEnumSymbols();
            Object[] constants = new Object[symbols.size()];
            for (int i = 0; i < constants.length; i++) {
                constants[i] = model.createEnum(symbols.get(i), schema);
            }
            return in -> {
                int index = in.readEnum();
                if (index < 0 || index >= constants.length) {
                    throw new AvroTypeException("enum symbol " + index + " of " + constants.length + " in "
                            + schema.getFullName());
                }
                return constants[index];
            };
        }

        /** The fewest bytes a value of {@code schema} takes (0: it can take none, e.g. null or an empty record). */
        private static int minBytes(Schema schema) {
            return minBytes(schema, new IdentityHashMap<>());
        }

        private static int minBytes(Schema schema, Map<Schema, Boolean> visiting) {
            switch (schema.getType()) {
                case NULL:
                    return 0;
                case FLOAT:
                    return 4;
                case DOUBLE:
                    return 8;
                case FIXED:
                    return schema.getFixedSize();
                case RECORD:
                    if (visiting.put(schema, Boolean.TRUE) != null) {
                        return 0; // a recursive record: count it as possibly empty, the safe side
                    }
                    int sum = 0;
                    for (Schema.Field f : schema.getFields()) {
                        sum += minBytes(f.schema(), visiting);
                    }
                    visiting.remove(schema);
                    return sum;
                default:
                    return 1; // a varint, a length, a union index, a block count
            }
        }
    }

    /** A record: a new instance of its class, then its fields in order. */
    private static final class RecordNode implements Node {
        private final Schema schema;
        private final Constructor<?> constructor;
        Node[] fields;

        RecordNode(Schema schema, GenericData model) {
            this.schema = schema;
            Class<?> type = model instanceof SpecificData specific
                    ? specific.getClass(schema) : null;
            Constructor<?> c = null;
            if (type != null && IndexedRecord.class.isAssignableFrom(type)) {
                try {
                    c = type.getDeclaredConstructor();
                    c.setAccessible(true);
                } catch (NoSuchMethodException e) {
                    c = null;
                }
            }
            this.constructor = c;
        }

        @Override
        public Object read(Decoder in) throws IOException {
            IndexedRecord record = newRecord();
            Node[] nodes = fields;
            for (int i = 0; i < nodes.length; i++) {
                record.put(i, nodes[i].read(in));
            }
            return record;
        }

        private IndexedRecord newRecord() {
            if (constructor == null) {
                return new GenericData.Record(schema);
            }
            try {
                return (IndexedRecord) constructor.newInstance();
            } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
                throw new AvroRuntimeException("cannot create a " + schema.getFullName(), e);
            }
        }
    }
}
