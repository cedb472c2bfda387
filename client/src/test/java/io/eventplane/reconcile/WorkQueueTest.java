package io.eventplane.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WorkQueueTest {
    private static final Duration NOW = Duration.ZERO;

    @Test
    @DisplayName("repeated adds of a waiting key coalesce, and keys come out in the order they were first added")
    void coalesces() throws InterruptedException {
        try (WorkQueue<String> q = new WorkQueue<>("test")) {
            q.add("a");
            q.add("b");
            q.add("a");

            assertEquals(List.of("a", "b"), q.take(10, NOW));
        }
    }

    @Test
    @DisplayName("a key added while it is processed is not handed out twice at once, but again after done")
    void noConcurrentProcessing() throws InterruptedException {
        try (WorkQueue<String> q = new WorkQueue<>("test")) {
            q.add("a");
            List<String> first = q.take(10, NOW);
            q.add("a");

            assertEquals(List.of(), q.take(10, NOW));
            q.done("a");
            assertEquals(first, q.take(10, NOW));
        }
    }

    @Test
    @DisplayName("the backoff doubles with each failure and is capped")
    void backoff() {
        try (WorkQueue<String> q = new WorkQueue<>("test", Duration.ofMillis(100), Duration.ofSeconds(1))) {
            assertEquals(Duration.ofMillis(100), q.backoff(1));
            assertEquals(Duration.ofMillis(400), q.backoff(3));
            assertEquals(Duration.ofSeconds(1), q.backoff(30));
        }
    }

    @Test
    @DisplayName("a key added with a delay keeps its earliest time: a later add with a shorter delay brings it forward, a longer one changes nothing")
    void delayedAddsKeepTheEarliest() throws InterruptedException {
        try (WorkQueue<String> q = new WorkQueue<>("test")) {
            q.addAfter("a", Duration.ofHours(1));
            q.addAfter("a", Duration.ofMillis(20));
            q.addAfter("a", Duration.ofHours(2));
            assertEquals(1, q.delayed());

            assertEquals(List.of("a"), q.take(10, Duration.ofSeconds(5)));
            assertEquals(0, q.delayed());
        }
    }

    @Test
    @DisplayName("retries share a token bucket: the burst goes at once, then one per interval (client-go's default controller rate limiter)")
    void retriesShareABucket() {
        try (WorkQueue<String> q = new WorkQueue<>("test", Duration.ofMillis(1), Duration.ofMillis(1), 10, 3)) {
            assertEquals(0, q.bucketDelay());
            assertEquals(0, q.bucketDelay());
            assertEquals(0, q.bucketDelay());
            long fourth = q.bucketDelay();
            long fifth = q.bucketDelay();
            assertTrue(fourth > 90_000_000L && fourth <= 100_000_000L, "fourth waits one interval: " + fourth);
            assertTrue(fifth > 190_000_000L && fifth <= 200_000_000L, "fifth waits two: " + fifth);
        }
    }
}
