package io.eventplane.scheduler;

import io.eventplane.core.meta.Taints;
import io.eventplane.model.Taint;
import java.util.List;
import java.util.Map;

/**
 * The per-node filters of the default profile that need no cluster-wide state, with Kubernetes' reason texts:
 * NodeUnschedulable, NodeName, TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit. Each answers null when the
 * node passes. Pure and allocation-free on the passing path.
 */
final class NodeFilters {
    static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
    static final String REASON_UNSCHEDULABLE = "node(s) were unschedulable";
    static final String REASON_NODE_NAME = "node(s) didn't match the requested node name";
    static final String REASON_SELECTOR = "node(s) didn't match Pod's node affinity/selector";
    static final String REASON_PORTS = "node(s) didn't have free ports for the requested pod ports";
    static final String REASON_TOO_MANY_PODS = "Too many pods";
    static final String REASON_TAINT_PREFIX = "node(s) had untolerated taint";
    private static final Taint CORDON = Taint.newBuilder().setKey(UNSCHEDULABLE_TAINT).setEffect("NoSchedule").build();

    private NodeFilters() {
    }

    static String unschedulable(PodInfo pod, NodeState node) {
        if (!node.offer.unschedulable() || Taints.tolerates(pod.tolerations, CORDON)) {
            return null;
        }
        return REASON_UNSCHEDULABLE;
    }

    static String nodeName(PodInfo pod, NodeState node) {
        return pod.nodeName == null || pod.nodeName.equals(node.name()) ? null : REASON_NODE_NAME;
    }

    /** Taints with effect NoSchedule or NoExecute must be tolerated; PreferNoSchedule only affects scoring. */
    static String taints(PodInfo pod, NodeState node) {
        if (node.offer.taints().isEmpty()) {
            return null;
        }
        Taint t = NodeMatch.untoleratedHardTaint(pod.tolerations, node.offer.taints());
        return t == null ? null : REASON_TAINT_PREFIX + " {" + t.getKey() + ": " + NodeMatch.nz(t.getValue()) + "}";
    }

    static String nodeAffinity(PodInfo pod, NodeState node) {
        if (pod.nodeSelector == null && pod.requiredNodeAffinity == null) {
            return null;
        }
        return NodeMatch.requiredNodeAffinity(pod, node.offer) ? null : REASON_SELECTOR;
    }

    /** A host port conflicts with one in use for the same protocol and port when either binds 0.0.0.0 or both the same IP. */
    static String ports(PodInfo pod, NodeState node) {
        if (pod.hostPorts.isEmpty() || node.usedPorts.isEmpty()) {
            return null;
        }
        for (String wanted : pod.hostPorts) {
            String[] w = wanted.split("/");
            for (String used : node.usedPorts) {
                String[] u = used.split("/");
                if (w[0].equals(u[0]) && w[2].equals(u[2])
                        && (w[1].equals(u[1]) || w[1].equals("0.0.0.0") || u[1].equals("0.0.0.0"))) {
                    return REASON_PORTS;
                }
            }
        }
        return null;
    }

    /**
     * Pod count, then cpu, memory, ephemeral-storage and the extended resources by name, against what the node has
     * left (requests, not usage); every shortage is a reason of its own. Adds to {@code reasons}; true if it fits.
     */
    static boolean resources(PodInfo pod, NodeState node, List<String> reasons) {
        NodeState.Offer o = node.offer;
        boolean fits = true;
        if (node.podCount + 1 > o.allowedPods()) {
            reasons.add(REASON_TOO_MANY_PODS);
            fits = false;
        }
        if (pod.cpu > 0 && pod.cpu > o.cpu() - node.cpu) {
            reasons.add("Insufficient cpu");
            fits = false;
        }
        if (pod.memory > 0 && pod.memory > o.memory() - node.memory) {
            reasons.add("Insufficient memory");
            fits = false;
        }
        if (pod.ephemeral > 0 && pod.ephemeral > o.ephemeral() - node.ephemeral) {
            reasons.add("Insufficient ephemeral-storage");
            fits = false;
        }
        for (Map.Entry<String, Long> e : pod.extended.entrySet()) {
            if (e.getValue() > o.allocatable(e.getKey()) - node.extended.getOrDefault(e.getKey(), 0L)) {
                reasons.add("Insufficient " + e.getKey());
                fits = false;
            }
        }
        return fits;
    }
}
