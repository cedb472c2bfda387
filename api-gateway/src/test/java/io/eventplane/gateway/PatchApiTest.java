package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** PATCH in its three JSON forms, the status subresource and pods/binding. */
class PatchApiTest {
    private static final String PODS = "/api/v1/namespaces/default/pods";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @Test
    @DisplayName("a merge patch changes labels and keeps the rest")
    void mergePatch() {
        assertEquals(201, f.post(PODS, pod("merged", "\"labels\":{\"a\":\"1\",\"b\":\"2\"}")).statusCode());
        HttpResponse<String> r = f.patch(PODS + "/merged", "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"a\":null,\"c\":\"3\"}}}");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode labels = json(r).path("metadata").path("labels");
        assertEquals("{\"b\":\"2\",\"c\":\"3\"}", labels.toString());
        assertEquals("nginx:1.27", json(r).path("spec").path("containers").get(0).path("image").asText());
    }

    @Test
    @DisplayName("a JSON patch applies add and replace; a failed test answers 422 and changes nothing")
    void jsonPatch() {
        assertEquals(201, f.post(PODS, pod("jsonp", null)).statusCode());
        HttpResponse<String> r = f.patch(PODS + "/jsonp", "application/json-patch+json",
                "[{\"op\":\"add\",\"path\":\"/metadata/labels\",\"value\":{\"x\":\"y\"}},"
                        + "{\"op\":\"replace\",\"path\":\"/spec/containers/0/image\",\"value\":\"nginx:1.28\"}]");
        assertEquals(200, r.statusCode(), r.body());
        assertEquals("nginx:1.28", json(r).path("spec").path("containers").get(0).path("image").asText());
        HttpResponse<String> failed = f.patch(PODS + "/jsonp", "application/json-patch+json",
                "[{\"op\":\"test\",\"path\":\"/metadata/labels/x\",\"value\":\"z\"},"
                        + "{\"op\":\"remove\",\"path\":\"/metadata/labels\"}]");
        assertEquals(422, failed.statusCode(), failed.body());
        assertEquals("y", json(f.get(PODS + "/jsonp")).path("metadata").path("labels").path("x").asText());
    }

    @Test
    @DisplayName("a strategic merge patch as kubectl apply sends it merges containers by name")
    void strategicPatch() {
        assertEquals(201, f.post(PODS, "{\"metadata\":{\"name\":\"smp\"},\"spec\":{\"containers\":["
                + "{\"name\":\"a\",\"image\":\"nginx:1\"},{\"name\":\"b\",\"image\":\"redis:7\"}]}}").statusCode());
        HttpResponse<String> r = f.patch(PODS + "/smp?fieldManager=kubectl-client-side-apply&fieldValidation=Strict",
                "application/strategic-merge-patch+json",
                "{\"metadata\":{\"annotations\":{\"kubectl.kubernetes.io/last-applied-configuration\":\"{}\"}},"
                        + "\"spec\":{\"$setElementOrder/containers\":[{\"name\":\"a\"},{\"name\":\"b\"}],"
                        + "\"containers\":[{\"image\":\"redis:8\",\"name\":\"b\"}]}}");
        assertEquals(200, r.statusCode(), r.body());
        JsonNode containers = json(r).path("spec").path("containers");
        assertEquals(2, containers.size());
        assertEquals("nginx:1", containers.get(0).path("image").asText());
        assertEquals("redis:8", containers.get(1).path("image").asText());
    }

    @Test
    @DisplayName("an unknown field in a strict patch answers 400; apply without fieldManager 422; an unknown patch type 415")
    void patchErrors() {
        assertEquals(201, f.post(PODS, pod("strictp", null)).statusCode());
        HttpResponse<String> unknown = f.patch(PODS + "/strictp?fieldValidation=Strict", "application/merge-patch+json",
                "{\"spec\":{\"bogus\":true}}");
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertTrue(json(unknown).path("message").asText().contains("unknown field \"spec.bogus\""));
        HttpResponse<String> apply = f.patch(PODS + "/strictp", "application/apply-patch+yaml", "{}");
        assertEquals(422, apply.statusCode(), apply.body());
        assertEquals("PatchOptions.meta.k8s.io \"\" is invalid: fieldManager: Required value: is required for apply "
                + "patch", json(apply).path("message").asText());
        HttpResponse<String> other = f.patch(PODS + "/strictp", "application/x-unknown-patch", "{}");
        assertEquals(415, other.statusCode());
        assertEquals("UnsupportedMediaType", json(other).path("reason").asText());
        assertEquals(404, f.patch(PODS + "/absent", "application/merge-patch+json", "{}").statusCode());
    }

    @Test
    @DisplayName("the status subresource: GET, PUT and PATCH change status only; the main resource keeps status")
    void statusSubresource() {
        assertEquals(201, f.post(PODS, pod("stat", null)).statusCode());
        HttpResponse<String> patched = f.patch(PODS + "/stat/status", "application/merge-patch+json",
                "{\"status\":{\"phase\":\"Running\",\"podIP\":\"10.1.2.3\"},\"metadata\":{\"labels\":{\"ignored\":\"yes\"}}}");
        assertEquals(200, patched.statusCode(), patched.body());
        assertEquals("Running", json(patched).path("status").path("phase").asText());
        assertTrue(json(patched).path("metadata").path("labels").path("ignored").isMissingNode());
        JsonNode got = json(f.get(PODS + "/stat/status"));
        assertEquals("10.1.2.3", got.path("status").path("podIP").asText());
        String viaMain = got.toString().replace("\"Running\"", "\"Failed\"");
        HttpResponse<String> put = f.put(PODS + "/stat", viaMain);
        assertEquals(200, put.statusCode(), put.body());
        assertEquals("Running", json(put).path("status").path("phase").asText());
        String viaStatus = json(put).toString().replace("\"Running\"", "\"Succeeded\"");
        HttpResponse<String> putStatus = f.put(PODS + "/stat/status", viaStatus);
        assertEquals(200, putStatus.statusCode(), putStatus.body());
        assertEquals("Succeeded", json(putStatus).path("status").path("phase").asText());
    }

    @Test
    @DisplayName("POD-1.13 pods/binding assigns a node once (201 Success); binding again answers 409")
    void binding() {
        assertEquals(201, f.post(PODS, pod("bindme", null)).statusCode());
        String binding = "{\"apiVersion\":\"v1\",\"kind\":\"Binding\",\"metadata\":{\"name\":\"bindme\"},"
                + "\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"node-1\"}}";
        HttpResponse<String> r = f.post(PODS + "/bindme/binding", binding);
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("Success", json(r).path("status").asText());
        assertEquals("node-1", json(f.get(PODS + "/bindme")).path("spec").path("nodeName").asText());
        HttpResponse<String> again = f.post(PODS + "/bindme/binding", binding.replace("node-1", "node-2"));
        assertEquals(409, again.statusCode(), again.body());
        assertEquals("node-1", json(f.get(PODS + "/bindme")).path("spec").path("nodeName").asText());
    }

    @Test
    @DisplayName("dryRun=All answers with what would be stored and stores nothing")
    void dryRun() {
        HttpResponse<String> r = f.post(PODS + "?dryRun=All", pod("dry", null));
        assertEquals(201, r.statusCode(), r.body());
        assertEquals("dry", json(r).path("metadata").path("name").asText());
        assertEquals(404, f.get(PODS + "/dry").statusCode());
    }
}
