package io.eventplane.scheduler;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.Taint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One node as the scheduler sees it: what it offers (parsed once) and what the pods bound, or assumed bound, to it
 * take. The offer is shared between snapshots; the usage belongs to one {@link ClusterSnapshot} and grows as the
 * cycle places pods ({@link #add}). A node whose Ready condition is not True carries the taint the node lifecycle
 * controller would add ({@code node.kubernetes.io/not-ready} or {@code unreachable}, NoSchedule), so readiness is
 * just another taint.
 */
public final class NodeState {
    public static final String NOT_READY = "node.kubernetes.io/not-ready";
    public static final String UNREACHABLE = "node.kubernetes.io/unreachable";

    /**
     * What the node offers; immutable, parsed from one version of the Node. Two versions that offer the same are equal
     * (a status heartbeat changes nothing here).
     */
    public record Offer(String name, Map<String, String> labels, List<Taint> taints,
                        boolean unschedulable, long cpu, long memory, long ephemeral, long allowedPods,
                        Map<String, Long> allocatable) {
        public static Offer of(Node node) {
            String name = node.getMetadata().getName();
            List<Taint> taints = new ArrayList<>();
            if (node.getSpec() != null && node.getSpec().getTaints() != null) {
                taints.addAll(node.getSpec().getTaints());
            }
            String ready = readyStatus(node);
            if (!"True".equals(ready)) {
                String key = "False".equals(ready) ? NOT_READY : ready == null ? NOT_READY : UNREACHABLE;
                if (taints.stream().noneMatch(t -> key.equals(t.getKey()) && "NoSchedule".equals(t.getEffect()))) {
                    taints.add(Taint.newBuilder().setKey(key).setEffect("NoSchedule").build());
                }
            }
            boolean unschedulable = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
            ResourceList a = node.getStatus() == null ? ResourceList.EMPTY
                    : ResourceList.parse(node.getStatus().getAllocatable() != null ? node.getStatus().getAllocatable()
                    : node.getStatus().getCapacity());
            Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of()
                    : Map.copyOf(node.getMetadata().getLabels());
            return new Offer(name, labels, List.copyOf(taints), unschedulable,
                    a.get("cpu"), a.get("memory"), a.get("ephemeral-storage"), a.get("pods") / 1000, a.milli());
        }

        long allocatable(String resource) {
            return allocatable.getOrDefault(resource, 0L);
        }
    }

    Offer offer;
    long cpu;
    long memory;
    long ephemeral;
    long nonZeroCpu;
    long nonZeroMemory;
    int podCount;
    Map<String, Long> extended = Map.of();
    final List<PodInfo> pods = new ArrayList<>();
    Set<String> usedPorts = Set.of();
    /** The offer {@link #hostname} and {@link #zone} were read from. */
    private Offer topologyOf;
    private String hostname;
    private String zone;
    /** Counts of pods matching a (namespace, selector), valid until the pods change. */
    private Map<String, Integer> matching;

    NodeState(Offer offer) {
        this.offer = offer;
    }

    public static NodeState of(Node node) {
        return new NodeState(Offer.of(node));
    }

    /** Counts a pod on this node. */
    void add(PodInfo pod) {
        cpu += pod.cpu;
        memory += pod.memory;
        ephemeral += pod.ephemeral;
        nonZeroCpu += pod.nonZeroCpu;
        nonZeroMemory += pod.nonZeroMemory;
        podCount++;
        if (!pod.extended.isEmpty()) {
            if (extended.isEmpty()) {
                extended = new HashMap<>();
            }
            pod.extended.forEach((k, v) -> extended.merge(k, v, Long::sum));
        }
        if (!pod.hostPorts.isEmpty()) {
            if (usedPorts.isEmpty()) {
                usedPorts = new HashSet<>();
            }
            usedPorts.addAll(pod.hostPorts);
        }
        pods.add(pod);
        matching = null;
    }

    /** Takes a pod off this node again (it was deleted, finished, or its assumed binding expired). */
    void remove(PodInfo pod) {
        if (!pods.remove(pod)) {
            return;
        }
        matching = null;
        cpu -= pod.cpu;
        memory -= pod.memory;
        ephemeral -= pod.ephemeral;
        nonZeroCpu -= pod.nonZeroCpu;
        nonZeroMemory -= pod.nonZeroMemory;
        podCount--;
        if (!pod.extended.isEmpty()) {
            pod.extended.forEach((k, v) -> extended.merge(k, -v, Long::sum));
        }
        if (!pod.hostPorts.isEmpty()) {
            usedPorts = new HashSet<>();
            for (PodInfo p : pods) {
                usedPorts.addAll(p.hostPorts);
            }
        }
    }

    /** How many of this node's pods match what {@code key} names, counted by {@code count} once per pod change. */
    int matching(String key, java.util.function.IntSupplier count) {
        if (matching == null) {
            matching = new HashMap<>();
        }
        Integer n = matching.get(key);
        if (n == null) {
            n = count.getAsInt();
            matching.put(key, n);
        }
        return n;
    }

    /**
     * The node's value of a topology label. The system default spread asks for the hostname and the zone of every
     * scored node for every pod: those two are read once per offer, not from the label map each time.
     */
    String topologyValue(String key) {
        if (topologyOf != offer) {
            topologyOf = offer;
            hostname = offer.labels().get(TopologySpread.HOSTNAME);
            zone = offer.labels().get(TopologySpread.ZONE);
        }
        if (key == TopologySpread.HOSTNAME) {
            return hostname;
        }
        if (key == TopologySpread.ZONE) {
            return zone;
        }
        return offer.labels().get(key);
    }

    public String name() {
        return offer.name();
    }

    public Map<String, String> labels() {
        return offer.labels();
    }

    public int pods() {
        return podCount;
    }

    public List<PodInfo> podInfos() {
        return pods;
    }

    private static String readyStatus(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        for (NodeCondition c : node.getStatus().getConditions()) {
            if ("Ready".equals(c.getType())) {
                return c.getStatus();
            }
        }
        return null;
    }
}
