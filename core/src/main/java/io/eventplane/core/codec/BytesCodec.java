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
        String text = node.textValue();
        // Go's decoder ignores line breaks (base64 -w76 output decodes); anything else must be the standard alphabet.
        String compact = text.indexOf('\n') < 0 && text.indexOf('\r') < 0 ? text : text.replace("\r", "").replace("\n", "");
        try {
            return ByteBuffer.wrap(Base64.getDecoder().decode(compact));
        } catch (IllegalArgumentException e) {
            return ctx.error("illegal base64 data at input byte " + illegalAt(text));
        }
    }

    /** Where Go's decoder gives up: the first character outside the alphabet, else the start of the short quantum. */
    static int illegalAt(String text) {
        int significant = 0;
        int quantumStart = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\r' || c == '\n') {
                continue;
            }
            boolean alphabet = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+'
                    || c == '/' || c == '=';
            if (!alphabet) {
                return i;
            }
            if (significant % 4 == 0) {
                quantumStart = i;
            }
            significant++;
        }
        return quantumStart;
    }

    @Override
    JsonNode encode(Object value) {
        ByteBuffer b = ((ByteBuffer) value).duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return TextNode.valueOf(Base64.getEncoder().encodeToString(bytes));
    }
}
