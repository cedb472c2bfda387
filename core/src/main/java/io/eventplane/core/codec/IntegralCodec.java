package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.LongNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An Avro int or long: a JSON number with no fractional part (1.0 is accepted, 1.5 is not) that fits the range.
 * The two differ only in their name, the range check and the boxed type.
 */
final class IntegralCodec extends SchemaCodec {
    private final String expected;
    private final Class<?> boxed;
    private final Predicate<JsonNode> fits;
    private final Function<JsonNode, Object> integral;
    private final Function<BigDecimal, Object> exact;
    private final Function<Object, JsonNode> encoder;

    private IntegralCodec(String expected, Class<?> boxed, Predicate<JsonNode> fits,
            Function<JsonNode, Object> integral, Function<BigDecimal, Object> exact,
            Function<Object, JsonNode> encoder) {
        this.expected = expected;
        this.boxed = boxed;
        this.fits = fits;
        this.integral = integral;
        this.exact = exact;
        this.encoder = encoder;
    }

    static IntegralCodec int32() {
        return new IntegralCodec("integer (int32)", Integer.class, JsonNode::canConvertToInt, JsonNode::intValue,
                BigDecimal::intValueExact, v -> IntNode.valueOf((Integer) v));
    }

    static IntegralCodec int64() {
        return new IntegralCodec("integer (int64)", Long.class, JsonNode::canConvertToLong, JsonNode::longValue,
                BigDecimal::longValueExact, v -> LongNode.valueOf((Long) v));
    }

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.NUMBER;
    }

    @Override
    boolean writes(Object value) {
        return boxed.isInstance(value);
    }

    @Override
    String expected() {
        return expected;
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (!node.isNumber() || !isFinite(node)) {
            return ctx.mismatch(expected(), node);
        }
        if (node.isIntegralNumber()) {
            return fits.test(node) ? integral.apply(node) : outOfRange(node, ctx);
        }
        BigDecimal d = node.decimalValue();
        if (d.stripTrailingZeros().scale() > 0) {
            return ctx.mismatch(expected(), node);
        }
        try {
            return exact.apply(d);
        } catch (ArithmeticException e) {
            return outOfRange(node, ctx);
        }
    }

    private Object outOfRange(JsonNode node, DecodeContext ctx) {
        return ctx.error("expected " + expected() + ", got " + DecodeContext.describe(node) + " (out of range)");
    }

    @Override
    JsonNode encode(Object value) {
        return encoder.apply(value);
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        if (boxed == Integer.class) {
            out.writeNumber((Integer) value);
        } else {
            out.writeNumber((Long) value);
        }
    }
}
