package io.eventplane.schemas.serde;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.apache.avro.Conversion;
import org.apache.avro.LogicalType;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * What the compiled writer and reader share: a tree of one node per schema node, logical types wrapped with the
 * model's conversion, each record's node built once (registered before its fields are built, so that a recursive
 * schema's fields refer back to it).
 *
 * @param <N> a node
 * @param <R> a record's node
 */
abstract class SchemaTreeCompiler<N, R extends N> {
    final GenericData model;
    private final Map<Schema, R> records = new IdentityHashMap<>();

    SchemaTreeCompiler(GenericData model) {
        this.model = model;
    }

    /** The node of {@code schema}, its logical type (when the model converts it) included. */
    final N node(Schema schema) {
        N raw = rawNode(schema);
        LogicalType logicalType = schema.getLogicalType();
        @SuppressWarnings("unchecked")
        Conversion<Object> conversion = logicalType == null ? null
                : (Conversion<Object>) model.getConversionFor(logicalType);
        return conversion == null ? raw : converting(raw, schema, logicalType, conversion);
    }

    /** The node of {@code schema}'s own type. */
    abstract N rawNode(Schema schema);

    /** {@code raw} with the conversion between the raw and the logical value. */
    abstract N converting(N raw, Schema schema, LogicalType logicalType, Conversion<Object> conversion);

    /** A record schema's node: {@code create} makes it, {@code fill} gives it its fields' nodes ({@link #fields}). */
    final R record(Schema schema, Function<Schema, R> create, Consumer<R> fill) {
        R existing = records.get(schema);
        if (existing != null) {
            return existing;
        }
        R record = create.apply(schema);
        records.put(schema, record);
        fill.accept(record);
        return record;
    }

    /** The nodes of a record's fields, in field order. */
    final N[] fields(Schema record, IntFunction<N[]> array) {
        return nodes(record.getFields().stream().map(Schema.Field::schema).toList(), array);
    }

    /** The nodes of {@code schemas} (a union's branches), in order. */
    final N[] nodes(List<Schema> schemas, IntFunction<N[]> array) {
        N[] nodes = array.apply(schemas.size());
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = node(schemas.get(i));
        }
        return nodes;
    }
}
