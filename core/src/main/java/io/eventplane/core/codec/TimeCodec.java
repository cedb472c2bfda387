package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** metav1.Time (timestamp-millis, printed to the second) and metav1.MicroTime (timestamp-micros, 6 fraction digits). */
final class TimeCodec extends SchemaCodec {
    private final boolean micros;

    TimeCodec(boolean micros) {
        this.micros = micros;
    }

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.STRING;
    }

    @Override
    boolean writes(Object value) {
        return value instanceof Instant;
    }

    @Override
    String expected() {
        return "RFC3339 time (e.g. \"2026-11-21T10:00:00Z\")";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (!node.isTextual()) {
            return ctx.mismatch(expected(), node);
        }
        try {
            // Stored at the precision the log keeps, so a decoded object equals its own replay.
            return KubeTime.parse(node.textValue()).truncatedTo(micros ? ChronoUnit.MICROS : ChronoUnit.MILLIS);
        } catch (DateTimeParseException e) {
            return ctx.mismatch(expected(), node);
        }
    }

    @Override
    JsonNode encode(Object value) {
        Instant t = value instanceof Long l
                ? (micros ? Instant.EPOCH.plus(l, ChronoUnit.MICROS) : Instant.ofEpochMilli(l))
                : (Instant) value;
        return TextNode.valueOf(micros ? KubeTime.formatMicroTime(t) : KubeTime.formatTime(t));
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeString(encode(value).textValue());
    }
}
