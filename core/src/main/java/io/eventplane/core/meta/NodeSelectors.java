package io.eventplane.core.meta;

import io.eventplane.model.Affinity;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.PodSpec;
import java.util.List;
import java.util.Map;

/**
 * Whether a pod's node selection admits a node, ignoring resources (Kubernetes' nodeaffinity.GetRequiredNodeAffinity
 * and its Match): {@code spec.nodeSelector} AND the required node affinity, whose terms are ORed; every operator, and
 * {@code matchFields} on {@code metadata.name}. The scheduler filters with it, the DaemonSet controller decides with
 * it which nodes are eligible. Pure.
 */
public final class NodeSelectors {
    /** The only field a {@code matchFields} requirement may name. */
    public static final String NODE_NAME_FIELD = "metadata.name";

    private NodeSelectors() {
    }

    /** The pod's required node affinity, or null when it has none. */
    public static NodeSelector requiredOf(PodSpec spec) {
        Affinity a = spec == null ? null : spec.getAffinity();
        return a == null || a.getNodeAffinity() == null ? null
                : a.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
    }

    /**
     * {@code nodeSelector} (null or empty: any node) AND {@code required} (null: any node).
     *
     * @param labels the node's labels (never null)
     */
    public static boolean admits(Map<String, String> nodeSelector, NodeSelector required, Map<String, String> labels,
                                 String nodeName) {
        if (nodeSelector != null) {
            for (Map.Entry<String, String> e : nodeSelector.entrySet()) {
                if (!e.getValue().equals(labels.get(e.getKey()))) {
                    return false;
                }
            }
        }
        return required == null || matches(required, labels, nodeName);
    }

    /** A NodeSelector: any term matches. No terms matches no node. */
    public static boolean matches(NodeSelector selector, Map<String, String> labels, String nodeName) {
        if (selector.getNodeSelectorTerms() == null) {
            return false;
        }
        for (NodeSelectorTerm term : selector.getNodeSelectorTerms()) {
            if (matches(term, labels, nodeName)) {
                return true;
            }
        }
        return false;
    }

    /** A term: every expression and field requirement holds. An empty term matches nothing. */
    public static boolean matches(NodeSelectorTerm term, Map<String, String> labels, String nodeName) {
        List<NodeSelectorRequirement> exprs = term.getMatchExpressions() == null ? List.of() : term.getMatchExpressions();
        List<NodeSelectorRequirement> fields = term.getMatchFields() == null ? List.of() : term.getMatchFields();
        if (exprs.isEmpty() && fields.isEmpty()) {
            return false;
        }
        for (NodeSelectorRequirement r : exprs) {
            if (!matches(r, labels)) {
                return false;
            }
        }
        for (NodeSelectorRequirement r : fields) {
            // The only supported field is metadata.name, with In or NotIn.
            if (!NODE_NAME_FIELD.equals(r.getKey())) {
                return false;
            }
            if (!matches(r, Map.of(NODE_NAME_FIELD, nodeName))) {
                return false;
            }
        }
        return true;
    }

    public static boolean matches(NodeSelectorRequirement r, Map<String, String> labels) {
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
}
