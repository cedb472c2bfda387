package io.eventplane.scheduler;

import io.eventplane.model.Pod;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The filters of the default profile this scheduler has, with Kubernetes' reason texts, in Kubernetes' order. */
public final class NodeFilters {
    static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
    static final String REASON_UNSCHEDULABLE = "node(s) were unschedulable";
    static final String REASON_SELECTOR = "node(s) didn't match Pod's node affinity/selector";
    static final String REASON_TOO_MANY_PODS = "Too many pods";

    private NodeFilters() {
    }

    /** NodeUnschedulable, TaintToleration, NodeAffinity (nodeSelector), NodeResourcesFit. */
    public static List<NodeFilter> defaults() {
        return List.of(NodeFilters::unschedulable, NodeFilters::taints, NodeFilters::nodeSelector, NodeFilters::resources);
    }

    static List<String> unschedulable(Pod pod, PodDemand demand, NodeState node) {
        if (!node.unschedulable()) {
            return List.of();
        }
        Taint cordon = Taint.newBuilder().setKey(UNSCHEDULABLE_TAINT).setEffect("NoSchedule").build();
        return tolerates(tolerations(pod), cordon) ? List.of() : List.of(REASON_UNSCHEDULABLE);
    }

    /** Taints with effect NoSchedule or NoExecute must be tolerated; PreferNoSchedule only affects scoring. */
    static List<String> taints(Pod pod, PodDemand demand, NodeState node) {
        List<Toleration> tolerations = tolerations(pod);
        for (Taint t : node.taints()) {
            if (("NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect())) && !tolerates(tolerations, t)) {
                return List.of("node(s) had untolerated taint {" + t.getKey() + ": " + nz(t.getValue()) + "}");
            }
        }
        return List.of();
    }

    static List<String> nodeSelector(Pod pod, PodDemand demand, NodeState node) {
        Map<String, String> selector = pod.getSpec() == null ? null : pod.getSpec().getNodeSelector();
        if (selector == null) {
            return List.of();
        }
        for (Map.Entry<String, String> e : selector.entrySet()) {
            if (!Objects.equals(node.labels().get(e.getKey()), e.getValue())) {
                return List.of(REASON_SELECTOR);
            }
        }
        return List.of();
    }

    /** Pod count, then every resource the pod requests against what the node has left (requests, not usage). */
    static List<String> resources(Pod pod, PodDemand demand, NodeState node) {
        List<String> reasons = new ArrayList<>();
        if (node.pods() + 1 > node.allowedPods()) {
            reasons.add(REASON_TOO_MANY_PODS);
        }
        List<String> names = new ArrayList<>(demand.requests().milli().keySet());
        names.sort(NodeFilters::resourceOrder);
        for (String r : names) {
            long wanted = demand.requests().get(r);
            if (r.equals("pods") || wanted <= 0) {
                continue;
            }
            if (wanted > node.allocatable().get(r) - node.requested().get(r)) {
                reasons.add("Insufficient " + r);
            }
        }
        return reasons;
    }

    /** cpu, memory, ephemeral-storage, then the rest by name: the order Kubernetes checks them in. */
    private static int resourceOrder(String a, String b) {
        List<String> first = List.of("cpu", "memory", "ephemeral-storage");
        int ia = first.indexOf(a);
        int ib = first.indexOf(b);
        if (ia >= 0 || ib >= 0) {
            return Integer.compare(ia < 0 ? first.size() : ia, ib < 0 ? first.size() : ib);
        }
        return a.compareTo(b);
    }

    static boolean tolerates(List<Toleration> tolerations, Taint taint) {
        for (Toleration t : tolerations) {
            if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
                continue;
            }
            boolean anyKey = t.getKey() == null || t.getKey().isEmpty();
            if ("Exists".equals(t.getOperator())) {
                if (anyKey || t.getKey().equals(taint.getKey())) {
                    return true;
                }
            } else if (!anyKey && t.getKey().equals(taint.getKey()) && nz(t.getValue()).equals(nz(taint.getValue()))) {
                return true;
            }
        }
        return false;
    }

    private static List<Toleration> tolerations(Pod pod) {
        return pod.getSpec() == null || pod.getSpec().getTolerations() == null ? List.of() : pod.getSpec().getTolerations();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
