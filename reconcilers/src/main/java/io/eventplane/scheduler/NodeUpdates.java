package io.eventplane.scheduler;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which node updates can make an unschedulable pod fit, as kube-scheduler's queue judges them
 * (NodeSchedulingPropertiesChange): spec.unschedulable, allocatable, labels, taints, annotations, or a condition's
 * status. A kubelet's periodic status report (new heartbeat times, the same statuses) is none of these, so it does not
 * send every parked pod back to a failing attempt and another FailedScheduling Event. Pure.
 */
final class NodeUpdates {
    private NodeUpdates() {
    }

    static boolean mayMakePodsFit(Node before, Node after) {
        if (before == null || after == null) {
            return true;
        }
        return !Objects.equals(unschedulable(before), unschedulable(after))
                || !Objects.equals(before.getMetadata().getLabels(), after.getMetadata().getLabels())
                || !Objects.equals(before.getMetadata().getAnnotations(), after.getMetadata().getAnnotations())
                || !Objects.equals(before.getSpec() == null ? null : before.getSpec().getTaints(),
                        after.getSpec() == null ? null : after.getSpec().getTaints())
                || !Objects.equals(before.getStatus() == null ? null : before.getStatus().getAllocatable(),
                        after.getStatus() == null ? null : after.getStatus().getAllocatable())
                || !conditionStatuses(before).equals(conditionStatuses(after));
    }

    private static boolean unschedulable(Node node) {
        return node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
    }

    private static Map<String, String> conditionStatuses(Node node) {
        Map<String, String> out = new HashMap<>();
        List<NodeCondition> conditions = node.getStatus() == null ? null : node.getStatus().getConditions();
        if (conditions != null) {
            conditions.forEach(c -> out.put(c.getType(), c.getStatus()));
        }
        return out;
    }
}
