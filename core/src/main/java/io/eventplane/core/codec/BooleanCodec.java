package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;

/** An Avro boolean as a JSON boolean. */
final class BooleanCodec extends SchemaCodec {
    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.BOOLEAN;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof Boolean;
    }

    @Override
    String expected() {
        return "boolean";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        return node.isBoolean() ? (Object) node.booleanValue() : ctx.mismatch(expected(), node);
    }

    @Override
    JsonNode encode(Object value) {
        return BooleanNode.valueOf((Boolean) value);
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeBoolean((Boolean) value);
    }
}
