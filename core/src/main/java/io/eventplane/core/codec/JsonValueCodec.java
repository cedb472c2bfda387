package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;

/**
 * Any JSON value kept as its compact text ({@code k8s: json}): a CRD schema's default, enum values and example, which
 * may be of any type. JSON null is never stored (it reads as absent, as every null does).
 */
final class JsonValueCodec extends SchemaCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    boolean reads(JsonNodeType type) {
        return type != JsonNodeType.NULL && type != JsonNodeType.MISSING;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof CharSequence;
    }

    @Override
    String expected() {
        return "any";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        return node.toString();
    }

    @Override
    JsonNode encode(Object value) {
        try {
            return MAPPER.readTree(value.toString());
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON value does not parse: " + value, e);
        }
    }
}
