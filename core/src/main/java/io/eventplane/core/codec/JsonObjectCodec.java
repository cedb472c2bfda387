package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;

/** A JSON object kept as its compact text ({@code k8s: json-object}): managedFields' FieldsV1. */
final class JsonObjectCodec extends SchemaCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.OBJECT;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof CharSequence;
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
        return node.toString();
    }

    @Override
    JsonNode encode(Object value) {
        try {
            return MAPPER.readTree(value.toString());
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON object does not parse: " + value, e);
        }
    }
}
