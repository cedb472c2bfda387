package io.eventplane.core.meta;

import io.eventplane.model.LabelSelector;
import io.eventplane.model.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * metav1.LabelSelector semantics: matching a label set (matchLabels and matchExpressions ANDed, COM-04) and the
 * selector's text as Kubernetes prints it ({@code app=web,tier in (a,b),!canary}).
 */
public final class LabelSelectors {
    public static final List<String> OPERATORS = List.of("In", "NotIn", "Exists", "DoesNotExist");

    private LabelSelectors() {
    }

    /** Whether the selector has no requirement at all (it then selects everything, or nothing for workloads). */
    public static boolean isEmpty(LabelSelector selector) {
        return selector == null || (empty(selector.getMatchLabels()) && empty(selector.getMatchExpressions()));
    }

    /**
     * Whether {@code labels} satisfy every requirement of {@code selector}. A null selector matches nothing, an
     * empty one everything (metav1.LabelSelectorAsSelector). Unknown operators match nothing.
     */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(l.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                if (!matches(r, l)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean matches(LabelSelectorRequirement r, Map<String, String> labels) {
        String value = labels.get(r.getKey());
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        String op = r.getOperator() == null ? "" : r.getOperator();
        return switch (op) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> labels.containsKey(r.getKey());
            case "DoesNotExist" -> !labels.containsKey(r.getKey());
            default -> false;
        };
    }

    /** Whether every entry of {@code selector} is in {@code labels} (an equality selector, as a ReplicationController's). */
    public static boolean matches(Map<String, String> selector, Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        return selector != null && selector.entrySet().stream().allMatch(e -> e.getValue().equals(l.get(e.getKey())));
    }

    /** The selector's text as kubectl prints it: requirements sorted by key, values sorted; empty for none. */
    public static String toString(LabelSelector selector) {
        if (selector == null) {
            return "";
        }
        List<String[]> parts = new ArrayList<>(); // {key, text}
        if (selector.getMatchLabels() != null) {
            selector.getMatchLabels().forEach((k, v) -> parts.add(new String[]{k, k + "=" + v}));
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                String k = r.getKey() == null ? "" : r.getKey();
                String values = String.join(",", new TreeSet<>(r.getValues() == null ? List.of() : r.getValues()));
                String text = switch (r.getOperator() == null ? "" : r.getOperator()) {
                    case "In" -> k + " in (" + values + ")";
                    case "NotIn" -> k + " notin (" + values + ")";
                    case "Exists" -> k;
                    case "DoesNotExist" -> "!" + k;
                    default -> k + " " + r.getOperator() + " (" + values + ")";
                };
                parts.add(new String[]{k, text});
            }
        }
        parts.sort((a, b) -> a[0].compareTo(b[0]));
        List<String> texts = new ArrayList<>();
        for (String[] p : parts) {
            texts.add(p[1]);
        }
        return String.join(",", texts);
    }

    /** An equality selector's text ({@code a=1,b=2}, sorted); empty for none. */
    public static String toString(Map<String, String> selector) {
        if (selector == null || selector.isEmpty()) {
            return "";
        }
        List<String> out = new ArrayList<>();
        new TreeMap<>(selector).forEach((k, v) -> out.add(k + "=" + v));
        return String.join(",", out);
    }

    private static boolean empty(Map<?, ?> m) {
        return m == null || m.isEmpty();
    }

    private static boolean empty(List<?> l) {
        return l == null || l.isEmpty();
    }
}
