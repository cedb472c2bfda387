package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The web console's files and its JSON under /ui, over HTTP against a real writer and gateway. */
class ConsoleApiTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @Test
    @DisplayName("CON-UI: /ui redirects to /ui/, the page is revalidated each time and its hashed scripts are cached for a year")
    void servesTheConsole() {
        HttpResponse<String> redirect = f.get("/ui");
        assertEquals(302, redirect.statusCode());
        assertEquals("/ui/", redirect.headers().firstValue("Location").orElse(""));
        HttpResponse<String> page = f.get("/ui/");
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertEquals("no-cache", page.headers().firstValue("Cache-Control").orElse(""));
        Matcher script = Pattern.compile("/ui/(assets/[^\"]+\\.js)").matcher(page.body());
        assertTrue(script.find(), "the page names its script: " + page.body());
        HttpResponse<String> js = f.get("/ui/" + script.group(1));
        assertEquals(200, js.statusCode());
        assertTrue(js.headers().firstValue("Content-Type").orElse("").startsWith("text/javascript"));
        assertEquals("public, max-age=31536000, immutable", js.headers().firstValue("Cache-Control").orElse(""));
        assertEquals(404, f.get("/ui/assets/../../etc/passwd").statusCode());
        assertEquals(404, f.get("/ui/api/nothing").statusCode());
        assertEquals(405, f.post("/ui/api/pods", "{}").statusCode());
    }

    @Test
    @DisplayName("CON-PODS: pods filtered on the server by namespace, label selector, node, phase, owner and name; counts by phase; pages")
    void podsAreFilteredCountedAndPaged() {
        f.post("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"shop\"}}");
        for (int i = 0; i < 5; i++) {
            String node = i < 3 ? ",\"nodeName\":\"n1\"" : "";
            assertEquals(201, f.post("/api/v1/namespaces/shop/pods", """
                    {"apiVersion":"v1","kind":"Pod","metadata":{"name":"cart-%d","labels":{"app":"cart","tier":"%s"}},
                     "spec":{%s"containers":[{"name":"c","image":"cart:1",
                      "resources":{"requests":{"cpu":"250m","memory":"128Mi"}}}]}}""".formatted(i, i % 2 == 0 ? "web" : "db",
                    node.isEmpty() ? "" : node.substring(1) + ",")).statusCode());
        }
        JsonNode running = json(f.get("/api/v1/namespaces/shop/pods/cart-0"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) running).putObject("status").put("phase", "Running");
        assertEquals(200, f.put("/api/v1/namespaces/shop/pods/cart-0/status", running.toString()).statusCode());

        JsonNode shop = json(f.get("/ui/api/pods?namespace=shop"));
        assertEquals(5, shop.path("total").asInt());
        assertEquals(1, shop.path("phases").path("Running").asInt());
        assertEquals(4, shop.path("phases").path("Pending").asInt());
        assertEquals(List.of("cart-0", "cart-1", "cart-2", "cart-3", "cart-4"), names(shop));
        assertEquals(250, shop.path("rows").get(0).path("cpuMilli").asInt());
        assertEquals(128L << 20, shop.path("rows").get(0).path("memoryBytes").asLong());

        assertEquals(List.of("cart-0", "cart-2", "cart-4"), names(json(f.get("/ui/api/pods?labelSelector=" + enc("app=cart,tier in (web)")))));
        assertEquals(List.of("cart-0", "cart-1", "cart-2"), names(json(f.get("/ui/api/pods?node=n1&namespace=shop"))));
        assertEquals(List.of("cart-3", "cart-4"), names(json(f.get("/ui/api/pods?node=%3Cnone%3E&namespace=shop"))));
        JsonNode phase = json(f.get("/ui/api/pods?namespace=shop&phase=Running"));
        assertEquals(List.of("cart-0"), names(phase));
        assertEquals(4, phase.path("phases").path("Pending").asInt(), "counts by phase ignore the phase filter");
        assertEquals(List.of("cart-3"), names(json(f.get("/ui/api/pods?name=rt-3"))));
        JsonNode page = json(f.get("/ui/api/pods?namespace=shop&offset=2&limit=2"));
        assertEquals(List.of("cart-2", "cart-3"), names(page));
        assertEquals(5, page.path("total").asInt());
        assertEquals(400, f.get("/ui/api/pods?labelSelector=" + enc("app in (")).statusCode());
        assertEquals(400, f.get("/ui/api/pods?limit=-1").statusCode());
    }

    @Test
    @DisplayName("CON-PAST: as of a moment between its creation and deletion, a deleted pod is listed and readable as it was")
    void deletedPodAsItWas() {
        assertEquals(201, f.post("/api/v1/namespaces/default/pods", GatewayFixture.pod("brief", "\"labels\":{\"app\":\"brief\"}"))
                .statusCode());
        // The log keeps a change's time in milliseconds, and a moment includes the changes of its millisecond: the
        // delete must come in a later millisecond than the moment asked for, or it counts as before it.
        Instant between = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        while (!Instant.now().truncatedTo(ChronoUnit.MILLIS).isAfter(between)) {
            Thread.onSpinWait();
        }
        assertEquals(200, f.delete("/api/v1/namespaces/default/pods/brief", null).statusCode());
        assertTrue(names(json(f.get("/ui/api/pods?labelSelector=app%3Dbrief"))).isEmpty(), "gone now");

        JsonNode then = json(f.get("/ui/api/pods?labelSelector=app%3Dbrief&asOf=" + enc(between.toString())));
        assertEquals(List.of("brief"), names(then));
        assertFalse(then.path("live").asBoolean());
        assertEquals(between.toString(), then.path("time").asText());
        JsonNode object = json(f.get("/ui/api/object/Pod/default/brief?asOf=" + enc(between.toString())));
        assertTrue(object.path("exists").asBoolean());
        assertEquals("nginx:1.27", object.path("object").path("spec").path("containers").get(0).path("image").asText());
        assertFalse(json(f.get("/ui/api/object/Pod/default/brief")).path("exists").asBoolean());
        assertEquals(400, f.get("/ui/api/pods?asOf=" + enc(Instant.now().plusSeconds(3600).toString())).statusCode());
        assertEquals(400, f.get("/ui/api/pods?asOf=yesterday").statusCode());
    }

    @Test
    @DisplayName("CON-OBJ: an object's page lists its dependents (by owner uid) and the events about it; its watch path is the API's")
    void objectWithDependentsAndEvents() {
        JsonNode d = json(f.post("/apis/apps/v1/namespaces/default/deployments", """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"api"},
                 "spec":{"replicas":1,"selector":{"matchLabels":{"app":"api"}},
                  "template":{"metadata":{"labels":{"app":"api"}},"spec":{"containers":[{"name":"a","image":"api:1"}]}}}}"""));
        String uid = d.path("metadata").path("uid").asText();
        JsonNode pod = json(f.post("/api/v1/namespaces/default/pods", GatewayFixture.pod("api-1",
                "\"ownerReferences\":[{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"api\",\"uid\":\"" + uid
                        + "\",\"controller\":true}]")));
        assertEquals(201, f.post("/api/v1/namespaces/default/events", """
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"api-1.started"},
                 "involvedObject":{"kind":"Pod","namespace":"default","name":"api-1","uid":"%s"},
                 "reason":"Started","message":"Started container a","type":"Normal","count":1,
                 "source":{"component":"kubelet"}}""".formatted(pod.path("metadata").path("uid").asText())).statusCode());

        JsonNode deployment = json(f.get("/ui/api/object/Deployment/default/api"));
        assertEquals("/apis/apps/v1/namespaces/default/deployments", deployment.path("watchPath").asText());
        assertEquals("Pod", deployment.path("dependents").get(0).path("kind").asText());
        assertEquals("api-1", deployment.path("dependents").get(0).path("name").asText());
        JsonNode p = json(f.get("/ui/api/object/Pod/default/api-1"));
        assertEquals("Started", p.path("events").get(0).path("reason").asText());
        assertEquals("kubelet", p.path("events").get(0).path("source").asText());
        JsonNode workloads = json(f.get("/ui/api/workloads?kind=Deployment&name=api"));
        assertEquals(1, workloads.path("total").asInt());
        assertEquals("Progressing", workloads.path("rows").get(0).path("state").asText(), "no controller ran here");
        assertEquals("api:1", workloads.path("rows").get(0).path("images").get(0).asText());
        assertEquals(1, json(f.get("/ui/api/events?object=Pod%2Fapi-1")).path("total").asInt());
        assertEquals(400, f.get("/ui/api/object/Gizmo/default/x").statusCode());
    }

    @Test
    @DisplayName("CON-NODES: every node with what its pods request of it")
    void nodesWithAllocation() {
        assertEquals(201, f.post("/api/v1/nodes", GatewayFixture.node("n7")).statusCode());
        JsonNode n = json(f.get("/api/v1/nodes/n7"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) n.path("status")).putObject("allocatable")
                .put("cpu", "4").put("memory", "8Gi").put("pods", "110");
        assertEquals(200, f.put("/api/v1/nodes/n7/status", n.toString()).statusCode());
        assertEquals(201, f.post("/api/v1/namespaces/default/pods", """
                {"apiVersion":"v1","kind":"Pod","metadata":{"name":"on-n7"},
                 "spec":{"nodeName":"n7","containers":[{"name":"c","image":"x","resources":{"requests":{"cpu":"1500m","memory":"1Gi"}}}]}}""")
                .statusCode());
        JsonNode nodes = json(f.get("/ui/api/nodes"));
        JsonNode n7 = null;
        for (JsonNode node : nodes.path("nodes")) {
            if (node.path("name").asText().equals("n7")) {
                n7 = node;
            }
        }
        assertTrue(n7 != null, nodes.toString());
        assertEquals("True", n7.path("ready").asText());
        assertEquals(4000, n7.path("cpuMilli").asLong());
        assertEquals(1500, n7.path("cpuRequested").asLong());
        assertEquals(1L << 30, n7.path("memoryRequested").asLong());
        assertEquals(1, n7.path("podCount").asInt());
        assertEquals("worker", n7.path("roles").asText());
    }

    @Test
    @DisplayName("CON-HIST: an object's timeline has every accepted change with the object after it, and a rejected attempt with its verb and reason")
    void timelineWithRejections() {
        JsonNode created = json(f.post("/api/v1/namespaces/default/configmaps",
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"settings\"},\"data\":{\"a\":\"1\"}}"));
        String stale = created.path("metadata").path("resourceVersion").asText();
        assertEquals(200, f.patch("/api/v1/namespaces/default/configmaps/settings", "application/merge-patch+json",
                "{\"data\":{\"a\":\"2\"}}").statusCode());
        String update = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"settings\",\"resourceVersion\":\""
                + stale + "\"},\"data\":{\"a\":\"3\"}}";
        assertEquals(409, f.put("/api/v1/namespaces/default/configmaps/settings", update).statusCode());

        JsonNode items = json(f.get("/ui/api/history/ConfigMap/default/settings")).path("items");
        assertEquals(3, items.size(), items.toString());
        assertEquals("create", items.get(0).path("verb").asText());
        assertEquals("1", items.get(0).path("object").path("data").path("a").asText());
        assertEquals("update", items.get(1).path("verb").asText());
        assertEquals("2", items.get(1).path("object").path("data").path("a").asText());
        assertEquals("rejected", items.get(2).path("outcome").asText());
        assertEquals("update", items.get(2).path("verb").asText());
        assertEquals(409, items.get(2).path("code").asInt());

        JsonNode audit = json(f.get("/ui/api/audit?kind=configmaps&name=settings&outcome=rejected"));
        assertEquals(1, audit.path("total").asInt());
        assertEquals("Conflict", audit.path("items").get(0).path("reason").asText());
        assertFalse(audit.path("items").get(0).has("after"), "the audit list carries no objects");
        assertEquals(400, f.get("/ui/api/audit?since=sometime").statusCode());
    }

    @Test
    @DisplayName("CON-FEED: the change feed says READY, then which kinds changed when a pod is created")
    void changeFeed() throws Exception {
        HttpResponse<InputStream> r = f.http.send(HttpRequest.newBuilder(URI.create(f.url() + "/ui/api/changes?kinds=Pod"))
                .timeout(Duration.ofSeconds(60)).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            assertEquals("READY", GatewayFixture.JSON.readTree(lines.readLine()).path("type").asText());
            f.post("/api/v1/namespaces/default/configmaps",
                    "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"not-a-pod\"}}");
            assertEquals(201, f.post("/api/v1/namespaces/default/pods", GatewayFixture.pod("fed", null)).statusCode());
            CompletableFuture<JsonNode> changed = CompletableFuture.supplyAsync(() -> {
                try {
                    for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                        JsonNode msg = GatewayFixture.JSON.readTree(line);
                        if (msg.path("type").asText().equals("CHANGED")) {
                            return msg;
                        }
                    }
                    return null;
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            JsonNode msg = changed.get(30, TimeUnit.SECONDS);
            assertTrue(msg.path("kinds").path("Pod").asInt() >= 1, msg.toString());
            assertFalse(msg.path("kinds").has("ConfigMap"), "only the kinds asked for: " + msg);
        }
    }

    private static List<String> names(JsonNode answer) {
        List<String> out = new ArrayList<>();
        answer.path("rows").forEach(r -> out.add(r.path("name").asText()));
        return out;
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
