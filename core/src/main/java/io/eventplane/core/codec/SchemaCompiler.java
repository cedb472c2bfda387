package io.eventplane.core.codec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/** Compiles schemas into codecs; records are compiled once per full name (recursive schemas work). Not thread-safe. */
final class SchemaCompiler {
    private final Map<String, RecordCodec> records = new HashMap<>();
    private final ClassLoader loader;

    SchemaCompiler(ClassLoader loader) {
        this.loader = loader;
    }

    /** The generated class of a named schema, or null (then generic records are built). Avro's own lookup is avoided:
     *  it applies the trusted-packages check, which is about deserialising, not about our own model classes. */
    Class<?> classOf(Schema named) {
        try {
            return Class.forName(SpecificData.getClassName(named), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    SchemaCodec compile(Schema s) {
        return switch (s.getType()) {
            case RECORD -> record(s);
            case UNION -> union(s);
            case ARRAY -> new ArrayCodec(compile(s.getElementType()));
            case MAP -> new MapCodec(compile(s.getValueType()));
            case STRING -> {
                requireNoLogicalType(s);
                if ("json-object".equals(s.getProp("k8s"))) {
                    yield JsonTextCodec.object();
                }
                if ("json".equals(s.getProp("k8s"))) {
                    yield JsonTextCodec.anyValue();
                }
                yield "quantity".equals(s.getProp("k8s")) ? new QuantityCodec() : new StringCodec();
            }
            case INT -> {
                requireNoLogicalType(s);
                yield IntegralCodec.int32();
            }
            case LONG -> {
                String logical = s.getLogicalType() == null ? null : s.getLogicalType().getName();
                if (logical == null) {
                    yield IntegralCodec.int64();
                } else if (logical.equals("timestamp-millis")) {
                    yield new TimeCodec(false);
                } else if (logical.equals("timestamp-micros")) {
                    yield new TimeCodec(true);
                }
                throw unsupported(s);
            }
            case BOOLEAN -> new BooleanCodec();
            case DOUBLE -> new DoubleCodec(false);
            case FLOAT -> new DoubleCodec(true);
            case ENUM -> new EnumCodec(s, classOf(s));
            case BYTES -> {
                requireNoLogicalType(s);
                yield new BytesCodec();
            }
            case NULL -> new UnionCodec(List.of(), true);
            case FIXED -> throw unsupported(s);
        };
    }

    private RecordCodec record(Schema s) {
        RecordCodec existing = records.get(s.getFullName());
        if (existing != null) {
            return existing;
        }
        RecordCodec codec = new RecordCodec(s, classOf(s));
        records.put(s.getFullName(), codec);
        try {
            List<RecordCodec.Field> fields = new ArrayList<>();
            for (Schema.Field f : s.getFields()) {
                fields.add(new RecordCodec.Field(f, compile(f.schema())));
            }
            codec.init(fields);
            return codec;
        } catch (RuntimeException e) {
            records.remove(s.getFullName()); // never leave a half-built codec behind
            throw e;
        }
    }

    private SchemaCodec union(Schema s) {
        List<SchemaCodec> branches = new ArrayList<>();
        boolean nullable = false;
        for (Schema b : s.getTypes()) {
            if (b.getType() == Schema.Type.NULL) {
                nullable = true;
            } else {
                branches.add(compile(b));
            }
        }
        return new UnionCodec(branches, nullable);
    }

    private static void requireNoLogicalType(Schema s) {
        if (s.getLogicalType() != null) {
            throw unsupported(s);
        }
    }

    private static IllegalArgumentException unsupported(Schema s) {
        return new IllegalArgumentException("the Kubernetes JSON codec does not support the Avro schema " + s);
    }
}
