package io.eventplane.scheduler;

import io.eventplane.model.LabelSelector;
import io.eventplane.model.Node;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The nodes, their pods and the namespaces as the scheduler sees them, nodes in name order. Mutable and confined to
 * one thread: the scheduler keeps one up to date incrementally (pods added and removed, node offers replaced) and
 * adds each decision with {@link #add} before the next pod is decided.
 */
public final class ClusterSnapshot {
    /** A workload's selector (ReplicaSet, ReplicationController, StatefulSet, Service) in its namespace. */
    public record WorkloadSelector(String namespace, LabelSelector selector) {
    }

    private NodeState[] nodes;
    private final Map<String, NodeState> byName;
    private final Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
    private final List<WorkloadSelector> workloads = new ArrayList<>();
    /** Pods on nodes that have required anti-affinity terms (checked against every incoming pod) or any affinity term. */
    final java.util.Set<Placed> withRequiredAntiAffinity = new java.util.LinkedHashSet<>();
    final java.util.Set<Placed> withAffinityTerms = new java.util.LinkedHashSet<>();
    /**
     * PreFilter states shared by the pods of one shape (same namespace, constraints, terms, labels) until the snapshot
     * changes other than by {@link #add}, which updates them: a batch of a workload's pods pays the cluster-wide count
     * once, not once per pod.
     */
    final Map<Object, TopologySpread.Filter> spreadMemo = new HashMap<>();
    final Map<Object, InterPodAffinity.Filter> affinityMemo = new HashMap<>();
    /** PreScore counts of the ScheduleAnyway spread constraints, shared and kept current like {@link #spreadMemo}. */
    final Map<Object, TopologySpread.ScoreCounts> scoreMemo = new java.util.LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Object, TopologySpread.ScoreCounts> eldest) {
            return size() > TopologySpread.ScoreCounts.MAX_REMEMBERED;
        }
    };
    /** The workloads' selector ANDed for a (namespace, labels): what the default spread constraints select. */
    final Map<Object, java.util.Optional<LabelSelector>> workloadSelectorMemo = new HashMap<>();
    /** Memo keys of selectors by namespace and selector identity ({@link TopologySpread}); cleared with the above. */
    final Map<String, Map<LabelSelector, String>> selectorKeys = new HashMap<>();
    /** While the metadata is read again: the namespaces and workloads before (see {@link #clearMetadata()}). */
    private List<Object> previousMetadata;

    /** Placed pods by namespace and label pair ({@code key=value}), for {@link #candidates}. */
    private final Map<String, Map<String, java.util.Set<Placed>>> byLabel = new HashMap<>();

    /** Where the next partial node search starts (Kubernetes' nextStartNodeIndex); carried over between cycles. */
    int nextStartNodeIndex;

    record Placed(PodInfo pod, NodeState node) {
    }

    public ClusterSnapshot(Collection<NodeState.Offer> offers) {
        TreeMap<String, NodeState> sorted = new TreeMap<>();
        for (NodeState.Offer o : offers) {
            sorted.put(o.name(), new NodeState(o));
        }
        byName = new HashMap<>(sorted);
        nodes = sorted.values().toArray(new NodeState[0]);
    }

    public static ClusterSnapshot of(Collection<Node> nodes) {
        List<NodeState.Offer> offers = new ArrayList<>();
        for (Node n : nodes) {
            offers.add(NodeState.Offer.of(n));
        }
        return new ClusterSnapshot(offers);
    }

    /** Counts a pod on its node; a pod bound to a node the scheduler does not know takes nothing. */
    public ClusterSnapshot add(String nodeName, PodInfo pod) {
        NodeState node = byName.get(nodeName);
        if (node != null) {
            node.add(pod);
            index(new Placed(pod, node), true);
            if (!pod.requiredAntiAffinity.isEmpty()) {
                withRequiredAntiAffinity.add(new Placed(pod, node));
            }
            if (pod.hasAffinityTerms()) {
                withAffinityTerms.add(new Placed(pod, node));
            }
            for (TopologySpread.Filter f : spreadMemo.values()) {
                f.added(pod, node);
            }
            for (TopologySpread.ScoreCounts c : scoreMemo.values()) {
                c.added(pod, node);
            }
            for (InterPodAffinity.Filter f : affinityMemo.values()) {
                f.added(pod, node, this);
            }
        }
        return this;
    }

    /** Takes a pod off its node again; nothing if it is not there. */
    public ClusterSnapshot remove(String nodeName, PodInfo pod) {
        NodeState node = byName.get(nodeName);
        if (node != null) {
            forgetMemos();
            node.remove(pod);
            index(new Placed(pod, node), false);
            withRequiredAntiAffinity.remove(new Placed(pod, node));
            withAffinityTerms.remove(new Placed(pod, node));
        }
        return this;
    }

    /** Replaces what a known node offers (its labels, taints, allocatable, readiness); false if the node is unknown. */
    public boolean update(NodeState.Offer offer) {
        NodeState node = byName.get(offer.name());
        if (node == null) {
            return false;
        }
        if (node.offer == offer) {
            return true;
        }
        forgetMemos();
        node.offer = offer;
        return true;
    }

    private void index(Placed placed, boolean add) {
        Map<String, java.util.Set<Placed>> labels = byLabel.computeIfAbsent(placed.pod().namespace, k -> new HashMap<>());
        for (Map.Entry<String, String> l : placed.pod().labels.entrySet()) {
            String pair = l.getKey() + '=' + l.getValue();
            if (add) {
                labels.computeIfAbsent(pair, k -> new java.util.LinkedHashSet<>()).add(placed);
            } else {
                java.util.Set<Placed> set = labels.get(pair);
                if (set != null && set.remove(placed) && set.isEmpty()) {
                    labels.remove(pair);
                }
            }
        }
    }

    /**
     * The placed pods of {@code namespace} that may match {@code selector}: those carrying its rarest matchLabels pair,
     * a superset of the matches (the caller still checks the whole selector). Null when the selector has no
     * matchLabels: then any pod may match. A Deployment's pods are found among its own hundred, not among every pod.
     */
    java.util.Collection<Placed> candidates(String namespace, LabelSelector selector) {
        if (selector == null || selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty()) {
            return null;
        }
        Map<String, java.util.Set<Placed>> labels = byLabel.get(namespace);
        java.util.Collection<Placed> rarest = null;
        for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
            java.util.Set<Placed> set = labels == null ? null : labels.get(e.getKey() + '=' + e.getValue());
            if (set == null) {
                return List.of();
            }
            if (rarest == null || set.size() < rarest.size()) {
                rarest = set;
            }
        }
        return rarest;
    }

    public boolean hasNode(String name) {
        return byName.containsKey(name);
    }

    public int size() {
        return nodes.length;
    }

    void forgetMemos() {
        spreadMemo.clear();
        affinityMemo.clear();
        scoreMemo.clear();
        workloadSelectorMemo.clear();
        selectorKeys.clear();
    }

    /**
     * Starts reading the namespaces and workload selectors again; {@link #metadataRead()} ends it and keeps the memos
     * when nothing they depend on changed.
     */
    public ClusterSnapshot clearMetadata() {
        previousMetadata = List.of(new HashMap<>(namespaceLabels), new ArrayList<>(workloads));
        namespaceLabels.clear();
        workloads.clear();
        return this;
    }

    /** The metadata is read again: the memos go only if it differs from what they were computed with. */
    public ClusterSnapshot metadataRead() {
        if (previousMetadata != null && !previousMetadata.equals(List.of(namespaceLabels, workloads))) {
            forgetMemos();
        }
        previousMetadata = null;
        return this;
    }

    public ClusterSnapshot namespace(String name, Map<String, String> labels) {
        if (previousMetadata == null) {
            forgetMemos();
        }
        namespaceLabels.put(name, labels == null ? Map.of() : labels);
        return this;
    }

    public ClusterSnapshot workload(String namespace, LabelSelector selector) {
        if (previousMetadata == null) {
            forgetMemos();
        }
        workloads.add(new WorkloadSelector(namespace, selector));
        return this;
    }

    public ClusterSnapshot startAt(int index) {
        nextStartNodeIndex = nodes.length == 0 ? 0 : Math.floorMod(index, nodes.length);
        return this;
    }

    public int nextStartNodeIndex() {
        return nextStartNodeIndex;
    }

    NodeState[] nodeArray() {
        return nodes;
    }

    public List<NodeState> nodes() {
        return List.of(nodes);
    }

    public NodeState node(String name) {
        return byName.get(name);
    }

    Map<String, String> namespaceLabels(String namespace) {
        return namespaceLabels.getOrDefault(namespace, Map.of());
    }

    Collection<String> namespaces() {
        return namespaceLabels.keySet();
    }

    List<WorkloadSelector> workloads() {
        return workloads;
    }
}
