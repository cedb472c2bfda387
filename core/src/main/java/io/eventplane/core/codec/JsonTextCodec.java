package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;

/**
 * JSON kept as its compact text: a JSON object ({@code k8s: json-object}: managedFields' FieldsV1), or any JSON value
 * ({@code k8s: json}: a CRD schema's default, enum values and example, which may be of any type; JSON null is never
 * stored, it reads as absent as every null does).
 */
final class JsonTextCodec extends SchemaCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final boolean objectsOnly;

    private JsonTextCodec(boolean objectsOnly) {
        this.objectsOnly = objectsOnly;
    }

    /** {@code k8s: json-object}. */
    static JsonTextCodec object() {
        return new JsonTextCodec(true);
    }

    /** {@code k8s: json}. */
    static JsonTextCodec anyValue() {
        return new JsonTextCodec(false);
    }

    @Override
    boolean reads(JsonNodeType type) {
        return objectsOnly ? type == JsonNodeType.OBJECT : type != JsonNodeType.NULL && type != JsonNodeType.MISSING;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof CharSequence;
    }

    @Override
    String expected() {
        return objectsOnly ? "object" : "any";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (objectsOnly && !node.isObject()) {
            return ctx.mismatch(expected(), node);
        }
        return node.toString();
    }

    @Override
    JsonNode encode(Object value) {
        try {
            return MAPPER.readTree(value.toString());
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON " + (objectsOnly ? "object" : "value") + " does not parse: " + value, e);
        }
    }
}
