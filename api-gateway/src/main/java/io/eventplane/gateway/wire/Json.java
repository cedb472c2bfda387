package io.eventplane.gateway.wire;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import org.apache.avro.specific.SpecificRecord;

/**
 * Our own Jackson for everything the API writes: Kubernetes objects never go through Micronaut's serialisation (it
 * drops empty maps), and field order is the one Kubernetes uses.
 */
public final class Json {
    public static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private Json() {
    }

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static ArrayNode array() {
        return MAPPER.createArrayNode();
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    /** An object as the API serves it: apiVersion and kind first. */
    public static ObjectNode encodeObject(SpecificRecord object) {
        return KubeJson.get().encodeObject(object);
    }

    /** An object as the API serves it at a resource of {@code kind} (an alias such as events.k8s.io/v1 Event renames fields). */
    public static ObjectNode encodeObject(KindInfo kind, SpecificRecord object) {
        return KubeJson.get().encodeObject(kind, object);
    }

    /** An object as a list item: kube-apiserver leaves apiVersion and kind out of typed lists' items. */
    public static ObjectNode encodeItem(KindInfo kind, SpecificRecord object) {
        return KubeJson.get().encode(kind, object);
    }

    public static ObjectNode status(KubeStatus s) {
        ObjectNode n = object();
        n.put("kind", "Status");
        n.put("apiVersion", "v1");
        n.putObject("metadata");
        n.put("status", s.success() ? "Success" : "Failure");
        if (s.message() != null && !s.message().isEmpty()) {
            n.put("message", s.message());
        }
        if (s.reason() != null && !s.reason().isEmpty()) {
            n.put("reason", s.reason());
        }
        if (s.details() != null) {
            ObjectNode d = n.putObject("details");
            putIfPresent(d, "name", s.details().name());
            putIfPresent(d, "group", s.details().group());
            putIfPresent(d, "kind", s.details().kind());
            if (!s.details().causes().isEmpty()) {
                ArrayNode causes = d.putArray("causes");
                for (Cause c : s.details().causes()) {
                    ObjectNode cn = causes.addObject();
                    putIfPresent(cn, "reason", c.reason());
                    // A cause's message is the error without its field (kubectl prints "field: message" itself).
                    String m = c.message();
                    if (m != null && c.field() != null && !c.field().isEmpty() && m.startsWith(c.field() + ": ")) {
                        m = m.substring(c.field().length() + 2);
                    }
                    putIfPresent(cn, "message", m);
                    putIfPresent(cn, "field", c.field());
                }
            }
        }
        n.put("code", s.code());
        return n;
    }

    private static void putIfPresent(ObjectNode n, String field, String value) {
        if (value != null && !value.isEmpty()) {
            n.put(field, value);
        }
    }
}
