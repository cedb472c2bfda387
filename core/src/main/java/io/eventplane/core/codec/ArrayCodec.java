package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.NullNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** An Avro array as a JSON array. */
final class ArrayCodec extends SchemaCodec {
    private final SchemaCodec items;

    ArrayCodec(SchemaCodec items) {
        this.items = items;
    }

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.ARRAY;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof Collection<?>;
    }

    @Override
    String expected() {
        return "array";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (!node.isArray()) {
            return ctx.mismatch(expected(), node);
        }
        List<Object> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            int mark = ctx.enterIndex(i);
            out.add(items.decodeNullable(node.get(i), ctx));
            ctx.leave(mark);
        }
        return out;
    }

    @Override
    JsonNode encode(Object value) {
        ArrayNode out = NODES.arrayNode();
        for (Object item : (Collection<?>) value) {
            out.add(item == null ? NullNode.getInstance() : items.encode(item));
        }
        return out;
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeStartArray();
        for (Object item : (Collection<?>) value) {
            if (item == null) {
                out.writeNull();
            } else {
                items.write(item, out);
            }
        }
        out.writeEndArray();
    }
}
