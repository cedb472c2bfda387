package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every example workload created through the REST API (as YAML, strict field validation) and read back. */
class WorkloadApiTest {
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    static String example(String file) {
        try (InputStream in = WorkloadApiTest.class.getResourceAsStream("/examples/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode yaml(String text) {
        try {
            return new YAMLMapper().readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The collection URL of a manifest: /apis/{group}/{version} or /api/v1, its namespace (default), its resource. */
    static String collection(JsonNode manifest, String plural) {
        String apiVersion = manifest.path("apiVersion").asText();
        String ns = manifest.path("metadata").path("namespace").asText("default");
        return (apiVersion.contains("/") ? "/apis/" : "/api/") + apiVersion + "/namespaces/" + ns + "/" + plural;
    }

    static Stream<Arguments> examples() {
        return Stream.of(
                Arguments.of("deployment-nginx-deployment.yaml", "deployments", "NAME READY UP-TO-DATE AVAILABLE AGE",
                        "nginx-deployment 0/3 0 0"),
                Arguments.of("replicaset-frontend.yaml", "replicasets", "NAME DESIRED CURRENT READY AGE", "frontend 3 0 0"),
                Arguments.of("replicaset-my-repset.yaml", "replicasets", "NAME DESIRED CURRENT READY AGE", "my-repset 3 0 0"),
                Arguments.of("statefulset-web.yaml", "statefulsets", "NAME READY AGE", "web 0/3"),
                Arguments.of("daemonset-fluentd-elasticsearch.yaml", "daemonsets",
                        "NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE",
                        "fluentd-elasticsearch 0 0 0 0 0 <none>"),
                Arguments.of("job-pi.yaml", "jobs", "NAME STATUS COMPLETIONS DURATION AGE", "pi Running 0/1 "),
                Arguments.of("job-hello.yaml", "jobs", "NAME STATUS COMPLETIONS DURATION AGE", "hello Running 0/1 "),
                Arguments.of("job-pi-with-timeout.yaml", "jobs", "NAME STATUS COMPLETIONS DURATION AGE",
                        "pi-with-timeout Running 0/1 "),
                Arguments.of("job-pi-with-ttl.yaml", "jobs", "NAME STATUS COMPLETIONS DURATION AGE", "pi-with-ttl Running 0/1 "),
                Arguments.of("cronjob-hello.yaml", "cronjobs", "NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE",
                        "hello */1 * * * * <none> False 0 <none>"),
                Arguments.of("replicationcontroller-nginx.yaml", "replicationcontrollers", "NAME DESIRED CURRENT READY AGE",
                        "nginx 3 0 0"));
    }

    @ParameterizedTest(name = "{0} is created through the API, read back as stored and listed with kubectl''s columns")
    @MethodSource("examples")
    void createAndReadBack(String file, String plural, String header, String rowStart) {
        String text = example(file);
        JsonNode manifest = yaml(text);
        String url = collection(manifest, plural);
        String name = manifest.path("metadata").path("name").asText();
        HttpResponse<String> created = f.send("POST", url + "?fieldValidation=Strict", "application/yaml",
                text.getBytes(StandardCharsets.UTF_8));
        assertEquals(201, created.statusCode(), created.body());
        JsonNode stored = json(created);
        assertEquals(manifest.path("kind").asText(), stored.path("kind").asText());
        assertEquals(manifest.path("apiVersion").asText(), stored.path("apiVersion").asText());
        assertEquals(1, stored.path("metadata").path("generation").asInt());
        assertTrue(stored.has("status"), stored.toString());

        JsonNode got = json(f.get(url + "/" + name));
        assertEquals(stored, got);
        assertEquals(image(manifest), image(got));

        JsonNode table = json(f.get(url, "Accept", TABLE));
        List<String> columns = new ArrayList<>();
        table.path("columnDefinitions").forEach(c -> {
            if (c.path("priority").asInt() == 0) {
                columns.add(c.path("name").asText().toUpperCase());
            }
        });
        assertEquals(header, String.join(" ", columns));
        String row = null;
        for (JsonNode r : table.path("rows")) {
            if (r.path("object").path("metadata").path("name").asText().equals(name)) {
                List<String> cells = new ArrayList<>();
                r.path("cells").forEach(c -> cells.add(c.asText()));
                row = String.join(" ", cells);
            }
        }
        assertTrue(row != null && row.startsWith(rowStart), () -> "row of " + name + " in " + table);
    }

    /** The first container image of a workload's pod template (a CronJob's is in its job template). */
    private static JsonNode image(JsonNode workload) {
        JsonNode spec = workload.path("spec");
        JsonNode template = spec.has("jobTemplate") ? spec.path("jobTemplate").path("spec").path("template")
                : spec.path("template");
        return template.path("spec").path("containers").path(0).path("image");
    }

    @Test
    @DisplayName("DEP-03 DEP-07 DEP-10 DEP-12 the API serves a created Deployment with Kubernetes' defaults")
    void deploymentDefaultsAreServed() {
        String body = example("deployment-nginx-deployment.yaml").replace("nginx-deployment", "defaults")
                .replace("  replicas: 3\n", "");
        HttpResponse<String> r = f.send("POST", "/apis/apps/v1/namespaces/default/deployments", "application/yaml",
                body.getBytes(StandardCharsets.UTF_8));
        assertEquals(201, r.statusCode(), r.body());
        JsonNode spec = json(r).path("spec");
        assertEquals(1, spec.path("replicas").asInt());
        assertEquals("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"25%\",\"maxSurge\":\"25%\"}}",
                spec.path("strategy").toString());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        assertEquals(600, spec.path("progressDeadlineSeconds").asInt());
        assertEquals("Always", spec.path("template").path("spec").path("restartPolicy").asText());
    }

    @Test
    @DisplayName("JOB-02 AC-JOB-11 D8: the seed's job-pi, restartPolicy under the container, is refused with 422")
    void invalidJobIsRefused() {
        String body = """
                {"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"pi-as-in-seed"},
                 "spec":{"template":{"spec":{"containers":[{"name":"pi","image":"perl","restartPolicy":"Never"}]}}}}""";
        HttpResponse<String> r = f.post("/apis/batch/v1/namespaces/default/jobs", body);
        assertEquals(422, r.statusCode(), r.body());
        JsonNode status = json(r);
        assertEquals("Invalid", status.path("reason").asText());
        assertEquals("Job", status.path("details").path("kind").asText());
        assertEquals("batch", status.path("details").path("group").asText());
        List<String> fields = new ArrayList<>();
        status.path("details").path("causes").forEach(c -> fields.add(c.path("field").asText()));
        assertEquals(List.of("spec.template.spec.containers[0].restartPolicy", "spec.template.spec.restartPolicy"), fields);
    }

    @Test
    @DisplayName("DEP-05 updating a Deployment's selector answers 422 field is immutable; AC-DS-06 likewise for a DaemonSet")
    void immutableSelectors() {
        String deploy = "/apis/apps/v1/namespaces/default/deployments";
        assertEquals(201, f.send("POST", deploy, "application/yaml", example("deployment-nginx-deployment.yaml")
                .replace("nginx-deployment", "immutable").getBytes(StandardCharsets.UTF_8)).statusCode());
        HttpResponse<String> r = f.patch(deploy + "/immutable", "application/merge-patch+json",
                "{\"spec\":{\"selector\":{\"matchLabels\":{\"app\":\"nginx\",\"v\":\"2\"}},"
                        + "\"template\":{\"metadata\":{\"labels\":{\"v\":\"2\"}}}}}");
        assertEquals(422, r.statusCode(), r.body());
        assertTrue(json(r).path("message").asText().endsWith("field is immutable"), r.body());
    }

    @Test
    @DisplayName("discovery lists the workload resources with short names, the all category and their scale subresources")
    void discovery() {
        JsonNode apps = json(f.get("/apis/apps/v1"));
        List<String> names = new ArrayList<>();
        apps.path("resources").forEach(r -> names.add(r.path("name").asText()));
        assertEquals(List.of("deployments", "deployments/scale", "deployments/status", "replicasets", "replicasets/scale",
                "replicasets/status", "statefulsets", "statefulsets/scale", "statefulsets/status", "daemonsets",
                "daemonsets/status", "controllerrevisions"), names);
        JsonNode deployments = apps.path("resources").get(0);
        assertEquals("[\"deploy\"]", deployments.path("shortNames").toString());
        assertEquals("[\"all\"]", deployments.path("categories").toString());
        JsonNode scale = apps.path("resources").get(1);
        assertEquals("autoscaling", scale.path("group").asText());
        assertEquals("Scale", scale.path("kind").asText());
        JsonNode core = json(f.get("/api/v1"));
        List<String> coreNames = new ArrayList<>();
        core.path("resources").forEach(r -> coreNames.add(r.path("name").asText()));
        assertTrue(coreNames.contains("replicationcontrollers/scale"), coreNames.toString());
        JsonNode batch = json(f.get("/apis/batch/v1"));
        assertEquals("cj", batch.path("resources").get(2).path("shortNames").get(0).asText());
        JsonNode policy = json(f.get("/apis/policy/v1"));
        assertEquals("pdb", policy.path("resources").get(0).path("shortNames").get(0).asText());
        assertEquals(404, f.get("/apis/apps/v1/namespaces/default/daemonsets/x/scale").statusCode());
    }
}
