package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.io.IOException;

/** An Avro double or float as a JSON number. */
final class DoubleCodec extends SchemaCodec {
    private final boolean single;

    DoubleCodec(boolean single) {
        this.single = single;
    }

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.NUMBER;
    }

    @Override
    boolean writes(Object value) {
        return single ? value instanceof Float : value instanceof Double;
    }

    @Override
    String expected() {
        return "number";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (!node.isNumber()) {
            return ctx.mismatch(expected(), node);
        }
        return single ? (Object) node.floatValue() : (Object) node.doubleValue();
    }

    @Override
    JsonNode encode(Object value) {
        return single ? FloatNode.valueOf((Float) value) : DoubleNode.valueOf((Double) value);
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        if (single) {
            out.writeNumber((Float) value);
        } else {
            out.writeNumber((Double) value);
        }
    }
}
