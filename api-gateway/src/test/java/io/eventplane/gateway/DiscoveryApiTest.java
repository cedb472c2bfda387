package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Discovery, version, OpenAPI and health endpoints in the shapes kubectl 1.32 reads. */
class DiscoveryApiTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static JsonNode resource(JsonNode list, String name) {
        for (JsonNode r : list.path("resources")) {
            if (r.path("name").asText().equals(name)) {
                return r;
            }
        }
        throw new AssertionError(name + " not in " + list);
    }

    @Test
    @DisplayName("/version reports Kubernetes 1.32 so that the kubectl dispatcher picks kubectl 1.32")
    void version() {
        JsonNode v = json(f.get("/version?timeout=5s"));
        assertEquals("1", v.path("major").asText());
        assertEquals("32", v.path("minor").asText());
        assertTrue(v.path("gitVersion").asText().startsWith("v1.32."));
        assertEquals("linux/amd64", v.path("platform").asText());
    }

    @Test
    @DisplayName("/api and /apis list the core version and the coordination.k8s.io group")
    void legacyDiscovery() {
        HttpResponse<String> api = f.get("/api", "Accept", "application/json;g=apidiscovery.k8s.io;v=v2beta1;"
                + "as=APIGroupDiscoveryList,application/json");
        assertEquals("application/json", api.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("APIVersions", json(api).path("kind").asText());
        assertEquals("v1", json(api).path("versions").get(0).asText());
        JsonNode apis = json(f.get("/apis"));
        assertEquals("APIGroupList", apis.path("kind").asText());
        assertEquals("coordination.k8s.io", apis.path("groups").get(0).path("name").asText());
        assertEquals("coordination.k8s.io/v1",
                apis.path("groups").get(0).path("preferredVersion").path("groupVersion").asText());
    }

    @Test
    @DisplayName("/api/v1 lists every core kind with verbs, short names and the pods/status and pods/binding subresources")
    void resourceLists() {
        JsonNode core = json(f.get("/api/v1"));
        assertEquals("APIResourceList", core.path("kind").asText());
        assertEquals("v1", core.path("groupVersion").asText());
        JsonNode pods = resource(core, "pods");
        assertEquals("Pod", pods.path("kind").asText());
        assertEquals("pod", pods.path("singularName").asText());
        assertTrue(pods.path("namespaced").asBoolean());
        assertEquals("po", pods.path("shortNames").get(0).asText());
        List<String> verbs = new ArrayList<>();
        pods.path("verbs").forEach(v -> verbs.add(v.asText()));
        assertEquals(List.of("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"), verbs);
        assertEquals("Binding", resource(core, "pods/binding").path("kind").asText());
        assertEquals("Pod", resource(core, "pods/status").path("kind").asText());
        assertTrue(!resource(core, "nodes").path("namespaced").asBoolean());
        resource(core, "namespaces");
        resource(core, "events");
        JsonNode leases = json(f.get("/apis/coordination.k8s.io/v1"));
        assertEquals("coordination.k8s.io/v1", leases.path("groupVersion").asText());
        assertEquals("Lease", resource(leases, "leases").path("kind").asText());
    }

    @Test
    @DisplayName("aggregated discovery answers with exactly the apidiscovery v2 Content-Type")
    void aggregatedDiscovery() {
        String accept = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,"
                + "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
        HttpResponse<String> api = f.get("/api", "Accept", accept);
        assertEquals("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
                api.headers().firstValue("Content-Type").orElseThrow());
        JsonNode list = json(api);
        assertEquals("APIGroupDiscoveryList", list.path("kind").asText());
        JsonNode v1 = list.path("items").get(0).path("versions").get(0);
        assertEquals("v1", v1.path("version").asText());
        JsonNode apis = json(f.get("/apis", "Accept", accept));
        assertEquals("coordination.k8s.io", apis.path("items").get(0).path("metadata").path("name").asText());
    }

    @Test
    @DisplayName("OpenAPI v3 offers a PATCH with fieldValidation per kind; /openapi/v2 is 404")
    void openApi() {
        JsonNode index = json(f.get("/openapi/v3"));
        String url = index.path("paths").path("api/v1").path("serverRelativeURL").asText();
        assertTrue(url.startsWith("/openapi/v3/api/v1?hash="), url);
        JsonNode doc = json(f.get(url));
        JsonNode patch = doc.path("paths").path("/api/v1/namespaces/{namespace}/pods/{name}").path("patch");
        assertEquals("Pod", patch.path("x-kubernetes-group-version-kind").path("kind").asText());
        assertEquals("fieldValidation", patch.path("parameters").get(0).path("name").asText());
        assertTrue(doc.path("paths").has("/api/v1/nodes/{name}"));
        String leases = index.path("paths").path("apis/coordination.k8s.io/v1").path("serverRelativeURL").asText();
        assertTrue(json(f.get(leases)).path("paths")
                .has("/apis/coordination.k8s.io/v1/namespaces/{namespace}/leases/{name}"));
        assertEquals(404, f.get("/openapi/v2").statusCode());
    }

    @Test
    @DisplayName("/healthz, /livez and /readyz answer ok; a failing readiness check turns /readyz to 503")
    void health() {
        for (String p : List.of("/healthz", "/livez", "/readyz")) {
            HttpResponse<String> r = f.get(p);
            assertEquals(200, r.statusCode(), p);
            assertEquals("ok", r.body());
        }
        f.gateway.addReadinessCheck("always-failing", () -> false);
        HttpResponse<String> r = f.get("/readyz");
        assertEquals(503, r.statusCode());
        assertTrue(r.body().contains("[-]always-failing"), r.body());
        f.gateway.addReadinessCheck("always-failing", () -> true);
        assertEquals(200, f.get("/readyz").statusCode());
    }
}
