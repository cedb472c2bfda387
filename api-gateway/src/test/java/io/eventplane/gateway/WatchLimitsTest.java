package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.ObjectView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.select.FieldSelector;
import io.eventplane.gateway.select.LabelSelector;
import io.eventplane.gateway.select.Selection;
import io.eventplane.gateway.table.TableRenderer;
import io.eventplane.gateway.watch.WatchStreamer;
import io.eventplane.gateway.wire.WatchStream;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The bounds of watches, on a view that retains only a few changes: 410 for old positions, slow watchers closed. */
class WatchLimitsTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();
    private static ObjectView smallView;

    @BeforeAll
    static void start() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertEquals(201, f.post("/api/v1/namespaces/default/pods", pod("p" + i, null)).statusCode());
        }
        smallView = new ObjectView(f.config, "watch-limits", 5).start();
        smallView.awaitReady(Duration.ofSeconds(30));
    }

    @AfterAll
    static void stop() {
        smallView.close();
    }

    private static WatchStreamer.Request request(String rv, Duration timeout) {
        return new WatchStreamer.Request(new Selection(Kinds.POD, "default", LabelSelector.EVERYTHING,
                FieldSelector.EVERYTHING), rv, timeout, false, null, TableRenderer.Include.METADATA);
    }

    @Test
    @DisplayName("a watch from a position the view no longer retains gets one ERROR event with a 410 Expired Status")
    void tooOld() throws Exception {
        WatchStreamer streamer = new WatchStreamer(smallView, 1, 100, Clock.systemUTC());
        try (WatchStream s = streamer.open(request("1", Duration.ofSeconds(5)))) {
            JsonNode e = GatewayFixture.JSON.readTree(s.next());
            assertEquals("ERROR", e.path("type").asText());
            assertEquals(410, e.path("object").path("code").asInt());
            assertEquals("Expired", e.path("object").path("reason").asText());
            assertNull(s.next());
        }
    }

    @Test
    @DisplayName("a watcher that falls further behind than its buffer is closed instead of slowing anyone down")
    void slowWatcherIsClosed() throws Exception {
        WatchStreamer streamer = new WatchStreamer(smallView, 1, 2, Clock.systemUTC());
        long t0 = System.nanoTime();
        try (WatchStream s = streamer.open(request(null, Duration.ofSeconds(120)))) {
            // The 10 existing pods arrive as synthetic ADDED events; the buffer holds them plus 2 more events ...
            for (int i = 0; i < 10; i++) {
                assertEquals("ADDED", GatewayFixture.JSON.readTree(s.next()).path("type").asText());
            }
            // ... then 15 changes arrive while nobody reads: 12 fit, the 13th overflows the subscription.
            for (int i = 0; i < 15; i++) {
                assertEquals(200, f.patch("/api/v1/namespaces/default/pods/p" + (i % 10), "application/merge-patch+json",
                        "{\"metadata\":{\"labels\":{\"n\":\"" + i + "\"}}}").statusCode());
            }
            GatewayFixture.awaitTrue("the view has applied the changes", () -> smallView.get("Pod", "default", "p4")
                    .map(c -> c.getObject().toString().contains("\"n\": \"14\"")).orElse(false), Duration.ofSeconds(10));
            int delivered = 0;
            while (s.next() != null) {
                delivered++;
            }
            assertEquals(12, delivered, "what was buffered before the overflow is delivered, then the stream ends");
        }
        assertTrue((System.nanoTime() - t0) / 1_000_000_000 < 60, "ended by the overflow, not by its timeout");
    }
}
