package io.eventplane.client.usage;

import io.eventplane.usage.NodeUsage;
import io.eventplane.usage.PodUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The latest sample of each node and an index of its pods, kept current as samples arrive ({@link #put},
 * {@link #remove}); reads answer only samples younger than {@code freshFor}. Thread-safe: one writer, many readers.
 */
public final class UsageSamples implements ResourceUsage {
    private final Supplier<Instant> clock;
    private final Duration freshFor;
    private final Map<String, NodeUsage> byNode = new HashMap<>();
    private final Map<String, String> nodeOfPod = new HashMap<>();

    /**
     * @param freshFor how much older than the clock's now a sample may be and still be answered (metrics-server
     *                 keeps a node's last scrape; we forget one that stopped arriving after a few windows)
     */
    public UsageSamples(Supplier<Instant> clock, Duration freshFor) {
        this.clock = clock;
        this.freshFor = freshFor;
    }

    public synchronized void put(NodeUsage sample) {
        NodeUsage before = byNode.put(sample.getNode(), sample);
        if (before != null) {
            for (PodUsage p : before.getPods()) {
                nodeOfPod.remove(podKey(p.getNamespace(), p.getName()), sample.getNode());
            }
        }
        for (PodUsage p : sample.getPods()) {
            nodeOfPod.put(podKey(p.getNamespace(), p.getName()), sample.getNode());
        }
    }

    /** The node is gone (a tombstone): its sample and its pods go too. */
    public synchronized void remove(String node) {
        NodeUsage before = byNode.remove(node);
        if (before != null) {
            for (PodUsage p : before.getPods()) {
                nodeOfPod.remove(podKey(p.getNamespace(), p.getName()), node);
            }
        }
    }

    @Override
    public synchronized Optional<NodeUsage> node(String name) {
        return Optional.ofNullable(byNode.get(name)).filter(this::fresh);
    }

    @Override
    public synchronized List<NodeUsage> nodes() {
        List<NodeUsage> out = new ArrayList<>();
        for (NodeUsage n : byNode.values()) {
            if (fresh(n)) {
                out.add(n);
            }
        }
        return out;
    }

    @Override
    public synchronized Optional<PodSample> pod(String namespace, String name) {
        String node = nodeOfPod.get(podKey(namespace, name));
        NodeUsage sample = node == null ? null : byNode.get(node);
        if (sample == null || !fresh(sample)) {
            return Optional.empty();
        }
        for (PodUsage p : sample.getPods()) {
            if (p.getNamespace().equals(namespace) && p.getName().equals(name)) {
                return Optional.of(new PodSample(p, sample.getTime(), Duration.ofMillis(sample.getWindowMillis()), node));
            }
        }
        return Optional.empty();
    }

    private boolean fresh(NodeUsage n) {
        return !n.getTime().isBefore(clock.get().minus(freshFor));
    }

    private static String podKey(String namespace, String name) {
        return namespace + "/" + name;
    }
}
