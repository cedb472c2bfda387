package io.eventplane.gateway.console.model;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A node's readiness, problems, taints and allocatable resources. */
final class NodeRows {
    private NodeRows() {
    }

    static NodeRow node(Node node, long resourceVersion) {
        ObjectMeta meta = node.getMetadata() == null ? new ObjectMeta() : node.getMetadata();
        NodeSpec spec = node.getSpec() == null ? new NodeSpec() : node.getSpec();
        NodeStatus status = node.getStatus() == null ? new NodeStatus() : node.getStatus();
        String ready = "Unknown";
        List<String> problems = new ArrayList<>();
        for (NodeCondition c : PodRows.list(status.getConditions())) {
            if ("Ready".equals(c.getType())) {
                ready = c.getStatus() == null ? "Unknown" : c.getStatus();
            } else if ("True".equals(c.getStatus())) {
                problems.add(c.getType());
            }
        }
        List<String> taints = new ArrayList<>();
        for (Taint t : PodRows.list(spec.getTaints())) {
            taints.add(t.getKey() + (t.getValue() == null || t.getValue().isEmpty() ? "" : "=" + t.getValue())
                    + ":" + t.getEffect());
        }
        Map<String, String> allocatable = status.getAllocatable() != null ? status.getAllocatable()
                : status.getCapacity() != null ? status.getCapacity() : Map.of();
        return new NodeRow(meta.getName(), meta.getUid(), resourceVersion, ready,
                Boolean.TRUE.equals(spec.getUnschedulable()), List.copyOf(problems), List.copyOf(taints),
                PodRows.quantity(allocatable.get("cpu"), true), PodRows.quantity(allocatable.get("memory"), false),
                PodRows.quantity(allocatable.get("pods"), false),
                meta.getLabels() == null ? Map.of() : meta.getLabels(),
                status.getNodeInfo() == null ? null : status.getNodeInfo().getKubeletVersion(),
                PodRows.millis(meta.getCreationTimestamp()));
    }
}
