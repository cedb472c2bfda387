package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** pods/eviction: a deletion that respects PodDisruptionBudgets, with Kubernetes' answers. */
class EvictionApiTest {
    private static final String PODS = "/api/v1/namespaces/default/pods";
    private static final String PDBS = "/apis/policy/v1/namespaces/default/poddisruptionbudgets";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static String pod(String name, String app) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name + "\",\"labels\":{\"app\":\""
                + app + "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1.27\"}]}}";
    }

    private static String eviction(String name) {
        return "{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"default\"}}";
    }

    private static void budget(String name, String app, int allowed, int healthy, int desired) {
        String pdb = "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"" + name
                + "\"},\"spec\":{\"minAvailable\":" + desired + ",\"selector\":{\"matchLabels\":{\"app\":\"" + app + "\"}}}}";
        HttpResponse<String> existing = f.get(PDBS + "/" + name);
        if (existing.statusCode() == 404) {
            assertEquals(201, f.post(PDBS, pdb).statusCode());
        }
        JsonNode current = json(f.get(PDBS + "/" + name));
        String status = "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"" + name
                + "\",\"resourceVersion\":\"" + current.path("metadata").path("resourceVersion").asText() + "\"},"
                + "\"spec\":" + current.path("spec") + ",\"status\":{\"observedGeneration\":1,\"disruptionsAllowed\":"
                + allowed + ",\"currentHealthy\":" + healthy + ",\"desiredHealthy\":" + desired
                + ",\"expectedPods\":" + healthy + "}}";
        HttpResponse<String> r = f.put(PDBS + "/" + name + "/status", status);
        assertEquals(200, r.statusCode(), r.body());
    }

    /** The kubelet's word that the pod runs and is Ready: what a budget counts as healthy. */
    private static void ready(String name) {
        JsonNode current = json(f.get(PODS + "/" + name));
        String status = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                + "\",\"resourceVersion\":\"" + current.path("metadata").path("resourceVersion").asText() + "\"},"
                + "\"spec\":" + current.path("spec") + ",\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":"
                + "\"Ready\",\"status\":\"True\"}]}}";
        HttpResponse<String> r = f.put(PODS + "/" + name + "/status", status);
        assertEquals(200, r.statusCode(), r.body());
    }

    @Test
    @DisplayName("W-P2 POD-17.5: a pod no budget covers is evicted at once: 201 Success, the pod terminating")
    void noBudget() {
        assertEquals(201, f.post(PODS, pod("free", "free")).statusCode());
        HttpResponse<String> r = f.post(PODS + "/free/eviction", eviction("free"));
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("Success", json(r).path("status").asText());
        HttpResponse<String> after = f.get(PODS + "/free");
        assertTrue(after.statusCode() == 404 || json(after).path("metadata").has("deletionTimestamp"), after.body());
    }

    @Test
    @DisplayName("W-P5 POD-17.4 POD-17.6: a budget with no disruption allowed answers 429 with Kubernetes' message and leaves the pod")
    void budgetExhausted() {
        assertEquals(201, f.post(PODS, pod("guarded", "guarded")).statusCode());
        ready("guarded");
        budget("guard", "guarded", 0, 1, 1);
        HttpResponse<String> r = f.post(PODS + "/guarded/eviction", eviction("guarded"));
        assertEquals(429, r.statusCode(), r.body());
        JsonNode status = json(r);
        assertEquals("TooManyRequests", status.path("reason").asText());
        assertEquals("Cannot evict pod as it would violate the pod's disruption budget.", status.path("message").asText());
        assertEquals("The disruption budget guard needs 1 healthy pods and has 1 currently",
                status.path("details").path("causes").get(0).path("message").asText());
        assertEquals("DisruptionBudget", status.path("details").path("causes").get(0).path("reason").asText());
        assertFalse(json(f.get(PODS + "/guarded")).path("metadata").has("deletionTimestamp"));
    }

    @Test
    @DisplayName("W-P1, W-P6 POD-17.7 POD-17.8: a budget that allows one disruption records it and the pod is deleted; the next eviction is refused")
    void budgetAllowsOne() {
        assertEquals(201, f.post(PODS, pod("one", "pair")).statusCode());
        assertEquals(201, f.post(PODS, pod("two", "pair")).statusCode());
        ready("one");
        ready("two");
        budget("pair", "pair", 1, 2, 1);
        HttpResponse<String> r = f.post(PODS + "/one/eviction", eviction("one"));
        assertEquals(201, r.statusCode(), r.body());
        JsonNode pdb = json(f.get(PDBS + "/pair"));
        assertEquals(0, pdb.path("status").path("disruptionsAllowed").asInt(), pdb.toString());
        assertTrue(pdb.path("status").path("disruptedPods").has("one"), pdb.toString());
        assertEquals(429, f.post(PODS + "/two/eviction", eviction("two")).statusCode());
    }

    @Test
    @DisplayName("W-P9 POD-17.3: a direct DELETE is not blocked by an exhausted budget")
    void deleteBypassesBudget() {
        assertEquals(201, f.post(PODS, pod("direct", "direct")).statusCode());
        ready("direct");
        budget("direct", "direct", 0, 1, 1);
        assertEquals(429, f.post(PODS + "/direct/eviction", eviction("direct")).statusCode());
        HttpResponse<String> r = f.delete(PODS + "/direct", null);
        assertEquals(200, r.statusCode(), r.body());
    }

    private static String held(String name, String app) {
        return pod(name, app).replace("\"labels\"", "\"finalizers\":[\"example.com/hold\"],\"labels\"");
    }

    private static JsonNode disruptionTarget(String name) {
        for (JsonNode c : json(f.get(PODS + "/" + name)).path("status").path("conditions")) {
            if (c.path("type").asText().equals("DisruptionTarget")) {
                return c;
            }
        }
        return null;
    }

    @Test
    @DisplayName("POD-12.15 POD-17.12 an evicted pod on a node is terminated gracefully: its deletion waits its "
            + "terminationGracePeriodSeconds (45 s)")
    void gracefulEviction() {
        String onNode = pod("graceful", "graceful").replace("\"spec\":{", "\"spec\":{\"nodeName\":\"node-1\","
                + "\"terminationGracePeriodSeconds\":45,");
        assertEquals(201, f.post(PODS, onNode).statusCode());
        HttpResponse<String> r = f.post(PODS + "/graceful/eviction", eviction("graceful"));
        assertEquals(201, r.statusCode(), r.body());
        JsonNode meta = json(f.get(PODS + "/graceful")).path("metadata");
        assertEquals(45, meta.path("deletionGracePeriodSeconds").asInt(), meta.toString());
        java.time.Instant deadline = java.time.Instant.parse(meta.path("deletionTimestamp").asText());
        assertTrue(deadline.isAfter(java.time.Instant.now().plusSeconds(30)), "deleted 45 s from now: " + deadline);
    }

    @Test
    @DisplayName("POD-17.14 an evicted pod gets DisruptionTarget=True, reason EvictionByEvictionAPI, before it is deleted")
    void disruptionTargetCondition() {
        assertEquals(201, f.post(PODS, held("marked", "marked")).statusCode());
        HttpResponse<String> r = f.post(PODS + "/marked/eviction", eviction("marked"));
        assertEquals(201, r.statusCode(), r.body());
        JsonNode pod = json(f.get(PODS + "/marked"));
        assertTrue(pod.path("metadata").has("deletionTimestamp"), pod.toString());
        JsonNode c = disruptionTarget("marked");
        assertEquals("True", c.path("status").asText());
        assertEquals("EvictionByEvictionAPI", c.path("reason").asText());
        assertEquals("Eviction API: evicting", c.path("message").asText());
    }

    @Test
    @DisplayName("POD-17.11 unhealthyPodEvictionPolicy: IfHealthyBudget (default) lets a not-Ready pod go without a "
            + "disruption while the budget is healthy and refuses it otherwise; AlwaysAllow always lets it go")
    void unhealthyPodEvictionPolicy() {
        assertEquals(201, f.post(PODS, held("sick", "sick")).statusCode());
        budget("sick", "sick", 0, 1, 1);
        assertEquals(201, f.post(PODS + "/sick/eviction", eviction("sick")).statusCode(), "healthy budget: it goes");
        assertEquals(0, json(f.get(PDBS + "/sick")).path("status").path("disruptionsAllowed").asInt(), "nothing taken");

        assertEquals(201, f.post(PODS, pod("starved", "starved")).statusCode());
        budget("starved", "starved", 0, 0, 1);
        assertEquals(429, f.post(PODS + "/starved/eviction", eviction("starved")).statusCode(), "unhealthy budget");

        assertEquals(201, f.post(PODS, pod("stuck", "stuck")).statusCode());
        HttpResponse<String> created = f.post(PDBS, "{\"apiVersion\":\"policy/v1\",\"kind\":\"PodDisruptionBudget\","
                + "\"metadata\":{\"name\":\"stuck\"},\"spec\":{\"minAvailable\":1,\"unhealthyPodEvictionPolicy\":"
                + "\"AlwaysAllow\",\"selector\":{\"matchLabels\":{\"app\":\"stuck\"}}}}");
        assertEquals(201, created.statusCode(), created.body());
        budget("stuck", "stuck", 0, 0, 1);
        assertEquals(201, f.post(PODS + "/stuck/eviction", eviction("stuck")).statusCode(), "AlwaysAllow");
    }

    @Test
    @DisplayName("eviction errors: a missing pod is 404, a mismatched name 400, GET 405")
    void errors() {
        assertEquals(404, f.post(PODS + "/missing/eviction", eviction("missing")).statusCode());
        assertEquals(201, f.post(PODS, pod("named", "named")).statusCode());
        assertEquals(400, f.post(PODS + "/named/eviction", eviction("other")).statusCode());
        assertEquals(405, f.get(PODS + "/named/eviction").statusCode());
    }
}
