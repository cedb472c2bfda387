package io.eventplane.schemas.serde;

import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.avro.Conversion;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/** What the compiled writer and reader share in building their trees of per-schema nodes. */
final class SchemaTrees {
    private SchemaTrees() {
    }

    /**
     * The node of a record schema, built once: it is registered in {@code built} before {@code fill} builds its fields,
     * so that a recursive schema's fields refer back to it.
     */
    static <R> R record(Map<Schema, R> built, Schema schema, Function<Schema, R> create, Consumer<R> fill) {
        R existing = built.get(schema);
        if (existing != null) {
            return existing;
        }
        R record = create.apply(schema);
        built.put(schema, record);
        fill.accept(record);
        return record;
    }

    /** The nodes of {@code schemas} (a record's fields', a union's branches), in order. */
    static <N> N[] nodes(List<Schema> schemas, Function<Schema, N> node, IntFunction<N[]> array) {
        N[] nodes = array.apply(schemas.size());
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node.apply(schemas.get(i));
        }
        return nodes;
    }

    /** The conversion {@code model} has for {@code schema}'s logical type, or null (none, or no logical type). */
    @SuppressWarnings("unchecked")
    static Conversion<Object> conversion(GenericData model, Schema schema) {
        LogicalType logicalType = schema.getLogicalType();
        return logicalType == null ? null : (Conversion<Object>) model.getConversionFor(logicalType);
    }

    /** A record's fields' schemas, in field order. */
    static List<Schema> fieldSchemas(Schema record) {
        return record.getFields().stream().map(Schema.Field::schema).toList();
    }
}
