package io.eventplane.core.meta;

import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;

/**
 * core/v1 NodeSelector semantics (component-helpers' MatchNodeSelectorTerms): terms ORed, a term's expressions and
 * fields ANDed, every operator; the only field is {@code metadata.name}. Used by the scheduler (node affinity) and
 * for a PersistentVolume's node affinity. Pure.
 */
public final class NodeSelectors {
    private NodeSelectors() {
    }

    /** Any term matches the node. No terms match no node. */
    public static boolean matches(NodeSelector selector, Map<String, String> labels, String nodeName) {
        if (selector == null || selector.getNodeSelectorTerms() == null) {
            return false;
        }
        for (NodeSelectorTerm term : selector.getNodeSelectorTerms()) {
            if (matches(term, labels, nodeName)) {
                return true;
            }
        }
        return false;
    }

    /** Every expression and field requirement holds. An empty term matches nothing. */
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
            if (!"metadata.name".equals(r.getKey()) || !matches(r, nodeName == null ? Map.of() : Map.of("metadata.name", nodeName))) {
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
