package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** An Avro union: JSON null when it has a null branch, else the branch that reads the JSON type or writes the value. */
final class UnionCodec extends SchemaCodec {
    private final List<SchemaCodec> branches;
    private final boolean nullable;
    private final Map<JsonNodeType, SchemaCodec> byJsonType = new EnumMap<>(JsonNodeType.class);
    private final boolean ambiguousObject;
    private final String expected;

    UnionCodec(List<SchemaCodec> branches, boolean nullable) {
        this.branches = List.copyOf(branches);
        this.nullable = nullable;
        int objectReaders = 0;
        for (JsonNodeType t : JsonNodeType.values()) {
            for (SchemaCodec b : branches) {
                if (b.reads(t)) {
                    byJsonType.putIfAbsent(t, b);
                    if (t == JsonNodeType.OBJECT) {
                        objectReaders++;
                    }
                }
            }
        }
        // A union of several records (the log's object unions) cannot be told apart from JSON alone.
        this.ambiguousObject = objectReaders > 1;
        this.expected = branches.isEmpty() ? "null"
                : branches.stream().map(SchemaCodec::expected).distinct().collect(Collectors.joining(" or "));
    }

    @Override
    boolean nullable() {
        return nullable;
    }

    @Override
    boolean reads(JsonNodeType type) {
        return byJsonType.containsKey(type);
    }

    @Override
    boolean writes(Object value) {
        return value == null ? nullable : branches.stream().anyMatch(b -> b.writes(value));
    }

    @Override
    String expected() {
        return expected;
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (node.isNull()) {
            return nullable ? null : ctx.mismatch(expected, node);
        }
        SchemaCodec branch = byJsonType.get(node.getNodeType());
        if (branch == null) {
            return ctx.mismatch(expected, node);
        }
        if (ambiguousObject && node.isObject()) {
            return ctx.error("cannot tell which of " + expected + " this object is");
        }
        return branch.decode(node, ctx);
    }

    @Override
    JsonNode encode(Object value) {
        if (value == null) {
            return NullNode.getInstance();
        }
        if (branches.size() == 1) {
            return branches.get(0).encode(value);
        }
        for (SchemaCodec b : branches) {
            if (b.writes(value)) {
                return b.encode(value);
            }
        }
        throw new IllegalArgumentException("value of " + value.getClass().getName() + " matches no branch of " + expected);
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        if (value == null) {
            out.writeNull();
            return;
        }
        if (branches.size() == 1) {
            branches.get(0).write(value, out);
            return;
        }
        for (SchemaCodec b : branches) {
            if (b.writes(value)) {
                b.write(value, out);
                return;
            }
        }
        throw new IllegalArgumentException("value of " + value.getClass().getName() + " matches no branch of " + expected);
    }
}
