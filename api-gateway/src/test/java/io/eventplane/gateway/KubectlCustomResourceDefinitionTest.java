package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * apiextensions.k8s.io/v1 CustomResourceDefinitions through the real kubectl (issue 26): the definition is validated
 * as Kubernetes validates it, Established at once, and its kind is in discovery and OpenAPI. Skipped without kubectl.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlCustomResourceDefinitionTest {
    @RegisterExtension
    static final Kubectl kubectl = new Kubectl();

    private static Path manifest(String resource) throws IOException {
        Path p = kubectl.dir().resolve(resource.replace('/', '-'));
        try (InputStream in = KubectlCustomResourceDefinitionTest.class.getResourceAsStream("/" + resource)) {
            Files.write(p, in.readAllBytes());
        }
        return p;
    }

    @Test
    @Order(1)
    @DisplayName("CRD-1 kubectl apply of a CRD: Established and NamesAccepted, defaults filled, "
            + "kubectl get crd prints NAME and CREATED AT")
    void applyDefinition() throws Exception {
        String out = kubectl.ok("apply", "-f", manifest("crd/crontab-crd.yaml").toString()).out();
        assertTrue(out.contains("customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created"), out);
        JsonNode crd = json(kubectl.gateway.get(
                "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com"));
        assertEquals("CronTabList", crd.path("spec").path("names").path("listKind").asText(), crd.toString());
        assertEquals("None", crd.path("spec").path("conversion").path("strategy").asText());
        assertEquals("v1", crd.path("status").path("storedVersions").get(0).asText());
        assertEquals("CronTab", crd.path("status").path("acceptedNames").path("kind").asText());
        String conditions = kubectl.ok("get", "crd", "crontabs.stable.example.com", "-o",
                "jsonpath={range .status.conditions[*]}{.type}={.status} {end}").out();
        assertTrue(conditions.contains("NamesAccepted=True") && conditions.contains("Established=True"), conditions);
        String table = kubectl.ok("get", "crd").out();
        assertTrue(table.startsWith("NAME") && table.contains("CREATED AT"), table);
        assertTrue(table.contains("crontabs.stable.example.com"), table);
        assertTrue(kubectl.ok("get", "crds").out().contains("crontabs.stable.example.com"));
    }

    @Test
    @Order(2)
    @DisplayName("CRD-2 the defined kind is in discovery (kubectl api-resources with its short name and category) "
            + "and in OpenAPI (kubectl explain walks its schema and the CRD's own)")
    void discoveryAndExplain() throws Exception {
        String resources = kubectl.ok("api-resources", "--api-group=stable.example.com").out();
        assertTrue(resources.contains("crontabs") && resources.contains("ct") && resources.contains("CronTab"), resources);
        String explained = kubectl.ok("explain", "crontabs.spec").out();
        assertTrue(explained.contains("cronSpec") && explained.contains("The schedule in cron format."), explained);
        assertTrue(explained.contains("What to run and when."), explained);
        String crd = kubectl.ok("explain", "customresourcedefinitions.spec.versions").out();
        assertTrue(crd.contains("additionalPrinterColumns"), crd);
        JsonNode group = json(kubectl.gateway.get("/apis/stable.example.com/v1"));
        JsonNode scale = null;
        for (JsonNode r : group.path("resources")) {
            if (r.path("name").asText().equals("crontabs/scale")) {
                scale = r;
            }
        }
        assertTrue(scale != null && scale.path("kind").asText().equals("Scale"), group.toString());
    }

    @Test
    @Order(3)
    @DisplayName("CRD-3 an invalid definition is refused 422 with Kubernetes' field messages, and nothing is served")
    void invalidDefinition() {
        HttpResponse<String> r = kubectl.gateway.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"widgets.example"},
                 "spec":{"group":"example","scope":"Regional","names":{"plural":"widgets","kind":"Widget"},
                  "versions":[{"name":"v1","served":true,"storage":false,
                    "schema":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"properties":{"size":{}}}}}}},
                   {"name":"v2","served":false,"storage":false}]}}""");
        assertEquals(422, r.statusCode(), r.body());
        String message = json(r).path("message").asText();
        assertTrue(message.contains("spec.group: Invalid value: \"example\": should be a domain with at least one dot"),
                message);
        assertTrue(message.contains("spec.scope: Unsupported value: \"Regional\": supported values: \"Cluster\", "
                + "\"Namespaced\""), message);
        assertTrue(message.contains("spec.versions: Invalid value: [v1, v2]: must have exactly one version marked as "
                + "storage version"), message);
        assertTrue(message.contains("spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required"),
                message);
        assertTrue(message.contains("spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: "
                + "must not be empty for specified object fields"), message);
        assertTrue(message.contains("properties[spec].properties[size].type: Required value"), message);
        HttpResponse<String> apis = kubectl.gateway.get("/apis/example/v1");
        assertEquals(404, apis.statusCode(), new String(apis.body().getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    @Order(4)
    @DisplayName("CRD-5 custom objects: kubectl apply, defaults from the schema, kubectl get with the printer columns "
            + "and short name, field selector on metadata.name")
    void customObjects() throws Exception {
        String out = kubectl.ok("apply", "-f", manifest("crd/crontab.yaml").toString()).out();
        assertTrue(out.contains("crontab.stable.example.com/my-new-cron-object created"), out);
        JsonNode ct = json(kubectl.gateway.get("/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object"));
        assertEquals("stable.example.com/v1", ct.path("apiVersion").asText(), ct.toString());
        assertEquals("CronTab", ct.path("kind").asText());
        assertEquals(1, ct.path("spec").path("replicas").asInt(), "defaulted: " + ct);
        assertEquals("my-awesome-cron-image", ct.path("spec").path("image").asText());
        assertEquals(1, ct.path("metadata").path("generation").asInt());
        String table = kubectl.ok("get", "ct").out();
        assertTrue(table.startsWith("NAME") && table.contains("SPEC") && table.contains("REPLICAS")
                && table.contains("AGE"), table);
        assertTrue(table.contains("my-new-cron-object") && table.contains("* * * * */5"), table);
        String byName = kubectl.ok("get", "crontabs", "--field-selector", "metadata.name=my-new-cron-object",
                "-o", "name").out();
        assertEquals("crontab.stable.example.com/my-new-cron-object", byName.trim());
        assertTrue(kubectl.ok("get", "all").out().contains("crontab.stable.example.com/my-new-cron-object"));
    }

    @Test
    @Order(5)
    @DisplayName("CRD-6 the writer validates custom objects against the schema (required, pattern, type, maximum) "
            + "with Kubernetes' messages, and prunes unknown fields")
    void validationAndPruning() {
        HttpResponse<String> r = kubectl.gateway.post("/apis/stable.example.com/v1/namespaces/default/crontabs", """
                {"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"bad"},
                 "spec":{"image":"x","replicas":11}}""");
        assertEquals(422, r.statusCode(), r.body());
        String message = json(r).path("message").asText();
        assertTrue(message.contains("spec.cronSpec: Required value"), message);
        assertTrue(message.contains("spec.replicas: Invalid value: 11: spec.replicas in body should be less than or "
                + "equal to 10"), message);
        r = kubectl.gateway.post("/apis/stable.example.com/v1/namespaces/default/crontabs", """
                {"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"bad"},
                 "spec":{"cronSpec":"often","replicas":"two"}}""");
        message = json(r).path("message").asText();
        assertTrue(message.contains("spec.cronSpec: Invalid value: \"often\": spec.cronSpec in body should match"),
                message);
        assertTrue(message.contains("spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type "
                + "integer: \"string\""), message);
        r = kubectl.gateway.post("/apis/stable.example.com/v1/namespaces/default/crontabs?fieldValidation=Ignore", """
                {"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"pruned"},
                 "spec":{"cronSpec":"* * * * *","extra":"dropped"},"other":{"a":1}}""");
        assertEquals(201, r.statusCode(), r.body());
        JsonNode pruned = json(r);
        assertTrue(pruned.path("spec").path("extra").isMissingNode() && pruned.path("other").isMissingNode(),
                pruned.toString());
    }

    @Test
    @Order(6)
    @DisplayName("CRD-7 merge and JSON patches apply, strategic merge is refused 415, status goes through the status "
            + "subresource only, kubectl scale moves spec.replicas")
    void patchStatusAndScale() throws Exception {
        String path = "/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object";
        HttpResponse<String> merged = kubectl.gateway.patch(path, "application/merge-patch+json",
                "{\"spec\":{\"image\":\"v2\"},\"status\":{\"replicas\":9}}");
        assertEquals(200, merged.statusCode(), merged.body());
        assertEquals("v2", json(merged).path("spec").path("image").asText());
        assertEquals(2, json(merged).path("metadata").path("generation").asInt());
        assertTrue(json(merged).path("status").path("replicas").isMissingNode(), "status is the subresource's");
        HttpResponse<String> jsonPatch = kubectl.gateway.patch(path, "application/json-patch+json",
                "[{\"op\":\"replace\",\"path\":\"/spec/image\",\"value\":\"v3\"}]");
        assertEquals("v3", json(jsonPatch).path("spec").path("image").asText(), jsonPatch.body());
        HttpResponse<String> strategic = kubectl.gateway.patch(path, "application/strategic-merge-patch+json",
                "{\"spec\":{\"image\":\"v4\"}}");
        assertEquals(415, strategic.statusCode(), strategic.body());
        HttpResponse<String> status = kubectl.gateway.patch(path + "/status", "application/merge-patch+json",
                "{\"status\":{\"replicas\":1,\"labelSelector\":\"app=cron\"}}");
        assertEquals(200, status.statusCode(), status.body());
        assertEquals(1, json(status).path("status").path("replicas").asInt(), status.body());
        assertEquals(3, json(status).path("metadata").path("generation").asInt(), "status does not bump generation");
        kubectl.ok("scale", "crontab", "my-new-cron-object", "--replicas=3");
        assertEquals(3, json(kubectl.gateway.get(path)).path("spec").path("replicas").asInt());
        JsonNode scale = json(kubectl.gateway.get(path + "/scale"));
        assertEquals("Scale", scale.path("kind").asText(), scale.toString());
        assertEquals(3, scale.path("spec").path("replicas").asInt());
        assertEquals(1, scale.path("status").path("replicas").asInt());
        assertEquals("app=cron", scale.path("status").path("selector").asText());
    }

    @Test
    @Order(7)
    @DisplayName("CRD-8 kubectl delete namespace deletes the namespace's custom objects (the namespace controller finds "
            + "the custom kinds as it finds the built-in ones), and the namespace goes")
    void deleteNamespaceWithCustomObjects() throws Exception {
        kubectl.ok("create", "namespace", "crons");
        String out = kubectl.ok("apply", "-n", "crons", "-f", manifest("crd/crontab.yaml").toString()).out();
        assertTrue(out.contains("crontab.stable.example.com/my-new-cron-object created"), out);
        out = kubectl.ok("delete", "namespace", "crons", "--timeout=60s").out();
        assertTrue(out.contains("namespace \"crons\" deleted"), out);
        assertEquals(404, kubectl.gateway.get("/apis/stable.example.com/v1/namespaces/crons/crontabs/my-new-cron-object")
                .statusCode());
        assertEquals(404, kubectl.gateway.get("/api/v1/namespaces/crons").statusCode(), "the namespace is gone");
        JsonNode audit = json(kubectl.gateway.get("/apis/eventplane.io/v1/audit?kind=CronTab&namespace=crons"
                + "&name=my-new-cron-object"));
        assertTrue(audit.toString().contains("namespace-controller"), "deleted by the namespace controller: " + audit);
        assertEquals(200, kubectl.gateway.get("/apis/stable.example.com/v1/namespaces/default/crontabs/"
                + "my-new-cron-object").statusCode(), "other namespaces keep theirs");
    }

    @Test
    @Order(9)
    @DisplayName("CRD-4 deleting the definition deletes its objects and stops serving its kind")
    void deleteDefinition() throws Exception {
        kubectl.ok("delete", "crd", "crontabs.stable.example.com");
        JsonNode audit = json(kubectl.gateway.get("/apis/eventplane.io/v1/audit?kind=CronTab&namespace=default"
                + "&name=my-new-cron-object"));
        assertTrue(audit.toString().contains("DELETED"), audit.toString());
        GatewayFixture.awaitTrue("crontabs leave discovery",
                () -> kubectl.gateway.get("/apis/stable.example.com/v1").statusCode() == 404,
                java.time.Duration.ofSeconds(10));
    }
}
