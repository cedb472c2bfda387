package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 16: the admission plugins over HTTP (ServiceAccount, Priority, LimitRanger, ResourceQuota), with the
 * service account and quota controllers running beside the API as in a real control plane. Every refusal is
 * Kubernetes' Status word for word, and a refused create leaves nothing in the log.
 */
class AdmissionApiTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static void namespace(String name) {
        HttpResponse<String> r = f.post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\","
                + "\"metadata\":{\"name\":\"" + name + "\"}}");
        assertEquals(201, r.statusCode(), r.body());
        GatewayFixture.awaitTrue("the default ServiceAccount of " + name, () -> f.get("/api/v1/namespaces/" + name
                + "/serviceaccounts/default").statusCode() == 200, Duration.ofSeconds(30));
    }

    private static HttpResponse<String> createPod(String namespace, String name, String specExtra, String resources) {
        return f.post("/api/v1/namespaces/" + namespace + "/pods", """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"%s"},
                 "spec":{%s"containers":[{"name":"web","image":"nginx:1.27"%s}]}}""".formatted(name,
                specExtra == null ? "" : specExtra + ",", resources == null ? "" : ",\"resources\":" + resources));
    }

    /** A 403 Forbidden with exactly this message. */
    private static void assertForbidden(HttpResponse<String> r, String message) {
        assertEquals(403, r.statusCode(), r.body());
        JsonNode s = json(r);
        assertEquals("Status", s.path("kind").asText());
        assertEquals("Forbidden", s.path("reason").asText());
        assertEquals(message, s.path("message").asText());
    }

    @Test
    @DisplayName("ServiceAccount: a pod runs as its namespace's default account unless it names one, which must exist")
    void serviceAccounts() {
        namespace("sa-test");
        JsonNode pod = json(createPod("sa-test", "plain", null, null));
        assertEquals("default", pod.path("spec").path("serviceAccountName").asText());
        assertEquals("default", pod.path("spec").path("serviceAccount").asText());

        assertForbidden(createPod("sa-test", "robotic", "\"serviceAccountName\":\"robot\"", null),
                "pods \"robotic\" is forbidden: error looking up service account sa-test/robot: serviceaccount \"robot\" not found");
        f.assertNothingWritten("pods", "sa-test", "robotic");

        assertEquals(201, f.post("/api/v1/namespaces/sa-test/serviceaccounts", "{\"apiVersion\":\"v1\","
                + "\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"robot\"},"
                + "\"imagePullSecrets\":[{\"name\":\"registry\"}]}").statusCode());
        JsonNode robotic = json(createPod("sa-test", "robotic", "\"serviceAccountName\":\"robot\"", null));
        assertEquals("robot", robotic.path("spec").path("serviceAccount").asText());
        assertEquals("registry", robotic.path("spec").path("imagePullSecrets").path(0).path("name").asText(),
                "the account's image pull secrets, since the pod names none");
    }

    @Test
    @DisplayName("Priority: a pod's priority comes from its PriorityClass; unknown classes and contradictions are refused")
    void priorities() {
        namespace("prio");
        assertEquals(201, f.post("/apis/scheduling.k8s.io/v1/priorityclasses", "{\"apiVersion\":\"scheduling.k8s.io/v1\","
                + "\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"batch-high\"},\"value\":1000,"
                + "\"preemptionPolicy\":\"Never\"}").statusCode());
        JsonNode high = json(createPod("prio", "high", "\"priorityClassName\":\"batch-high\"", null));
        assertEquals(1000, high.path("spec").path("priority").asInt());
        assertEquals("Never", high.path("spec").path("preemptionPolicy").asText());
        JsonNode plain = json(createPod("prio", "plain", null, null));
        assertEquals(0, plain.path("spec").path("priority").asInt());
        assertEquals("PreemptLowerPriority", plain.path("spec").path("preemptionPolicy").asText());
        JsonNode critical = json(createPod("prio", "critical", "\"priorityClassName\":\"system-cluster-critical\"", null));
        assertEquals(2000000000, critical.path("spec").path("priority").asInt());

        assertForbidden(createPod("prio", "lost", "\"priorityClassName\":\"nope\"", null),
                "pods \"lost\" is forbidden: no PriorityClass with name nope was found");
        f.assertNothingWritten("pods", "prio", "lost");
        assertForbidden(createPod("prio", "liar", "\"priorityClassName\":\"batch-high\",\"priority\":5", null),
                "pods \"liar\" is forbidden: the integer value of priority (5) must not be provided in pod spec; "
                        + "priority admission controller computed 1000 from the given PriorityClass name");
        assertForbidden(createPod("prio", "liar", "\"priorityClassName\":\"batch-high\","
                        + "\"preemptionPolicy\":\"PreemptLowerPriority\"", null),
                "pods \"liar\" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be "
                        + "provided in pod spec; priority admission controller computed Never from the given PriorityClass name");
    }

    @Test
    @DisplayName("Priority: one global default class gives pods without a class its value; a second is refused")
    void globalDefault() {
        namespace("prio-default");
        String pcs = "/apis/scheduling.k8s.io/v1/priorityclasses";
        assertEquals(201, f.post(pcs, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
                + "\"metadata\":{\"name\":\"everyone\"},\"value\":10,\"globalDefault\":true}").statusCode());
        try {
            JsonNode pod = json(createPod("prio-default", "plain", null, null));
            assertEquals("everyone", pod.path("spec").path("priorityClassName").asText());
            assertEquals(10, pod.path("spec").path("priority").asInt());
            assertForbidden(f.post(pcs, "{\"apiVersion\":\"scheduling.k8s.io/v1\",\"kind\":\"PriorityClass\","
                            + "\"metadata\":{\"name\":\"second\"},\"value\":20,\"globalDefault\":true}"),
                    "priorityclasses.scheduling.k8s.io \"second\" is forbidden: PriorityClass everyone is marked as "
                            + "default. Only one default can exist");
            f.assertNothingWritten("priorityclasses", "", "second");
        } finally {
            assertEquals(200, f.delete(pcs + "/everyone", null).statusCode());
        }
    }

    @Test
    @DisplayName("the system PriorityClasses exist from the start and cannot be deleted")
    void systemPriorityClasses() {
        JsonNode node = json(f.get("/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical"));
        assertEquals(2000001000, node.path("value").asInt());
        assertEquals(2000000000, json(f.get("/apis/scheduling.k8s.io/v1/priorityclasses/system-cluster-critical"))
                .path("value").asInt());
        assertForbidden(f.delete("/apis/scheduling.k8s.io/v1/priorityclasses/system-node-critical", null),
                "priorityclasses.scheduling.k8s.io \"system-node-critical\" is forbidden: this is a system priority "
                        + "class and cannot be deleted");
    }

    @Test
    @DisplayName("LimitRanger: containers without requests and limits get the namespace's defaults; limits are enforced")
    void limitRanges() {
        namespace("limited");
        assertEquals(201, f.post("/api/v1/namespaces/limited/limitranges", """
                {"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"limits"},
                 "spec":{"limits":[{"type":"Container","max":{"cpu":"1"},"min":{"memory":"10Mi"},
                   "default":{"cpu":"500m","memory":"256Mi"},"defaultRequest":{"cpu":"100m","memory":"64Mi"},
                   "maxLimitRequestRatio":{"cpu":"10"}}]}}""").statusCode());
        JsonNode pod = json(createPod("limited", "defaulted", null, null));
        JsonNode resources = pod.path("spec").path("containers").path(0).path("resources");
        assertEquals("500m", resources.path("limits").path("cpu").asText());
        assertEquals("256Mi", resources.path("limits").path("memory").asText());
        assertEquals("100m", resources.path("requests").path("cpu").asText());
        assertEquals("64Mi", resources.path("requests").path("memory").asText());
        assertEquals("LimitRanger plugin set: cpu, memory request for container web; cpu, memory limit for container web",
                pod.path("metadata").path("annotations").path("kubernetes.io/limit-ranger").asText());

        assertForbidden(createPod("limited", "big", null, "{\"limits\":{\"cpu\":\"2\"}}"),
                "pods \"big\" is forbidden: maximum cpu usage per Container is 1, but limit is 2");
        f.assertNothingWritten("pods", "limited", "big");
        assertForbidden(createPod("limited", "tiny", null, "{\"requests\":{\"memory\":\"1Mi\"},\"limits\":{\"memory\":\"5Mi\"}}"),
                "pods \"tiny\" is forbidden: minimum memory usage per Container is 10Mi, but request is 1Mi");
        assertForbidden(createPod("limited", "greedy", null, "{\"requests\":{\"cpu\":\"50m\"},\"limits\":{\"cpu\":\"1\"}}"),
                "pods \"greedy\" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio "
                        + "is 20.000000");
    }

    @Test
    @DisplayName("ResourceQuota: status kept by the controller; a create beyond it refused with Kubernetes' message, nothing written")
    void quotas() {
        namespace("quoted");
        assertEquals(201, f.post("/api/v1/namespaces/quoted/resourcequotas", "{\"apiVersion\":\"v1\","
                + "\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\"},\"spec\":{\"hard\":{\"pods\":\"2\","
                + "\"configmaps\":\"1\"}}}").statusCode());
        GatewayFixture.awaitTrue("the quota controller fills the status", () -> json(f.get(
                "/api/v1/namespaces/quoted/resourcequotas/q")).path("status").path("used").has("pods"), Duration.ofSeconds(30));
        assertEquals(201, createPod("quoted", "p1", null, null).statusCode());
        assertEquals(201, createPod("quoted", "p2", null, null).statusCode());
        JsonNode before = json(f.get("/api/v1/namespaces/quoted/resourcequotas/q"));
        assertEquals("2", before.path("status").path("used").path("pods").asText(), "admission reserved both");

        assertForbidden(createPod("quoted", "p3", null, null),
                "pods \"p3\" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2");
        f.assertNothingWritten("pods", "quoted", "p3");
        JsonNode after = json(f.get("/api/v1/namespaces/quoted/resourcequotas/q"));
        assertEquals(before.path("metadata").path("resourceVersion"), after.path("metadata").path("resourceVersion"),
                "a refused create reserves nothing");

        String cm = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"%s\"}}";
        assertEquals(201, f.post("/api/v1/namespaces/quoted/configmaps?dryRun=All", cm.formatted("dry")).statusCode());
        assertEquals(201, f.post("/api/v1/namespaces/quoted/configmaps", cm.formatted("one")).statusCode(),
                "a dry run reserved nothing");
        assertForbidden(f.post("/api/v1/namespaces/quoted/configmaps", cm.formatted("two")),
                "configmaps \"two\" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=1, "
                        + "limited: configmaps=1");
    }

    @Test
    @DisplayName("ResourceQuota: a quota on cpu or memory makes every container declare them")
    void mustSpecify() {
        namespace("declared");
        assertEquals(201, f.post("/api/v1/namespaces/declared/resourcequotas", "{\"apiVersion\":\"v1\","
                + "\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"compute\"},\"spec\":{\"hard\":{"
                + "\"limits.cpu\":\"2\",\"requests.memory\":\"1Gi\"}}}").statusCode());
        GatewayFixture.awaitTrue("the quota controller fills the status", () -> json(f.get(
                "/api/v1/namespaces/declared/resourcequotas/compute")).path("status").has("used"), Duration.ofSeconds(30));
        assertForbidden(createPod("declared", "bare", null, null),
                "pods \"bare\" is forbidden: failed quota: compute: must specify limits.cpu for: web; requests.memory for: web");
        f.assertNothingWritten("pods", "declared", "bare");
        assertForbidden(createPod("declared", "hungry", null,
                        "{\"requests\":{\"memory\":\"512Mi\"},\"limits\":{\"cpu\":\"3\"}}"),
                "pods \"hungry\" is forbidden: exceeded quota: compute, requested: limits.cpu=3, used: limits.cpu=0, "
                        + "limited: limits.cpu=2");
        assertEquals(201, createPod("declared", "fits", null,
                "{\"requests\":{\"memory\":\"512Mi\"},\"limits\":{\"cpu\":\"1500m\"}}").statusCode());
        JsonNode used = json(f.get("/api/v1/namespaces/declared/resourcequotas/compute")).path("status").path("used");
        assertEquals("1500m", used.path("limits.cpu").asText());
        assertEquals("512Mi", used.path("requests.memory").asText());
    }

    @Test
    @DisplayName("ResourceQuota: concurrent creates against one quota never exceed it (the reservation is a compare-and-swap)")
    void concurrentCreates() throws Exception {
        namespace("racing");
        assertEquals(201, f.post("/api/v1/namespaces/racing/resourcequotas", "{\"apiVersion\":\"v1\","
                + "\"kind\":\"ResourceQuota\",\"metadata\":{\"name\":\"q\"},\"spec\":{\"hard\":{\"count/configmaps\":\"3\"}}}")
                .statusCode());
        GatewayFixture.awaitTrue("the quota controller fills the status", () -> json(f.get(
                "/api/v1/namespaces/racing/resourcequotas/q")).path("status").path("used").has("count/configmaps"),
                Duration.ofSeconds(30));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> codes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c" + i + "\"}}";
                codes.add(pool.submit(() -> f.post("/api/v1/namespaces/racing/configmaps", body).statusCode()));
            }
            int created = 0;
            for (Future<Integer> c : codes) {
                int code = c.get();
                assertTrue(code == 201 || code == 403 || code == 409, "answered " + code);
                created += code == 201 ? 1 : 0;
            }
            assertEquals(3, created);
            assertEquals(3, json(f.get("/api/v1/namespaces/racing/configmaps")).path("items").size());
        } finally {
            pool.shutdownNow();
        }
        assertFalse(json(f.get("/api/v1/namespaces/racing/resourcequotas/q")).path("status").isMissingNode());
    }
}
