package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** kube-apiserver's max-in-flight filter: what the request beyond the limit gets, and what is exempt. */
class InFlightLimitApiTest {
    static {
        // Read when the fixture's gateway starts (the extension starts it after this class is initialized).
        System.setProperty("eventplane.max.mutating.requests.inflight", "1");
        System.setProperty("eventplane.max.requests.inflight", "1");
    }

    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @AfterAll
    static void clear() {
        System.clearProperty("eventplane.max.mutating.requests.inflight");
        System.clearProperty("eventplane.max.requests.inflight");
    }

    @Test
    @DisplayName("issue 20: beyond the in-flight limit a mutating request is answered 429 TooManyRequests with "
            + "Retry-After at once; reads have their own limit; watches are exempt; the slot comes back")
    void requestsBeyondTheLimitAre429() throws Exception {
        String pods = "/api/v1/namespaces/default/pods";
        // Admission needs the namespace's default ServiceAccount (the controller writes it through the writer);
        // then, with the writer stopped, a create holds its slot until its timeout.
        GatewayFixture.awaitTrue("the default ServiceAccount", () ->
                f.get("/api/v1/namespaces/default/serviceaccounts/default").statusCode() == 200,
                java.time.Duration.ofSeconds(30));
        f.writer.close();
        java.util.concurrent.atomic.AtomicReference<CompletableFuture<HttpResponse<String>>> held =
                new java.util.concurrent.atomic.AtomicReference<>();
        GatewayFixture.awaitTrue("a create holds the only slot", () -> {
            CompletableFuture<HttpResponse<String>> h = held.get();
            if (h == null || (h.isDone() && h.join().statusCode() == 429)) {
                // (again if a probe took the slot first)
                held.set(CompletableFuture.supplyAsync(() -> f.post(pods + "?timeout=5s", pod("held", null))));
            }
            return f.post(pods + "?timeout=1s", pod("probe", null)).statusCode() == 429;
        }, java.time.Duration.ofSeconds(20));

        long t0 = System.nanoTime();
        HttpResponse<String> refused = f.post(pods, pod("refused", null));
        long millis = (System.nanoTime() - t0) / 1_000_000;
        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElse(null));
        assertEquals("TooManyRequests", json(refused).path("reason").asText());
        assertEquals("Status", json(refused).path("kind").asText());
        org.junit.jupiter.api.Assertions.assertTrue(millis < 2000, "answered at once, took " + millis + " ms");

        // reads are counted apart, and a watch holds no slot
        assertEquals(200, f.get(pods).statusCode());
        try (RawWatch w = new RawWatch(f.url(), pods + "?watch=true&timeoutSeconds=5")) {
            assertEquals(200, w.status);
            assertEquals(200, f.get(pods).statusCode());
        }

        assertEquals(504, held.get().get(30, TimeUnit.SECONDS).statusCode());
        HttpResponse<String> after = f.post(pods + "?timeout=1s", pod("after", null));
        assertEquals(504, after.statusCode(), "the slot was given back: " + after.body());
    }
}
