package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.Kinds;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kubectl's generators ({@code kubectl create deployment|job|...}) post built-in kinds as
 * application/vnd.kubernetes.protobuf; the objects they create are the ones kubectl describes. Kinds this build does
 * not serve yet are skipped, not failed (assumptions on {@link Kinds#served()}). Skipped without kubectl.
 */
class KubectlCreateTest {
    @RegisterExtension
    static final Kubectl kubectl = new Kubectl();

    @Test
    @DisplayName("kubectl create deployment (protobuf): replicas, selector, labels and the container as given; "
            + "--replicas=0 keeps 0")
    void deployment() throws Exception {
        assertTrue(kubectl.ok("create", "deployment", "web", "--image=nginx").out()
                .contains("deployment.apps/web created"));
        JsonNode web = get("/apis/apps/v1/namespaces/default/deployments/web");
        assertEquals(1, web.path("spec").path("replicas").intValue(), web.toString());
        assertEquals("web", web.path("spec").path("selector").path("matchLabels").path("app").textValue());
        assertEquals("web", web.path("metadata").path("labels").path("app").textValue());
        JsonNode container = web.path("spec").path("template").path("spec").path("containers").get(0);
        assertEquals("nginx", container.path("name").textValue(), web.toString());
        assertEquals("nginx", container.path("image").textValue());
        assertTrue(container.path("stdin").isMissingNode(), "Go's unset false is not sent as a value: " + container);

        kubectl.ok("create", "deployment", "idle", "--image=nginx", "--replicas=0");
        assertEquals(0, get("/apis/apps/v1/namespaces/default/deployments/idle").path("spec").path("replicas").asInt(-1));
    }

    @Test
    @DisplayName("kubectl create job and cronjob (protobuf): command, restart policy and schedule as given")
    void jobAndCronJob() throws Exception {
        assertTrue(kubectl.ok("create", "job", "hello", "--image=busybox", "--", "echo", "hi").out()
                .contains("job.batch/hello created"));
        JsonNode pod = get("/apis/batch/v1/namespaces/default/jobs/hello").path("spec").path("template").path("spec");
        assertEquals("Never", pod.path("restartPolicy").textValue(), pod.toString());
        assertEquals(List.of("echo", "hi"), strings(pod.path("containers").get(0).path("command")));

        assertTrue(kubectl.ok("create", "cronjob", "tick", "--image=busybox", "--schedule=*/5 * * * *", "--", "date")
                .out().contains("cronjob.batch/tick created"));
        JsonNode cron = get("/apis/batch/v1/namespaces/default/cronjobs/tick");
        assertEquals("*/5 * * * *", cron.path("spec").path("schedule").textValue(), cron.toString());
        JsonNode template = cron.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
        assertEquals("OnFailure", template.path("restartPolicy").textValue());
        assertEquals(List.of("date"), strings(template.path("containers").get(0).path("command")));
    }

    @Test
    @DisplayName("kubectl create namespace (protobuf) creates an active namespace")
    void namespace() throws Exception {
        assertTrue(kubectl.ok("create", "namespace", "demo").out().contains("namespace/demo created"));
        assertEquals("Active", get("/api/v1/namespaces/demo").path("status").path("phase").textValue());
    }

    @Test
    @DisplayName("kubectl create pdb (protobuf): minAvailable as a percent IntOrString")
    void podDisruptionBudget() throws Exception {
        kubectl.ok("create", "pdb", "web", "--selector=app=web", "--min-available=50%");
        JsonNode pdb = get("/apis/policy/v1/namespaces/default/poddisruptionbudgets/web");
        assertEquals("50%", pdb.path("spec").path("minAvailable").textValue(), pdb.toString());
    }

    @Test
    @DisplayName("kubectl create service clusterip (protobuf): port, integer targetPort, type and selector")
    void service() throws Exception {
        assumeServed("services");
        kubectl.ok("create", "service", "clusterip", "api", "--tcp=80:8080");
        JsonNode svc = get("/api/v1/namespaces/default/services/api");
        JsonNode port = svc.path("spec").path("ports").get(0);
        assertEquals(80, port.path("port").intValue(), svc.toString());
        assertEquals(8080, port.path("targetPort").intValue());
        assertEquals("ClusterIP", svc.path("spec").path("type").textValue());
        assertEquals("api", svc.path("spec").path("selector").path("app").textValue());
    }

    @Test
    @DisplayName("kubectl create configmap and secret (protobuf): string data, and bytes as base64")
    void configMapAndSecret() throws Exception {
        assumeServed("configmaps");
        kubectl.ok("create", "configmap", "settings", "--from-literal=mode=fast");
        assertEquals("fast", get("/api/v1/namespaces/default/configmaps/settings").path("data").path("mode").textValue());
        assumeServed("secrets");
        kubectl.ok("create", "secret", "generic", "creds", "--from-literal=pw=x");
        assertEquals("eA==", get("/api/v1/namespaces/default/secrets/creds").path("data").path("pw").textValue());
    }

    @Test
    @DisplayName("kubectl create serviceaccount, priorityclass and quota (protobuf)")
    void accountsClassesQuotas() throws Exception {
        assumeServed("serviceaccounts");
        kubectl.ok("create", "serviceaccount", "robot");
        assertEquals("robot", get("/api/v1/namespaces/default/serviceaccounts/robot").path("metadata").path("name")
                .textValue());
        assumeServed("priorityclasses");
        kubectl.ok("create", "priorityclass", "high", "--value=1000", "--preemption-policy=Never");
        JsonNode pc = get("/apis/scheduling.k8s.io/v1/priorityclasses/high");
        assertEquals(1000, pc.path("value").intValue(), pc.toString());
        assertEquals("Never", pc.path("preemptionPolicy").textValue());
        assumeServed("resourcequotas");
        kubectl.ok("create", "quota", "small", "--hard=cpu=1,memory=1G,pods=2");
        JsonNode hard = get("/api/v1/namespaces/default/resourcequotas/small").path("spec").path("hard");
        assertEquals("1", hard.path("cpu").textValue(), hard.toString());
        assertEquals("1G", hard.path("memory").textValue());
        assertEquals("2", hard.path("pods").textValue());
    }

    /** Skips the rest of a test when this build does not serve the resource yet. */
    private static void assumeServed(String plural) {
        assumeTrue(Kinds.served().stream().anyMatch(k -> k.plural().equals(plural)), plural + " are not served yet");
    }

    private static JsonNode get(String path) {
        HttpResponse<String> r = kubectl.gateway.get(path);
        assertEquals(200, r.statusCode(), r.body());
        return GatewayFixture.json(r);
    }

    private static List<String> strings(JsonNode array) {
        return java.util.stream.StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }
}
