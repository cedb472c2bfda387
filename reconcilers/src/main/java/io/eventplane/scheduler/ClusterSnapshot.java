package io.eventplane.scheduler;

import io.eventplane.model.Node;
import java.util.Collection;
import java.util.TreeMap;

/**
 * The nodes and their usage for one scheduling cycle, in name order. Mutable and confined to the cycle: each
 * decision made in the cycle is added with {@link #add} before the next pod is decided.
 */
public final class ClusterSnapshot {
    private final TreeMap<String, NodeState> nodes = new TreeMap<>();

    public static ClusterSnapshot of(Collection<Node> nodes) {
        ClusterSnapshot s = new ClusterSnapshot();
        for (Node n : nodes) {
            NodeState state = NodeState.of(n);
            s.nodes.put(state.name(), state);
        }
        return s;
    }

    /** Counts a pod on its node; a pod bound to a node the scheduler does not know takes nothing. */
    public ClusterSnapshot add(String nodeName, PodDemand demand) {
        nodes.computeIfPresent(nodeName, (n, state) -> state.withPod(demand));
        return this;
    }

    public Collection<NodeState> nodes() {
        return nodes.values();
    }

    public NodeState node(String name) {
        return nodes.get(name);
    }
}
