package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;

/** An Avro string as a JSON string. */
final class StringCodec extends SchemaCodec {
    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.STRING;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof CharSequence;
    }

    @Override
    String expected() {
        return "string";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        return node.isTextual() ? node.textValue() : ctx.mismatch(expected(), node);
    }

    @Override
    JsonNode encode(Object value) {
        return TextNode.valueOf(value.toString());
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeString(value.toString());
    }
}
