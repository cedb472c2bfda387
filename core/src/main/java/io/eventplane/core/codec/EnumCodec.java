package io.eventplane.core.codec;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericEnumSymbol;

/** An Avro enum as its symbol; the generated Java enum when there is one, a generic symbol otherwise. */
final class EnumCodec extends SchemaCodec {
    private final Schema schema;
    private final Map<String, Object> bySymbol = new HashMap<>();
    private final String supported;

    @SuppressWarnings({"unchecked", "rawtypes"})
    EnumCodec(Schema schema, Class<?> type) {
        this.schema = schema;
        for (String symbol : schema.getEnumSymbols()) {
            Object value = type != null && type.isEnum()
                    ? Enum.valueOf((Class) type, symbol)
                    : new GenericData.EnumSymbol(schema, symbol);
            bySymbol.put(symbol, value);
        }
        this.supported = schema.getEnumSymbols().stream().map(DecodeContext::quote).collect(Collectors.joining(", "));
    }

    @Override
    boolean reads(JsonNodeType type) {
        return type == JsonNodeType.STRING;
    }

    @Override
    boolean writes(Object value) {
        return (value instanceof Enum<?> e && bySymbol.get(e.name()) == e)
                || (value instanceof GenericEnumSymbol<?> g && g.getSchema().getFullName().equals(schema.getFullName()));
    }

    @Override
    String expected() {
        return "string";
    }

    @Override
    Object decode(JsonNode node, DecodeContext ctx) {
        if (!node.isTextual()) {
            return ctx.mismatch(expected(), node);
        }
        Object value = bySymbol.get(node.textValue());
        return value != null ? value
                : ctx.error("unsupported value " + DecodeContext.quote(node.textValue()) + ", supported values: " + supported);
    }

    @Override
    JsonNode encode(Object value) {
        return TextNode.valueOf(value instanceof Enum<?> e ? e.name() : value.toString());
    }

    @Override
    void write(Object value, JsonGenerator out) throws IOException {
        out.writeString(value instanceof Enum<?> e ? e.name() : value.toString());
    }
}
