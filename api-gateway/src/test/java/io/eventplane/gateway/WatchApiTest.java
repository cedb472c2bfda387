package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Watches on the wire: chunked, one JSON event per line, from a list's resourceVersion without loss or duplicates. */
class WatchApiTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @BeforeAll
    static void start() throws Exception {
        for (String ns : List.of("watch-a", "watch-b", "watch-c", "watch-d", "watch-e", "watch-f")) {
            assertEquals(201, f.post("/api/v1/namespaces", "{\"metadata\":{\"name\":\"" + ns + "\"}}").statusCode());
        }
    }

    @Test
    @DisplayName("a watch from a list's resourceVersion sees every one of 20 creations exactly once, also those made "
            + "between the list and the watch")
    void watchFromListSeesEverythingOnce() throws Exception {
        String pods = "/api/v1/namespaces/watch-a/pods";
        String rv = json(f.get(pods)).path("metadata").path("resourceVersion").asText();
        for (int i = 0; i < 5; i++) {
            assertEquals(201, f.post(pods, pod("early-" + i, null)).statusCode());
        }
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=true&resourceVersion=" + rv + "&timeoutSeconds=60")) {
            assertEquals(200, w.status);
            assertTrue(w.chunked(), w.headers.toString());
            assertEquals("application/json", w.headers.get("content-type"));
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<Integer>> creates = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                String name = "late-" + i;
                creates.add(pool.submit(() -> f.post(pods, pod(name, null)).statusCode()));
            }
            for (Future<Integer> c : creates) {
                assertEquals(201, c.get());
            }
            pool.shutdown();
            Set<String> seen = new HashSet<>();
            List<String> all = new ArrayList<>();
            while (seen.size() < 20) {
                JsonNode e = w.nextEvent();
                assertNotNull(e, "the watch ended early");
                assertEquals("ADDED", e.path("type").asText(), e.toString());
                assertEquals("Pod", e.path("object").path("kind").asText());
                String name = e.path("object").path("metadata").path("name").asText();
                all.add(name);
                seen.add(name);
            }
            assertEquals(20, all.size(), "no duplicates: " + all);
            // Nothing more arrives: no duplicate after the twentieth.
            w.timeout(1500);
            try {
                JsonNode extra = w.nextEvent();
                throw new AssertionError("unexpected event " + extra);
            } catch (java.io.IOException expected) {
                assertTrue(RawWatch.isTimeout(expected), expected.toString());
            }
        }
    }

    @Test
    @DisplayName("a watch resumed from the resourceVersion of the last event it got (as client-go's reflector does) "
            + "gets every later change exactly once and nothing it had, on any number of partitions")
    void watchResumedFromAnEventsResourceVersion() throws Exception {
        String pods = "/api/v1/namespaces/watch-f/pods";
        String rv = json(f.get(pods)).path("metadata").path("resourceVersion").asText();
        for (int i = 0; i < 12; i++) {
            assertEquals(201, f.post(pods, pod("first-" + i, null)).statusCode());
        }
        List<String> got = new ArrayList<>();
        String last;
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=true&resourceVersion=" + rv + "&timeoutSeconds=60")) {
            JsonNode e = null;
            for (int i = 0; i < 6; i++) {
                e = w.nextEvent();
                assertNotNull(e, "the watch ended early");
                got.add(e.path("object").path("metadata").path("name").asText());
            }
            last = e.path("object").path("metadata").path("resourceVersion").asText();
        }
        for (int i = 0; i < 8; i++) {
            assertEquals(201, f.post(pods, pod("second-" + i, null)).statusCode());
        }
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=true&resourceVersion=" + last + "&timeoutSeconds=60")) {
            assertEquals(200, w.status);
            while (got.size() < 20) {
                JsonNode e = w.nextEvent();
                assertNotNull(e, "the resumed watch ended early after " + got);
                assertEquals("ADDED", e.path("type").asText(), e.toString());
                got.add(e.path("object").path("metadata").path("name").asText());
            }
            assertEquals(20, new HashSet<>(got).size(), "each creation once: " + got);
            w.timeout(1500);
            try {
                JsonNode extra = w.nextEvent();
                throw new AssertionError("unexpected event " + extra);
            } catch (java.io.IOException expected) {
                assertTrue(RawWatch.isTimeout(expected), expected.toString());
            }
        }
    }

    @Test
    @DisplayName("a watch without resourceVersion starts with a synthetic ADDED per existing object, then follows "
            + "changes, and timeoutSeconds ends it")
    void watchFromNow() throws Exception {
        String pods = "/api/v1/namespaces/watch-b/pods";
        assertEquals(201, f.post(pods, pod("one", null)).statusCode());
        assertEquals(201, f.post(pods, pod("two", null)).statusCode());
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=1&timeoutSeconds=3")) {
            Set<String> initial = new HashSet<>();
            for (int i = 0; i < 2; i++) {
                JsonNode e = w.nextEvent();
                assertEquals("ADDED", e.path("type").asText());
                initial.add(e.path("object").path("metadata").path("name").asText());
            }
            assertEquals(Set.of("one", "two"), initial);
            assertEquals(200, f.delete(pods + "/one", null).statusCode());
            JsonNode deleted = w.nextEvent();
            assertEquals("DELETED", deleted.path("type").asText());
            assertEquals("one", deleted.path("object").path("metadata").path("name").asText());
            assertNull(w.nextEvent(), "timeoutSeconds ends the stream");
        }
    }

    @Test
    @DisplayName("a label-selector watch sends ADDED when a pod starts matching and DELETED when it stops")
    void selectorWatch() throws Exception {
        String pods = "/api/v1/namespaces/watch-c/pods";
        JsonNode created = json(f.post(pods, pod("moving", "\"labels\":{\"app\":\"other\"}")));
        String rv = json(f.get(pods)).path("metadata").path("resourceVersion").asText();
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=true&labelSelector=app%3Dweb&resourceVersion=" + rv
                + "&timeoutSeconds=30")) {
            assertEquals(200, f.patch(pods + "/moving", "application/merge-patch+json",
                    "{\"metadata\":{\"labels\":{\"app\":\"web\"}}}").statusCode());
            JsonNode in = w.nextEvent();
            assertEquals("ADDED", in.path("type").asText(), in.toString());
            assertEquals(200, f.patch(pods + "/moving", "application/merge-patch+json",
                    "{\"metadata\":{\"labels\":{\"app\":\"gone\"}}}").statusCode());
            JsonNode out = w.nextEvent();
            assertEquals("DELETED", out.path("type").asText(), out.toString());
            assertEquals(created.path("metadata").path("uid"), out.path("object").path("metadata").path("uid"));
        }
    }

    @Test
    @DisplayName("a watch that asks for Table gets a one-row Table in each event")
    void tableWatch() throws Exception {
        String pods = "/api/v1/namespaces/watch-d/pods";
        assertEquals(201, f.post(pods, pod("tabled", null)).statusCode());
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=true&timeoutSeconds=10", "Accept",
                "application/json;as=Table;v=v1;g=meta.k8s.io,application/json")) {
            JsonNode e = w.nextEvent();
            assertEquals("ADDED", e.path("type").asText());
            assertEquals("Table", e.path("object").path("kind").asText());
            assertEquals("tabled", e.path("object").path("rows").get(0).path("cells").get(0).asText());
            assertEquals("PartialObjectMetadata", e.path("object").path("rows").get(0).path("object").path("kind").asText());
        }
    }

    @Test
    @DisplayName("a WebSocket upgrade on a watch URL gets a complete 200 at once (fabric8 then watches over HTTP)")
    void webSocketRefusedQuickly() throws Exception {
        // A refusal that did not complete the response would block the read below until the socket's timeout.
        try (RawWatch w = new RawWatch(f.url(), "/api/v1/namespaces/watch-e/pods?watch=true", "Upgrade", "websocket",
                "Connection", "Upgrade", "Sec-WebSocket-Version", "13", "Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")) {
            assertEquals(200, w.status);
            String body = w.chunked() ? w.nextChunk() : w.fixedBody();
            assertTrue(body.contains("\"kind\":\"Status\""), body);
        }
    }

    @Test
    @DisplayName("allowWatchBookmarks sends BOOKMARK events with a resourceVersion a new watch can resume from")
    void bookmarksAreOptionalButWellFormed() throws Exception {
        // Bookmarks come every 30 s while idle; this only checks that asking for them does not break the stream.
        String pods = "/api/v1/namespaces/watch-e/pods";
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=2")) {
            assertEquals(200, w.status);
            JsonNode e = w.nextEvent();
            if (e != null) {
                assertEquals("BOOKMARK", e.path("type").asText());
            }
        }
    }
}
