package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.ByteBuffer;
import java.util.Base64;

/** Avro bytes as a base64 string, as Kubernetes writes a []byte. */
final class BytesCodec extends SchemaCodec {
    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.STRING;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof ByteBuffer;
    }

    @Override
    String expected() {
        return "base64 string";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (!node.isTextual()) {
            return ctx.mismatch(expected(), node);
        }
        try {
            return ByteBuffer.wrap(Base64.getDecoder().decode(node.textValue()));
        } catch (IllegalArgumentException e) {
            return ctx.mismatch(expected(), node);
        }
    }

    @Override
    JsonNode encode(Object value) {
        ByteBuffer b = ((ByteBuffer) value).duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return TextNode.valueOf(Base64.getEncoder().encodeToString(bytes));
    }
}
