package io.eventplane.gateway.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.WatchStream;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * What the console's live lists listen to instead of a Kubernetes watch of everything they summarize: a stream of
 * newline-delimited JSON saying which kinds changed, at most every {@link #INTERVAL}. A list of 150,000 pods shows a
 * page and counts; a watch would send it every status change of every pod (thousands a second under load, each a
 * whole object), while this sends one line a quarter second and the page reloads only what it shows. The stream is
 * written like a watch (one JSON object per chunk) and read with the same fetch-streaming code in the browser, so it
 * carries the user's credentials like any API call.
 */
final class ChangeFeed {
    static final Duration INTERVAL = Duration.ofMillis(250);
    static final Duration HEARTBEAT = Duration.ofSeconds(15);
    private final Map<String, AtomicLong> changes = new ConcurrentHashMap<>();

    /** Notes one change of {@code kind} (called on the view's thread: only counts). */
    void changed(String kind) {
        changes.computeIfAbsent(kind, k -> new AtomicLong()).incrementAndGet();
    }

    /** A stream of the changes of {@code kinds} (every kind when empty) from now on. */
    WatchStream open(Set<String> kinds, Supplier<String> resourceVersion) {
        return new Stream(kinds, resourceVersion);
    }

    private Map<String, Long> counts(Set<String> kinds) {
        Map<String, Long> out = new HashMap<>();
        changes.forEach((k, v) -> {
            if (kinds.isEmpty() || kinds.contains(k)) {
                out.put(k, v.get());
            }
        });
        return out;
    }

    private final class Stream implements WatchStream {
        private final Set<String> kinds;
        private final Supplier<String> resourceVersion;
        private Map<String, Long> seen;
        private long lastSent;
        private volatile boolean closed;

        Stream(Set<String> kinds, Supplier<String> resourceVersion) {
            this.kinds = kinds;
            this.resourceVersion = resourceVersion;
        }

        @Override
        public byte[] next() throws InterruptedException {
            if (closed) {
                return null;
            }
            if (seen == null) {
                seen = counts(kinds);
                return line("READY", Map.of());
            }
            while (!closed) {
                Thread.sleep(INTERVAL.toMillis());
                Map<String, Long> now = counts(kinds);
                Map<String, Long> delta = new HashMap<>();
                now.forEach((k, v) -> {
                    long d = v - seen.getOrDefault(k, 0L);
                    if (d > 0) {
                        delta.put(k, d);
                    }
                });
                seen = now;
                if (!delta.isEmpty()) {
                    return line("CHANGED", delta);
                }
                if (System.nanoTime() - lastSent > HEARTBEAT.toNanos()) {
                    return line("HEARTBEAT", Map.of());
                }
            }
            return null;
        }

        private byte[] line(String type, Map<String, Long> kinds) {
            lastSent = System.nanoTime();
            ObjectNode n = Json.object();
            n.put("type", type);
            n.put("resourceVersion", resourceVersion.get());
            ObjectNode k = n.putObject("kinds");
            kinds.forEach(k::put);
            byte[] json = Json.bytes(n);
            byte[] out = java.util.Arrays.copyOf(json, json.length + 1);
            out[json.length] = '\n';
            return out;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
