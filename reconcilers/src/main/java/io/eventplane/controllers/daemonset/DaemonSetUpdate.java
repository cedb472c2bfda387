package io.eventplane.controllers.daemonset;

import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The RollingUpdate strategy (DS-14, DS-16; Kubernetes' rollingUpdate in update.go): which pods of an old revision to
 * delete, or on which nodes to start a pod of the current revision beside the old one, within maxUnavailable or
 * maxSurge. It only picks; {@link DaemonSetDecider#manage} creates the replacements for deleted pods and removes the
 * old pod of a surged node once the new one is available. Nodes are looked at in name order. Pure.
 */
final class DaemonSetUpdate {
    private DaemonSetUpdate() {
    }

    record Plan(List<Pod> podsToDelete, List<String> nodesToCreate) {
    }

    /** The newest and the old pod of a node, or {@code ok == false} when it has more than one of either. */
    private record OnNode(Pod newPod, Pod oldPod, boolean ok) {
    }

    static Plan rollingUpdate(DaemonSetDecider step) {
        Map<String, List<Pod>> byNode = new TreeMap<>(step.nodeToDaemonPods(false));
        int desired = 0;
        for (Map.Entry<String, NodeEligibility.Verdict> e : step.verdicts.entrySet()) {
            if (e.getValue().shouldRun()) {
                desired++;
                byNode.putIfAbsent(e.getKey(), List.of()); // a node without its pod counts as unavailable
            }
        }
        int maxSurge = DaemonPods.surgeCount(step.ds, desired);
        int maxUnavailable = DaemonPods.unavailableCount(step.ds, desired);
        if (desired > 0 && maxSurge == 0 && maxUnavailable == 0) {
            maxUnavailable = 1; // an impossible configuration gets Kubernetes' default
        }
        return maxSurge == 0 ? withoutSurge(step, byNode, maxUnavailable) : withSurge(step, byNode, maxSurge);
    }

    /**
     * Delete just enough old pods to stay within maxUnavailable; an old pod that is unavailable anyway may always go.
     * A node whose pod is missing, being replaced, or new and not yet available counts as unavailable.
     */
    private static Plan withoutSurge(DaemonSetDecider step, Map<String, List<Pod>> byNode, int maxUnavailable) {
        int unavailable = 0;
        List<Pod> replacements = new ArrayList<>();
        List<Pod> candidates = new ArrayList<>();
        for (List<Pod> pods : byNode.values()) {
            OnNode n = find(step, pods);
            if (!n.ok()) {
                unavailable++; // manage removes the excess first
                continue;
            }
            if ((n.oldPod() == null) == (n.newPod() == null)) {
                unavailable++; // nothing there, or both: manage creates or deletes
            } else if (n.newPod() != null) {
                if (!available(step, n.newPod())) {
                    unavailable++;
                }
            } else if (!available(step, n.oldPod())) {
                replacements.add(n.oldPod());
            } else if (unavailable < maxUnavailable) {
                candidates.add(n.oldPod());
            }
        }
        int remaining = Math.max(0, Math.min(maxUnavailable - unavailable, candidates.size()));
        List<Pod> delete = new ArrayList<>(replacements);
        delete.addAll(candidates.subList(0, remaining));
        return new Plan(delete, List.of());
    }

    /**
     * Start a new pod beside an old one on up to maxSurge nodes at a time (at once where the old pod is unavailable);
     * once the new pod is available, the old one goes.
     */
    private static Plan withSurge(DaemonSetDecider step, Map<String, List<Pod>> byNode, int maxSurge) {
        int surging = 0;
        List<Pod> delete = new ArrayList<>();
        List<String> allowed = new ArrayList<>();
        List<String> candidates = new ArrayList<>();
        for (Map.Entry<String, List<Pod>> e : byNode.entrySet()) {
            OnNode n = find(step, e.getValue());
            if (!n.ok()) {
                surging++;
                continue;
            }
            if (n.oldPod() == null) {
                continue; // manage takes care of it
            }
            if (n.newPod() == null) {
                if (!available(step, n.oldPod())) {
                    allowed.add(e.getKey());
                } else if (surging < maxSurge) {
                    candidates.add(e.getKey());
                }
            } else if (!available(step, n.newPod())) {
                surging++;
            } else {
                delete.add(n.oldPod());
            }
        }
        int remaining = Math.max(0, Math.min(maxSurge - surging, candidates.size()));
        List<String> create = new ArrayList<>(allowed);
        create.addAll(candidates.subList(0, remaining));
        return new Plan(delete, create);
    }

    /** Kubernetes' findUpdatedPodsOnNode, over the pods not being deleted. */
    private static OnNode find(DaemonSetDecider step, List<Pod> pods) {
        Pod newPod = null;
        Pod oldPod = null;
        for (Pod p : pods) {
            if (PodStates.isTerminating(p)) {
                continue;
            }
            if (DaemonPods.isUpdated(p, step.hash, step.generation)) {
                if (newPod != null) {
                    return new OnNode(null, null, false);
                }
                newPod = p;
            } else {
                if (oldPod != null) {
                    return new OnNode(null, null, false);
                }
                oldPod = p;
            }
        }
        return new OnNode(newPod, oldPod, true);
    }

    private static boolean available(DaemonSetDecider step, Pod p) {
        return step.available(p);
    }
}
