package io.eventplane.scheduler;

import io.eventplane.core.meta.Taints;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.util.List;
import java.util.Map;

/** Node selection rules: nodeSelector, node affinity terms (all operators, matchFields) and tolerations. Pure. */
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
        if (selector.getNodeSelectorTerms() == null) {
            return false;
        }
        for (NodeSelectorTerm term : selector.getNodeSelectorTerms()) {
            if (matches(term, node)) {
                return true;
            }
        }
        return false;
    }

    /** A term: every expression and field requirement holds. An empty term matches nothing. */
    static boolean matches(NodeSelectorTerm term, NodeState.Offer node) {
        List<NodeSelectorRequirement> exprs = term.getMatchExpressions() == null ? List.of() : term.getMatchExpressions();
        List<NodeSelectorRequirement> fields = term.getMatchFields() == null ? List.of() : term.getMatchFields();
        if (exprs.isEmpty() && fields.isEmpty()) {
            return false;
        }
        for (NodeSelectorRequirement r : exprs) {
            if (!matches(r, node.labels())) {
                return false;
            }
        }
        for (NodeSelectorRequirement r : fields) {
            // The only supported field is metadata.name, with In or NotIn.
            if (!"metadata.name".equals(r.getKey())) {
                return false;
            }
            if (!matches(r, Map.of("metadata.name", node.name()))) {
                return false;
            }
        }
        return true;
    }

    static boolean matches(NodeSelectorRequirement r, Map<String, String> labels) {
        String value = labels.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        return switch (r.getOperator() == null ? "" : r.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> value != null;
            case "DoesNotExist" -> value == null;
            case "Gt" -> value != null && values.size() == 1 && compare(value, values.get(0)) > 0;
            case "Lt" -> value != null && values.size() == 1 && compare(value, values.get(0)) < 0;
            default -> false;
        };
    }

    /** Gt/Lt compare integers; a label or value that is not an integer never matches (0 stands for "no answer"). */
    private static int compare(String label, String value) {
        try {
            return Long.compare(Long.parseLong(label), Long.parseLong(value));
        } catch (NumberFormatException e) {
            return 0;
        }
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
