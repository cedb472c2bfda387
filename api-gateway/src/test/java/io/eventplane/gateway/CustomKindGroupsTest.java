package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One Kind defined by two groups, and a custom kind named like a built-in one, through the API: each is a kind of its
 * own (on the log, {@code Kind.group}); objects say the Kind alone.
 */
class CustomKindGroupsTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();
    private static final String RUN = UUID.randomUUID().toString().substring(0, 6);
    private static final String CAPI = "cluster" + RUN + ".x-k8s.io";
    private static final String CNPG = "postgresql" + RUN + ".cnpg.io";
    private static final String EXAMPLE = "apps" + RUN + ".example.com";

    private static String crd(String plural, String group, String kind) {
        return """
                {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
                 "metadata":{"name":"%s.%s"},
                 "spec":{"group":"%s","scope":"Namespaced","names":{"plural":"%s","kind":"%s"},
                  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
                   "properties":{"spec":{"type":"object","x-kubernetes-preserve-unknown-fields":true}}}}}]}}"""
                .formatted(plural, group, group, plural, kind);
    }

    private static String object(String group, String kind, String name, String spec) {
        return """
                {"apiVersion":"%s/v1","kind":"%s","metadata":{"name":"%s"},"spec":%s}""".formatted(group, kind, name, spec);
    }

    @Test
    @DisplayName("CRD-34 Cluster of two groups (cluster.x-k8s.io, postgresql.cnpg.io) and a Deployment of example.com: "
            + "all Established, same-named objects of each kept apart, apps/v1 Deployments untouched")
    void sameKindInTwoGroups() {
        String crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        assertEquals(201, f.post(crds, crd("clusters", CAPI, "Cluster")).statusCode());
        assertEquals(201, f.post(crds, crd("clusters", CNPG, "Cluster")).statusCode());
        assertEquals(201, f.post(crds, crd("deployments", EXAMPLE, "Deployment")).statusCode());
        for (String name : new String[] {"clusters." + CAPI, "clusters." + CNPG, "deployments." + EXAMPLE}) {
            JsonNode crd = json(f.get(crds + "/" + name));
            assertEquals("True", condition(crd, "Established"), name);
            assertEquals("True", condition(crd, "NamesAccepted"), name);
        }
        String capi = "/apis/" + CAPI + "/v1/namespaces/default/clusters";
        String cnpg = "/apis/" + CNPG + "/v1/namespaces/default/clusters";
        String custom = "/apis/" + EXAMPLE + "/v1/namespaces/default/deployments";
        for (String path : new String[] {capi, cnpg, custom}) {
            GatewayFixture.awaitTrue(path + " is served", () -> f.get(path).statusCode() == 200, Duration.ofSeconds(30));
        }
        assertEquals(201, f.post(capi, object(CAPI, "Cluster", "prod", "{\"topology\":\"capi\"}")).statusCode());
        assertEquals(201, f.post(cnpg, object(CNPG, "Cluster", "prod", "{\"instances\":3}")).statusCode());
        assertEquals(201, f.post(custom, object(EXAMPLE, "Deployment", "web", "{\"mine\":true}")).statusCode());

        JsonNode a = json(f.get(capi + "/prod"));
        JsonNode b = json(f.get(cnpg + "/prod"));
        assertEquals("Cluster", a.path("kind").asText());
        assertEquals(CAPI + "/v1", a.path("apiVersion").asText());
        assertEquals("capi", a.path("spec").path("topology").asText());
        assertEquals(3, b.path("spec").path("instances").asInt());
        assertNotEquals(a.path("metadata").path("uid").asText(), b.path("metadata").path("uid").asText());
        JsonNode list = json(f.get(cnpg));
        assertEquals("ClusterList", list.path("kind").asText());
        assertEquals(1, list.path("items").size());
        assertEquals(3, list.path("items").get(0).path("spec").path("instances").asInt());

        assertEquals("Deployment", json(f.get(custom + "/web")).path("kind").asText());
        assertEquals(404, f.get("/apis/apps/v1/namespaces/default/deployments/web").statusCode(),
                "the custom Deployment is not an apps/v1 Deployment");
        assertEquals(200, f.delete(cnpg + "/prod", null).statusCode());
        GatewayFixture.awaitTrue("the cnpg Cluster is gone", () -> f.get(cnpg + "/prod").statusCode() == 404,
                Duration.ofSeconds(30));
        assertEquals(200, f.get(capi + "/prod").statusCode(), "the other group's Cluster stays");
    }

    @Test
    @DisplayName("CRD-31 a second definition of a group asking for a kind the first holds is not Established: "
            + "NamesAccepted False with upstream's reason and message, and nothing is served for it")
    void conflictInOneGroup() {
        String group = "conflict" + RUN + ".example.com";
        String crds = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
        assertEquals(201, f.post(crds, crd("widgets", group, "Widget")).statusCode());
        assertEquals(201, f.post(crds, crd("gizmos", group, "Widget")).statusCode());
        JsonNode twin = json(f.get(crds + "/gizmos." + group));
        assertEquals("False", condition(twin, "NamesAccepted"));
        assertEquals("False", condition(twin, "Established"));
        assertTrue(twin.toString().contains("\\\"WidgetList\\\" is already in use"), twin.toString());
        GatewayFixture.awaitTrue("widgets are served", () -> f.get("/apis/" + group + "/v1/widgets").statusCode() == 200,
                Duration.ofSeconds(30));
        assertEquals(404, f.get("/apis/" + group + "/v1/gizmos").statusCode());
    }

    private static String condition(JsonNode crd, String type) {
        for (JsonNode c : crd.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c.path("status").asText();
            }
        }
        return "";
    }
}
