package io.eventplane.scheduler;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One node as the scheduler sees it: what it offers and what the pods bound (or assumed bound) to it already take.
 * A node whose Ready condition is not True carries the taint the node lifecycle controller would add
 * ({@code node.kubernetes.io/not-ready} or {@code unreachable}, NoSchedule), so readiness is just another taint.
 */
public record NodeState(String name, Map<String, String> labels, List<Taint> taints, boolean unschedulable,
                        ResourceList allocatable, ResourceList requested, ResourceList scoringRequested, int pods) {
    public static final String NOT_READY = "node.kubernetes.io/not-ready";
    public static final String UNREACHABLE = "node.kubernetes.io/unreachable";

    public NodeState {
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        taints = List.copyOf(taints);
    }

    public static NodeState of(Node node) {
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
        ResourceList allocatable = node.getStatus() == null ? ResourceList.EMPTY
                : ResourceList.parse(node.getStatus().getAllocatable() != null ? node.getStatus().getAllocatable()
                : node.getStatus().getCapacity());
        return new NodeState(name, node.getMetadata().getLabels(), taints, unschedulable, allocatable,
                ResourceList.EMPTY, ResourceList.EMPTY, 0);
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

    public NodeState withPod(PodDemand demand) {
        return new NodeState(name, labels, taints, unschedulable, allocatable, requested.plus(demand.requests()),
                scoringRequested.plus(demand.scoring()), pods + 1);
    }

    public long allowedPods() {
        return allocatable.get("pods") / 1000;
    }
}
