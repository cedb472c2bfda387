package io.eventplane.core.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * A custom object's JSON: metadata through ObjectMeta's codec (typed and checked like any kind's), status apart, and
 * every other field kept as the content the writer prunes, defaults and validates against the definition's schema.
 */
final class CustomObjectCodec {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CustomObjectCodec() {
    }

    static CustomObject decode(JsonNode node, DecodeContext ctx, RecordCodec meta) {
        ctx.checkDuplicates(node, false);
        CustomObject.Builder b = CustomObject.newBuilder();
        ObjectNode content = MAPPER.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode value = e.getValue();
            switch (e.getKey()) {
                case "apiVersion" -> b.setApiVersion(value.isTextual() ? value.textValue() : null);
                case "kind" -> b.setKind(value.isTextual() ? value.textValue() : null);
                case "metadata" -> {
                    if (!value.isNull()) {
                        int mark = ctx.enterField("metadata");
                        b.setMetadata((ObjectMeta) meta.decode(value, ctx));
                        ctx.leave(mark);
                    }
                }
                case "status" -> b.setStatus(value.isNull() ? null : value.toString());
                default -> content.set(e.getKey(), value);
            }
        }
        if (b.getMetadata() == null) {
            b.setMetadata(new ObjectMeta());
        }
        return b.setContent(content.toString()).build();
    }

    /** Every field but apiVersion and kind: metadata first, then the content, then status. */
    static ObjectNode encode(CustomObject object, RecordCodec meta) {
        ObjectNode out = MAPPER.createObjectNode();
        if (object.getMetadata() != null) {
            out.set("metadata", meta.encode(object.getMetadata()));
        }
        if (object.getContent() != null) {
            out.setAll((ObjectNode) read(object.getContent()));
        }
        if (object.getStatus() != null) {
            out.set("status", read(object.getStatus()));
        }
        return out;
    }

    private static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("a stored custom object does not parse: " + json, e);
        }
    }
}
