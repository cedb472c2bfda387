package io.eventplane.controllers.daemonset;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class FailedPodBackoffTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Test
    @DisplayName("DS-15 replacements of a failing pod on one node wait 1 s, 2 s, 4 s ... at most 15 min; a node "
            + "left alone for 30 min starts over")
    void doublesUpToFifteenMinutes() {
        FailedPodBackoff b = new FailedPodBackoff();
        String key = FailedPodBackoff.key("uid", 1, "node-1");
        assertEquals(Duration.ZERO, b.remaining(key, T0));
        b.next(key, T0);
        assertEquals(Duration.ofSeconds(1), b.remaining(key, T0));
        b.next(key, T0.plusSeconds(1));
        assertEquals(Duration.ofSeconds(2), b.remaining(key, T0.plusSeconds(1)));
        Instant t = T0.plusSeconds(1);
        for (int i = 0; i < 20; i++) {
            b.next(key, t);
        }
        assertEquals(Duration.ofMinutes(15), b.remaining(key, t));
        assertEquals(Duration.ZERO, b.remaining(FailedPodBackoff.key("uid", 1, "node-2"), t), "per node");
        Instant later = t.plus(Duration.ofMinutes(31));
        b.next(key, later);
        assertEquals(Duration.ofSeconds(1), b.remaining(key, later));
    }
}
