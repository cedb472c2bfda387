package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The pod resource end to end: gateway, real writer, real broker and registry. */
class PodApiTest {
    private static final String PODS = "/api/v1/namespaces/default/pods";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static List<String> podNames() {
        JsonNode list = json(f.get(PODS));
        List<String> names = new ArrayList<>();
        list.path("items").forEach(i -> names.add(i.path("metadata").path("name").asText()));
        return names;
    }

    private static void assertStatus(HttpResponse<String> r, int code, String reason) {
        assertEquals(code, r.statusCode(), r.body());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/json"));
        JsonNode s = json(r);
        assertEquals("Status", s.path("kind").asText(), r.body());
        assertEquals("v1", s.path("apiVersion").asText());
        assertEquals("Failure", s.path("status").asText());
        assertEquals(reason, s.path("reason").asText(), r.body());
        assertEquals(code, s.path("code").asInt());
        assertFalse(r.body().contains("\tat "), "no stack trace in a response");
    }

    @Test
    @DisplayName("a pod is created (201), read, listed, updated and deleted through the Kubernetes paths")
    void podLifecycle() {
        HttpResponse<String> created = f.post(PODS, pod("crud", "\"labels\":{\"app\":\"crud\"}"));
        assertEquals(201, created.statusCode(), created.body());
        JsonNode pod = json(created);
        assertEquals("v1", pod.path("apiVersion").asText());
        assertEquals("Pod", pod.path("kind").asText());
        assertEquals(List.of("apiVersion", "kind"), fieldNames(pod).subList(0, 2));
        assertEquals("default", pod.path("metadata").path("namespace").asText());
        assertFalse(pod.path("metadata").path("uid").asText().isEmpty());
        assertEquals("Pending", pod.path("status").path("phase").asText());

        HttpResponse<String> got = f.get(PODS + "/crud");
        assertEquals(200, got.statusCode());
        assertEquals(pod.path("metadata").path("resourceVersion"), json(got).path("metadata").path("resourceVersion"));

        JsonNode list = json(f.get(PODS));
        assertEquals("PodList", list.path("kind").asText());
        assertEquals("v1", list.path("apiVersion").asText());
        assertFalse(list.path("metadata").path("resourceVersion").asText().isEmpty());
        assertTrue(podNames().contains("crud"));

        String updated = json(got).toString().replace("\"app\":\"crud\"", "\"app\":\"crud\",\"tier\":\"web\"");
        HttpResponse<String> put = f.put(PODS + "/crud", updated);
        assertEquals(200, put.statusCode(), put.body());
        assertEquals("web", json(put).path("metadata").path("labels").path("tier").asText());
        assertNotEquals(pod.path("metadata").path("resourceVersion"), json(put).path("metadata").path("resourceVersion"));

        HttpResponse<String> deleted = f.delete(PODS + "/crud", "{\"propagationPolicy\":\"Background\"}");
        assertEquals(200, deleted.statusCode(), deleted.body());
        assertEquals("crud", json(deleted).path("metadata").path("name").asText());
        assertStatus(f.get(PODS + "/crud"), 404, "NotFound");
        assertEquals("pods \"crud\" not found", json(f.get(PODS + "/crud")).path("message").asText());
    }

    @Test
    @DisplayName("creating a pod whose name is taken answers 409 AlreadyExists")
    void duplicateCreate() {
        assertEquals(201, f.post(PODS, pod("twice", null)).statusCode());
        HttpResponse<String> again = f.post(PODS, pod("twice", null));
        assertStatus(again, 409, "AlreadyExists");
        assertEquals("pods \"twice\" already exists", json(again).path("message").asText());
        assertEquals("pods", json(again).path("details").path("kind").asText());
    }

    @Test
    @DisplayName("an update carrying a stale resourceVersion answers 409 Conflict and changes nothing")
    void staleUpdate() {
        JsonNode v1 = json(f.post(PODS, pod("stale", null)));
        String newer = v1.toString().replace("\"name\":\"stale\"", "\"name\":\"stale\",\"labels\":{\"v\":\"2\"}");
        assertEquals(200, f.put(PODS + "/stale", newer).statusCode());
        String older = v1.toString().replace("\"name\":\"stale\"", "\"name\":\"stale\",\"labels\":{\"v\":\"3\"}");
        HttpResponse<String> conflict = f.put(PODS + "/stale", older);
        assertStatus(conflict, 409, "Conflict");
        assertTrue(json(conflict).path("message").asText().contains("the object has been modified"));
        assertEquals("2", json(f.get(PODS + "/stale")).path("metadata").path("labels").path("v").asText());
    }

    @Test
    @DisplayName("a PUT of a missing Lease creates it (201, as kube-apiserver allows for Leases); a PUT of a missing pod is 404")
    void putCreatesLease() {
        String path = "/apis/coordination.k8s.io/v1/namespaces/default/leases/holder";
        String lease = "{\"apiVersion\":\"coordination.k8s.io/v1\",\"kind\":\"Lease\",\"metadata\":{\"name\":\"holder\"},"
                + "\"spec\":{\"holderIdentity\":\"a\",\"leaseDurationSeconds\":15}}";
        HttpResponse<String> created = f.put(path, lease);
        assertEquals(201, created.statusCode(), created.body());
        assertEquals("a", json(created).path("spec").path("holderIdentity").asText());
        HttpResponse<String> renewed = f.put(path, lease.replace("\"a\"", "\"b\""));
        assertEquals(200, renewed.statusCode(), renewed.body());
        assertEquals("b", json(f.get(path)).path("spec").path("holderIdentity").asText());
        assertStatus(f.put(PODS + "/never-created", pod("never-created", null)), 404, "NotFound");
    }

    @Test
    @DisplayName("generateName gets a random 5-character suffix")
    void generateName() {
        HttpResponse<String> r = f.post(PODS, "{\"metadata\":{\"generateName\":\"gen-\"},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\"}]}}");
        assertEquals(201, r.statusCode(), r.body());
        String name = json(r).path("metadata").path("name").asText();
        assertTrue(name.matches("gen-[bcdfghjklmnpqrstvwxz2456789]{5}"), name);
    }

    @Test
    @DisplayName("bad input is refused with a Status and changes nothing: unknown field, wrong type, no name, "
            + "not JSON, 10 MB")
    void badInputChangesNothing() {
        List<String> before = podNames();

        HttpResponse<String> unknown = f.post(PODS + "?fieldValidation=Strict",
                "{\"metadata\":{\"name\":\"u\"},\"spec\":{\"foo\":1,\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
        assertStatus(unknown, 400, "BadRequest");
        assertEquals("strict decoding error: unknown field \"spec.foo\"", json(unknown).path("message").asText());
        assertEquals("spec.foo", json(unknown).path("details").path("causes").get(0).path("field").asText());

        HttpResponse<String> wrongType = f.post(PODS,
                "{\"metadata\":{\"name\":\"w\"},\"spec\":{\"containers\":\"nginx\"}}");
        assertStatus(wrongType, 400, "BadRequest");
        assertTrue(json(wrongType).path("message").asText().startsWith("Pod in version \"v1\" cannot be handled as a Pod"),
                wrongType.body());
        assertEquals("spec.containers", json(wrongType).path("details").path("causes").get(0).path("field").asText());

        HttpResponse<String> noName = f.post(PODS, "{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
        assertStatus(noName, 422, "Invalid");
        assertEquals("Pod \"\" is invalid: metadata.name: Required value: name or generateName is required",
                json(noName).path("message").asText());

        assertStatus(f.send("POST", PODS, "application/json", "this is not json".getBytes(StandardCharsets.UTF_8)),
                400, "BadRequest");
        assertStatus(f.send("POST", PODS, "application/json", "{\"metadata\":".getBytes(StandardCharsets.UTF_8)),
                400, "BadRequest");

        byte[] huge = new byte[10 * 1024 * 1024];
        Arrays.fill(huge, (byte) ' ');
        huge[0] = '{';
        huge[huge.length - 1] = '}';
        HttpResponse<String> tooLarge = f.send("POST", PODS, "application/json", huge);
        assertStatus(tooLarge, 413, "RequestEntityTooLarge");

        assertStatus(f.send("POST", PODS, "text/plain", "x".getBytes(StandardCharsets.UTF_8)), 415,
                "UnsupportedMediaType");
        assertEquals(before, podNames());
    }

    @Test
    @DisplayName("fieldValidation=Warn accepts an unknown field and reports it in a Warning header")
    void warnings() {
        HttpResponse<String> r = f.post(PODS + "?fieldValidation=Warn", "{\"metadata\":{\"name\":\"warned\"},"
                + "\"spec\":{\"foo\":1,\"containers\":[{\"name\":\"c\",\"image\":\"i\"}]}}");
        assertEquals(201, r.statusCode(), r.body());
        assertEquals(List.of("299 - \"unknown field \\\"spec.foo\\\"\""), r.headers().allValues("Warning"));
    }

    @Test
    @DisplayName("POD-1.2 a Pod with no containers is rejected with 422 Invalid")
    void noContainers() {
        HttpResponse<String> r = f.post(PODS, "{\"metadata\":{\"name\":\"empty\"},\"spec\":{}}");
        assertStatus(r, 422, "Invalid");
        assertEquals("spec.containers", json(r).path("details").path("causes").get(0).path("field").asText());
        assertEquals("Pod", json(r).path("details").path("kind").asText());
    }

    @Test
    @DisplayName("POD-1.7 duplicate container names are rejected with 422 Invalid")
    void duplicateContainers() {
        HttpResponse<String> r = f.post(PODS, "{\"metadata\":{\"name\":\"dup\"},\"spec\":{\"containers\":["
                + "{\"name\":\"a\",\"image\":\"i\"},{\"name\":\"a\",\"image\":\"j\"}]}}");
        assertStatus(r, 422, "Invalid");
        assertTrue(json(r).path("message").asText().contains("Duplicate value"), r.body());
    }

    @Test
    @DisplayName("creating in a namespace that does not exist answers 404 namespaces \"x\" not found")
    void missingNamespace() {
        HttpResponse<String> r = f.post("/api/v1/namespaces/nowhere/pods", pod("lost", null));
        assertStatus(r, 404, "NotFound");
        assertEquals("namespaces \"nowhere\" not found", json(r).path("message").asText());
    }

    @Test
    @DisplayName("the system namespaces exist from the start")
    void systemNamespaces() {
        for (String ns : List.of("default", "kube-system", "kube-public", "kube-node-lease")) {
            HttpResponse<String> r = f.get("/api/v1/namespaces/" + ns);
            assertEquals(200, r.statusCode(), ns);
            assertEquals("Active", json(r).path("status").path("phase").asText());
        }
    }

    @Test
    @DisplayName("POD-12.3 a graceful delete of a bound pod leaves it Terminating with deletionTimestamp set")
    void gracefulDelete() {
        assertEquals(201, f.post(PODS, pod("graceful", null)).statusCode());
        HttpResponse<String> bound = f.post(PODS + "/graceful/binding", "{\"apiVersion\":\"v1\",\"kind\":\"Binding\","
                + "\"metadata\":{\"name\":\"graceful\"},\"target\":{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"name\":\"n1\"}}");
        assertEquals(201, bound.statusCode(), bound.body());
        HttpResponse<String> deleted = f.delete(PODS + "/graceful?gracePeriodSeconds=30", null);
        assertEquals(200, deleted.statusCode(), deleted.body());
        JsonNode meta = json(deleted).path("metadata");
        assertFalse(meta.path("deletionTimestamp").isMissingNode(), deleted.body());
        assertEquals(30, meta.path("deletionGracePeriodSeconds").asInt());
        assertEquals(200, f.get(PODS + "/graceful").statusCode());
        JsonNode table = json(f.get(PODS + "/graceful", "Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"));
        assertEquals("Terminating", table.path("rows").get(0).path("cells").get(2).asText());
    }

    @Test
    @DisplayName("unknown paths and methods answer Kubernetes Statuses")
    void unknownPaths() {
        assertStatus(f.get("/api/v1/namespaces/default/widgets"), 404, "NotFound");
        assertStatus(f.get("/nothing/here"), 404, "NotFound");
        assertStatus(f.send("PUT", PODS, "application/json", "{}".getBytes(StandardCharsets.UTF_8)), 405,
                "MethodNotAllowed");
    }

    private static List<String> fieldNames(JsonNode n) {
        List<String> names = new ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
