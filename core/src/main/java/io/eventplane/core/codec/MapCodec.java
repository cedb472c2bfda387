package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** An Avro map as a JSON object, keys in their order. */
final class MapCodec extends SchemaCodec {
    private final SchemaCodec values;

    MapCodec(SchemaCodec values) {
        this.values = values;
    }

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.OBJECT;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof Map<?, ?>;
    }

    @Override
    String expected() {
        return "object";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (!node.isObject()) {
            return ctx.mismatch(expected(), node);
        }
        ctx.checkDuplicates(node, true);
        Map<String, Object> out = new LinkedHashMap<>(Math.max(4, node.size() * 4 / 3 + 1));
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            int mark = ctx.enterKey(e.getKey());
            out.put(e.getKey(), values.decodeNullable(e.getValue(), ctx));
            ctx.leave(mark);
        }
        return out;
    }

    @Override
    JsonNode encode(Object value) {
        ObjectNode out = NODES.objectNode();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            out.set(e.getKey().toString(), e.getValue() == null ? NullNode.getInstance() : values.encode(e.getValue()));
        }
        return out;
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeStartObject();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
            out.writeFieldName(e.getKey().toString());
            if (e.getValue() == null) {
                out.writeNull();
            } else {
                values.write(e.getValue(), out);
            }
        }
        out.writeEndObject();
    }
}
