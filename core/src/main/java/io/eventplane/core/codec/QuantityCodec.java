package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.math.BigDecimal;

/** resource.Quantity: a string or a JSON number (as Kubernetes accepts), validated, kept as written. */
final class QuantityCodec extends SchemaCodec {
    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.STRING || type == JsonNodeType.NUMBER;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof CharSequence;
    }

    @Override
    String expected() {
        return "quantity (string or number)";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        String text;
        if (node.isTextual()) {
            text = node.textValue().strip(); // Kubernetes trims the quantity text
        } else if (node.isNumber() && isFinite(node)) {
            text = numberText(node);
        } else {
            return ctx.mismatch(expected(), node);
        }
        try {
            Quantity.parse(text);
        } catch (IllegalArgumentException e) {
            return ctx.error("invalid quantity " + DecodeContext.quote(text) + ": " + e.getMessage());
        }
        return text;
    }

    private static String numberText(JsonNode node) {
        if (node.isIntegralNumber()) {
            return node.bigIntegerValue().toString();
        }
        BigDecimal d = node.decimalValue();
        // Plain digits read best ("0.5", "1000"); huge exponents stay short (and fail the quantity range check).
        return d.scale() < -40 || d.scale() > 40 ? d.toString() : d.toPlainString();
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
