package io.eventplane.scheduler;

import io.eventplane.core.meta.NodeSelectors;
import io.eventplane.core.meta.Taints;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.util.List;

/**
 * Node selection rules over the scheduler's parsed pods and nodes: nodeSelector, node affinity terms and tolerations,
 * matched by the shared {@link NodeSelectors} and {@link Taints} (the DaemonSet controller uses the same). Pure.
 */
final class NodeMatch {
    private NodeMatch() {
    }

    /** spec.nodeSelector AND required node affinity (its terms ORed). */
    static boolean requiredNodeAffinity(PodInfo pod, NodeState.Offer node) {
        return NodeSelectors.admits(pod.nodeSelector, pod.requiredNodeAffinity, node.labels(), node.name());
    }

    /** A NodeSelector: any term matches. No terms matches no node. */
    static boolean matches(NodeSelector selector, NodeState.Offer node) {
        return NodeSelectors.matches(selector, node.labels(), node.name());
    }

    /** A term: every expression and field requirement holds. An empty term matches nothing. */
    static boolean matches(NodeSelectorTerm term, NodeState.Offer node) {
        return NodeSelectors.matches(term, node.labels(), node.name());
    }

    /** The first NoSchedule or NoExecute taint the pod does not tolerate, or null. */
    static Taint untoleratedHardTaint(List<Toleration> tolerations, List<Taint> taints) {
        return Taints.firstUntolerated(tolerations, taints, false);
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }
}
