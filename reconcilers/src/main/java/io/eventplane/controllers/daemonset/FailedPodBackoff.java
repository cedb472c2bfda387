package io.eventplane.controllers.daemonset;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * The back-off between replacements of a failed daemon pod on one node (Kubernetes' failedPodsBackoff: 1 s doubling
 * to 15 min, keyed by DaemonSet uid, observed generation and node), so a controller does not fight a kubelet that
 * rejects its pod in a hot loop. Like Kubernetes' it lives in the controller's memory and starts empty after a
 * restart. Time comes in as {@code now}; used from the controller's one worker thread.
 */
final class FailedPodBackoff {
    static final Duration INITIAL = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofMinutes(15);

    private record Entry(Duration delay, Instant lastUpdate) {
    }

    private final Map<String, Entry> entries = new HashMap<>();

    static String key(String dsUid, long observedGeneration, String node) {
        return dsUid + "/" + observedGeneration + "/" + node;
    }

    /** How long until {@code key} may replace a failed pod again; zero or negative when it may now. */
    Duration remaining(String key, Instant now) {
        Entry e = entries.get(key);
        if (e == null) {
            return Duration.ZERO;
        }
        return Duration.between(now, e.lastUpdate().plus(e.delay()));
    }

    /** A replacement happens now: the next one waits twice as long (from 1 s, at most 15 min). */
    void next(String key, Instant now) {
        Entry e = entries.get(key);
        Duration delay = e == null || expired(e, now) ? INITIAL : e.delay().multipliedBy(2);
        entries.put(key, new Entry(delay.compareTo(MAX) > 0 ? MAX : delay, now));
        if (entries.size() > 10_000) {
            entries.values().removeIf(x -> expired(x, now));
        }
    }

    /** An entry untouched for twice the longest delay starts over (Kubernetes' backoff GC). */
    private static boolean expired(Entry e, Instant now) {
        return Duration.between(e.lastUpdate(), now).compareTo(MAX.multipliedBy(2)) > 0;
    }
}
