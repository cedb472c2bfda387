package io.eventplane.gateway.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The OpenAPI v3 documents generated from the Avro schemas, read as kubectl and other clients read them. */
class OpenApiTest {

    private static JsonNode schema(ObjectNode doc, String name) {
        JsonNode s = doc.path("components").path("schemas").path(name);
        assertTrue(s.isObject(), name + " missing");
        return s;
    }

    private static JsonNode resolve(ObjectNode doc, JsonNode s) {
        JsonNode ref = s.has("allOf") ? s.path("allOf").get(0).path("$ref") : s.path("$ref");
        return schema(doc, ref.asText().substring(OpenApiSchemas.REF.length()));
    }

    @Test
    @DisplayName("apps/v1: Deployment's root schema carries its GVK, apiVersion/kind, and nested records by $ref")
    void deploymentSchema() {
        ObjectNode doc = OpenApi.document("apps", "v1");
        JsonNode deployment = schema(doc, "io.eventplane.model.Deployment");
        assertEquals("apps", deployment.path("x-kubernetes-group-version-kind").get(0).path("group").asText());
        assertEquals("Deployment", deployment.path("x-kubernetes-group-version-kind").get(0).path("kind").asText());
        assertEquals("string", deployment.path("properties").path("kind").path("type").asText());
        JsonNode spec = resolve(doc, deployment.path("properties").path("spec"));
        assertEquals(List.of("selector", "template"), strings(spec.path("required")));
        assertEquals("int32", spec.path("properties").path("replicas").path("format").asText());
        JsonNode rolling = resolve(doc, resolve(doc, spec.path("properties").path("strategy"))
                .path("properties").path("rollingUpdate"));
        JsonNode surge = resolve(doc, rolling.path("properties").path("maxSurge"));
        assertEquals("int-or-string", surge.path("format").asText());
        assertTrue(surge.path("x-kubernetes-int-or-string").asBoolean());
    }

    @Test
    @DisplayName("v1: keyed lists carry their merge key and list-map keys; quantities, times and sets are typed")
    void podLists() {
        ObjectNode doc = OpenApi.document("", "v1");
        JsonNode podSpec = schema(doc, "io.eventplane.model.PodSpec");
        JsonNode containers = podSpec.path("properties").path("containers");
        assertEquals("array", containers.path("type").asText());
        assertEquals("name", containers.path("x-kubernetes-patch-merge-key").asText());
        assertEquals("merge", containers.path("x-kubernetes-patch-strategy").asText());
        assertEquals("map", containers.path("x-kubernetes-list-type").asText());
        assertEquals("merge,retainKeys", podSpec.path("properties").path("volumes")
                .path("x-kubernetes-patch-strategy").asText());
        JsonNode container = schema(doc, "io.eventplane.model.Container");
        assertEquals(List.of("containerPort", "protocol"), strings(container.path("properties").path("ports")
                .path("x-kubernetes-list-map-keys")));
        assertEquals("atomic", container.path("properties").path("command").path("x-kubernetes-list-type").asText());
        JsonNode limits = schema(doc, "io.eventplane.model.ResourceRequirements").path("properties").path("limits");
        assertEquals("#/components/schemas/" + OpenApiSchemas.QUANTITY,
                limits.path("additionalProperties").path("$ref").asText());
        JsonNode meta = schema(doc, "io.eventplane.model.ObjectMeta").path("properties");
        assertEquals("set", meta.path("finalizers").path("x-kubernetes-list-type").asText());
        assertEquals("#/components/schemas/" + OpenApiSchemas.TIME, meta.path("creationTimestamp").path("$ref").asText());
    }

    @Test
    @DisplayName("every $ref of every served document resolves inside its document")
    void refsResolve() {
        List<ObjectNode> docs = new ArrayList<>(List.of(OpenApi.document("", "v1")));
        // groups served only by handlers of their own (metrics.k8s.io, as metrics-server's aggregated API) carry no
        // stored kinds, so no schemas to refer to
        java.util.Set<String> handlerOnly = new java.util.HashSet<>();
        Discovery.EXTRA.forEach(e -> handlerOnly.add(e.group()));
        Discovery.groups().forEach((g, vs) -> vs.forEach(v -> {
            if (!handlerOnly.contains(g)) {
                docs.add(OpenApi.document(g, v));
            }
        }));
        for (ObjectNode doc : docs) {
            List<String> refs = new ArrayList<>();
            collectRefs(doc, refs);
            assertFalse(refs.isEmpty());
            for (String r : refs) {
                assertTrue(doc.path("components").path("schemas").has(r.substring(OpenApiSchemas.REF.length())), r);
            }
        }
    }

    @Test
    @DisplayName("events.k8s.io/v1 Event has its own root with the renamed fields; core/v1 Event keeps its names")
    void eventsAlias() {
        JsonNode v1 = OpenApi.document("events.k8s.io", "v1").path("components").path("schemas")
                .path("io.eventplane.model.events.k8s.io.v1.Event").path("properties");
        assertTrue(v1.has("regarding") && v1.has("note") && !v1.has("involvedObject"), v1.toString());
        JsonNode core = OpenApi.document("", "v1").path("components").path("schemas")
                .path("io.eventplane.model.Event").path("properties");
        assertTrue(core.has("involvedObject") && core.has("message"), core.toString());
    }

    private static void collectRefs(JsonNode n, List<String> out) {
        if (n.isObject()) {
            n.fields().forEachRemaining(e -> {
                if (e.getKey().equals("$ref")) {
                    out.add(e.getValue().asText());
                } else {
                    collectRefs(e.getValue(), out);
                }
            });
        } else if (n.isArray()) {
            n.forEach(c -> collectRefs(c, out));
        }
    }

    private static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(x -> out.add(x.asText()));
        return out;
    }
}
