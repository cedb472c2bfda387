package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Lists: selectors, paging and server-side printing (Tables). */
class ListApiTest {
    private static final String TABLE = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @BeforeAll
    static void start() throws Exception {
        assertEquals(201, f.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"shop\"}}").statusCode());
        String pods = "/api/v1/namespaces/shop/pods";
        assertEquals(201, f.post(pods, pod("web-1", "\"labels\":{\"app\":\"web\",\"tier\":\"front\"}")).statusCode());
        assertEquals(201, f.post(pods, pod("web-2", "\"labels\":{\"app\":\"web\",\"tier\":\"back\"}")).statusCode());
        assertEquals(201, f.post(pods, pod("db-1", "\"labels\":{\"app\":\"db\"}")).statusCode());
        assertEquals(201, f.post(pods, pod("cache-1", null)).statusCode());
        assertEquals(201, f.post(pods + "/web-1/binding",
                "{\"metadata\":{\"name\":\"web-1\"},\"target\":{\"kind\":\"Node\",\"name\":\"node-a\"}}").statusCode());
        assertEquals(201, f.post("/api/v1/nodes", GatewayFixture.node("node-a")).statusCode());
    }

    private static List<String> names(String query) {
        JsonNode list = json(f.get("/api/v1/namespaces/shop/pods?" + query));
        List<String> out = new ArrayList<>();
        list.path("items").forEach(i -> out.add(i.path("metadata").path("name").asText()));
        return out;
    }

    private static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    @DisplayName("labelSelector supports =, ==, !=, in, notin, exists and !key")
    void labelSelectors() {
        assertEquals(List.of("web-1", "web-2"), names("labelSelector=" + q("app=web")));
        assertEquals(List.of("web-1"), names("labelSelector=" + q("app==web,tier=front")));
        assertEquals(List.of("cache-1", "db-1", "web-2"), names("labelSelector=" + q("tier!=front")));
        assertEquals(List.of("db-1", "web-1", "web-2"), names("labelSelector=" + q("app in (web, db)")));
        assertEquals(List.of("cache-1", "web-1", "web-2"), names("labelSelector=" + q("app notin (db)")));
        assertEquals(List.of("web-1", "web-2"), names("labelSelector=tier"));
        assertEquals(List.of("cache-1", "db-1"), names("labelSelector=" + q("!tier")));
        assertEquals(400, f.get("/api/v1/namespaces/shop/pods?labelSelector=" + q("app in (web")).statusCode());
    }

    @Test
    @DisplayName("fieldSelector supports metadata.name, spec.nodeName and status.phase with = and !=")
    void fieldSelectors() {
        assertEquals(List.of("db-1"), names("fieldSelector=" + q("metadata.name=db-1")));
        assertEquals(List.of("web-1"), names("fieldSelector=" + q("spec.nodeName=node-a")));
        assertEquals(List.of("cache-1", "db-1", "web-2"), names("fieldSelector=" + q("spec.nodeName=")));
        assertEquals(List.of("cache-1", "db-1", "web-2"), names("fieldSelector=" + q("spec.nodeName!=node-a")));
        assertEquals(4, names("fieldSelector=" + q("status.phase=Pending,metadata.namespace=shop")).size());
        JsonNode bad = json(f.get("/api/v1/namespaces/shop/pods?fieldSelector=" + q("spec.foo=x")));
        assertEquals(400, bad.path("code").asInt());
        assertEquals("field label not supported: spec.foo", bad.path("message").asText());
        JsonNode all = json(f.get("/api/v1/pods?fieldSelector=" + q("metadata.namespace=shop")));
        assertEquals(4, all.path("items").size());
    }

    @Test
    @DisplayName("limit and continue page through a list in key order, every page at the first page's resourceVersion")
    void paging() {
        JsonNode first = json(f.get("/api/v1/namespaces/shop/pods?limit=3"));
        assertEquals(3, first.path("items").size());
        String token = first.path("metadata").path("continue").asText();
        assertFalse(token.isEmpty());
        assertEquals(1, first.path("metadata").path("remainingItemCount").asInt());
        JsonNode second = json(f.get("/api/v1/namespaces/shop/pods?limit=3&continue=" + q(token)));
        assertEquals(1, second.path("items").size());
        assertEquals("web-2", second.path("items").get(0).path("metadata").path("name").asText());
        assertTrue(second.path("metadata").path("continue").isMissingNode());
        assertEquals(first.path("metadata").path("resourceVersion"), second.path("metadata").path("resourceVersion"));
        assertEquals(400, f.get("/api/v1/namespaces/shop/pods?limit=3&continue=garbage").statusCode());
    }

    @Test
    @DisplayName("kubectl get pods -o wide: a Table with NAME READY STATUS RESTARTS AGE and the wide columns")
    void podTable() {
        JsonNode table = json(f.get("/api/v1/namespaces/shop/pods?limit=500", "Accept", TABLE));
        assertEquals("Table", table.path("kind").asText());
        assertEquals("meta.k8s.io/v1", table.path("apiVersion").asText());
        List<String> columns = new ArrayList<>();
        List<Integer> priorities = new ArrayList<>();
        table.path("columnDefinitions").forEach(c -> {
            columns.add(c.path("name").asText());
            priorities.add(c.path("priority").asInt());
        });
        assertEquals(List.of("Name", "Ready", "Status", "Restarts", "Age", "IP", "Node", "Nominated Node",
                "Readiness Gates"), columns);
        assertEquals(List.of(0, 0, 0, 0, 0, 1, 1, 1, 1), priorities);
        JsonNode web1 = null;
        for (JsonNode row : table.path("rows")) {
            if (row.path("cells").get(0).asText().equals("web-1")) {
                web1 = row;
            }
        }
        assertEquals("web-1", web1.path("cells").get(0).asText());
        assertEquals("0/1", web1.path("cells").get(1).asText());
        assertEquals("Pending", web1.path("cells").get(2).asText());
        assertEquals("0", web1.path("cells").get(3).asText());
        assertTrue(web1.path("cells").get(4).asText().matches("\\d+s|\\d+m.*"), web1.toString());
        assertEquals("<none>", web1.path("cells").get(5).asText());
        assertEquals("node-a", web1.path("cells").get(6).asText());
        assertEquals("PartialObjectMetadata", web1.path("object").path("kind").asText());
        assertEquals("web-1", web1.path("object").path("metadata").path("name").asText());
        JsonNode full = json(f.get("/api/v1/namespaces/shop/pods?includeObject=Object", "Accept", TABLE));
        assertEquals("Pod", full.path("rows").get(0).path("object").path("kind").asText());
    }

    @Test
    @DisplayName("kubectl get nodes: NAME STATUS ROLES AGE VERSION, and the addresses and OS when wide")
    void nodeTable() {
        JsonNode row = json(f.get("/api/v1/nodes", "Accept", TABLE)).path("rows").get(0);
        JsonNode cells = row.path("cells");
        assertEquals("node-a", cells.get(0).asText());
        assertEquals("Ready", cells.get(1).asText());
        assertEquals("worker", cells.get(2).asText());
        assertEquals("v1.32.5", cells.get(4).asText());
        assertEquals("10.0.0.7", cells.get(5).asText());
        assertEquals("<none>", cells.get(6).asText());
        assertEquals("containerd://1.7.0", cells.get(9).asText());
        JsonNode ns = json(f.get("/api/v1/namespaces/shop", "Accept", TABLE)).path("rows").get(0).path("cells");
        assertEquals("shop", ns.get(0).asText());
        assertEquals("Active", ns.get(1).asText());
    }
}
