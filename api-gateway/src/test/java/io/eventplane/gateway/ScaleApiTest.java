package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The scale subresource (autoscaling/v1 Scale): GET, merge patch (kubectl scale), PUT (fabric8), conflicts. */
class ScaleApiTest {
    private static final String DEPLOYMENTS = "/apis/apps/v1/namespaces/default/deployments";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static JsonNode create(String url, String file, String name) {
        String text = WorkloadApiTest.example(file).replaceFirst("(?m)^  name: .*$", "  name: " + name);
        HttpResponse<String> r = f.send("POST", url, "application/yaml", text.getBytes(StandardCharsets.UTF_8));
        assertEquals(201, r.statusCode(), r.body());
        return json(r);
    }

    @Test
    @DisplayName("DEP-36 GET scale shows spec.replicas, status.replicas and the selector as text")
    void getScale() {
        JsonNode d = create(DEPLOYMENTS, "deployment-nginx-deployment.yaml", "get-scale");
        JsonNode scale = json(f.get(DEPLOYMENTS + "/get-scale/scale"));
        assertEquals("Scale", scale.path("kind").asText());
        assertEquals("autoscaling/v1", scale.path("apiVersion").asText());
        assertEquals("get-scale", scale.path("metadata").path("name").asText());
        assertEquals("default", scale.path("metadata").path("namespace").asText());
        assertEquals(d.path("metadata").path("uid"), scale.path("metadata").path("uid"));
        assertEquals(d.path("metadata").path("resourceVersion"), scale.path("metadata").path("resourceVersion"));
        assertEquals(3, scale.path("spec").path("replicas").asInt());
        assertEquals(0, scale.path("status").path("replicas").asInt());
        assertEquals("app=nginx", scale.path("status").path("selector").asText());
        assertEquals(404, f.get(DEPLOYMENTS + "/absent/scale").statusCode());
    }

    @Test
    @DisplayName("DEP-36 RS-14 kubectl scale's merge patch changes only spec.replicas: no new generation of anything else")
    void mergePatchScale() {
        JsonNode before = create(DEPLOYMENTS, "deployment-nginx-deployment.yaml", "patched");
        HttpResponse<String> r = f.patch(DEPLOYMENTS + "/patched/scale", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":5}}");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(5, json(r).path("spec").path("replicas").asInt());
        JsonNode after = json(f.get(DEPLOYMENTS + "/patched"));
        assertEquals(5, after.path("spec").path("replicas").asInt());
        assertEquals(2, after.path("metadata").path("generation").asInt());
        ObjectNode spec = (ObjectNode) after.path("spec").deepCopy();
        spec.put("replicas", 3);
        assertEquals(before.path("spec"), spec);
        assertEquals(after.path("metadata").path("resourceVersion"), json(r).path("metadata").path("resourceVersion"));

        String rs = "/apis/apps/v1/namespaces/default/replicasets";
        create(rs, "replicaset-frontend.yaml", "frontend-scaled");
        HttpResponse<String> scaled = f.patch(rs + "/frontend-scaled/scale", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":0}}");
        assertEquals(200, scaled.statusCode(), scaled.body());
        assertFalse(json(scaled).path("spec").has("replicas")); // 0 is omitted in autoscaling/v1
        assertEquals(0, json(f.get(rs + "/frontend-scaled")).path("spec").path("replicas").asInt());
    }

    @Test
    @DisplayName("STS-02 RC-15 PUT scale (fabric8) with the current resourceVersion scales StatefulSets and ReplicationControllers")
    void putScale() {
        String sts = "/apis/apps/v1/namespaces/default/statefulsets";
        create(sts, "statefulset-web.yaml", "web-put");
        JsonNode scale = json(f.get(sts + "/web-put/scale"));
        ((ObjectNode) scale.path("spec")).put("replicas", 7);
        HttpResponse<String> r = f.put(sts + "/web-put/scale", scale.toString());
        assertEquals(200, r.statusCode(), r.body());
        assertEquals(7, json(f.get(sts + "/web-put")).path("spec").path("replicas").asInt());

        String rc = "/api/v1/namespaces/default/replicationcontrollers";
        create(rc, "replicationcontroller-nginx.yaml", "rc-put");
        HttpResponse<String> put = f.put(rc + "/rc-put/scale",
                "{\"apiVersion\":\"autoscaling/v1\",\"kind\":\"Scale\",\"metadata\":{\"name\":\"rc-put\"},\"spec\":{\"replicas\":2}}");
        assertEquals(200, put.statusCode(), put.body());
        assertEquals("app=nginx", json(put).path("status").path("selector").asText());
        assertEquals(2, json(f.get(rc + "/rc-put")).path("spec").path("replicas").asInt());
    }

    @Test
    @DisplayName("a Scale with a stale resourceVersion answers 409 Conflict and changes nothing; negative replicas answer 422")
    void conflictsAndInvalidScales() {
        create(DEPLOYMENTS, "deployment-nginx-deployment.yaml", "contended");
        JsonNode stale = json(f.get(DEPLOYMENTS + "/contended/scale"));
        assertEquals(200, f.patch(DEPLOYMENTS + "/contended/scale", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":4}}").statusCode());
        ((ObjectNode) stale.path("spec")).put("replicas", 9);
        HttpResponse<String> put = f.put(DEPLOYMENTS + "/contended/scale", stale.toString());
        assertEquals(409, put.statusCode(), put.body());
        assertEquals("Conflict", json(put).path("reason").asText());
        assertTrue(json(put).path("message").asText().startsWith(
                "Operation cannot be fulfilled on deployments.apps \"contended\": the object has been modified"), put.body());
        String rv = stale.path("metadata").path("resourceVersion").asText();
        HttpResponse<String> patch = f.patch(DEPLOYMENTS + "/contended/scale", "application/merge-patch+json",
                "{\"metadata\":{\"resourceVersion\":\"" + rv + "\"},\"spec\":{\"replicas\":9}}");
        assertEquals(409, patch.statusCode(), patch.body());
        assertEquals(4, json(f.get(DEPLOYMENTS + "/contended")).path("spec").path("replicas").asInt());

        HttpResponse<String> negative = f.patch(DEPLOYMENTS + "/contended/scale", "application/merge-patch+json",
                "{\"spec\":{\"replicas\":-1}}");
        assertEquals(422, negative.statusCode(), negative.body());
        assertEquals("Scale.autoscaling \"contended\" is invalid: spec.replicas: Invalid value: -1: must be greater "
                + "than or equal to 0", json(negative).path("message").asText());
    }
}
