package io.eventplane.scheduler;

import io.eventplane.core.meta.NodeSelectors;
import io.eventplane.core.meta.Taints;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * Node selection rules on a node's offer: nodeSelector, node affinity terms (all operators, matchFields, through
 * {@link NodeSelectors}) and tolerations. Pure.
 */
final class NodeMatch {
    private NodeMatch() {
    }

    /** spec.nodeSelector AND required node affinity (its terms ORed). */
    static boolean requiredNodeAffinity(PodInfo pod, NodeState.Offer node) {
        if (pod.nodeSelector != null) {
            Map<String, String> labels = node.labels();
            for (Map.Entry<String, String> e : pod.nodeSelector.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        return pod.requiredNodeAffinity == null || matches(pod.requiredNodeAffinity, node);
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
        for (Taint t : taints) {
            if (("NoSchedule".equals(t.getEffect()) || "NoExecute".equals(t.getEffect())) && !Taints.tolerates(tolerations, t)) {
                return t;
            }
        }
        return null;
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }
}
