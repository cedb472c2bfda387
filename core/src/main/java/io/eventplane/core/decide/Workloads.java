package io.eventplane.core.decide;

import io.eventplane.core.meta.IntOrPercent;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.log.StatusCause;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.LabelSelectorRequirement;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodTemplateSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the workload kinds share: pod template defaulting and validation (through {@link PodRules}), label selectors,
 * int-or-percent values and immutable fields, worded as Kubernetes' validation words them.
 */
final class Workloads {
    static final List<String> ALWAYS = List.of("Always");
    static final List<String> ON_FAILURE_OR_NEVER = List.of("OnFailure", "Never");
    private static final PodRules POD_RULES = new PodRules();

    private Workloads() {
    }

    /** A pod template with the PodSpec defaults (not the pod-level and admission ones: no priority, no enableServiceLinks). */
    static PodTemplateSpec defaults(PodTemplateSpec template) {
        if (template == null || template.getSpec() == null) {
            return template;
        }
        return PodTemplateSpec.newBuilder(template).setSpec(PodRules.specDefaults(template.getSpec())).build();
    }

    /**
     * The causes of an invalid template at {@code path} ({@code spec.template}): the pod spec rules with their paths
     * moved under the template, then the restart policies the workload allows.
     *
     * @param deadlineOwner when not null, {@code activeDeadlineSeconds} is forbidden in the template ("... in
     *                      ReplicaSet is not Supported")
     */
    static void template(String path, PodTemplateSpec template, List<String> restartPolicies, String deadlineOwner,
                         List<StatusCause> causes) {
        PodTemplateSpec t = template == null ? new PodTemplateSpec() : template;
        Pod pod = Pod.newBuilder().setMetadata(t.getMetadata()).setSpec(t.getSpec()).build();
        String prefix = path + ".";
        for (StatusCause c : POD_RULES.validate(pod)) {
            causes.add(StatusCause.newBuilder(c).setField(prefix + c.getField()).setMessage(prefix + c.getMessage()).build());
        }
        if (t.getSpec() == null) {
            return;
        }
        String restartPolicy = t.getSpec().getRestartPolicy();
        if (!restartPolicies.contains(restartPolicy == null ? "" : restartPolicy)) {
            causes.add(Causes.notSupported(path + ".spec.restartPolicy", restartPolicy == null ? "" : restartPolicy,
                    restartPolicies));
        }
        if (deadlineOwner != null && t.getSpec().getActiveDeadlineSeconds() != null) {
            causes.add(Causes.forbidden(path + ".spec.activeDeadlineSeconds",
                    "activeDeadlineSeconds in " + deadlineOwner + " is not Supported"));
        }
    }

    /**
     * A workload's selector: required, not empty, well formed, and matching the template's labels (DEP-04, RS-04,
     * STS-01, DS-03).
     *
     * @param owner the word in "empty selector is invalid for deployment"
     */
    static void selector(String path, LabelSelector selector, PodTemplateSpec template, String owner,
                         List<StatusCause> causes) {
        if (selector == null) {
            causes.add(Causes.required(path));
            return;
        }
        int before = causes.size();
        wellFormed(path, selector, causes);
        if (LabelSelectors.isEmpty(selector)) {
            causes.add(Causes.invalidShown(path, show(selector), "empty selector is invalid for " + owner));
            return;
        }
        if (causes.size() > before) {
            return; // a malformed selector matches nothing: only its own errors are reported
        }
        templateLabels(path.substring(0, path.length() - "selector".length()) + "template", selector, template, causes);
    }

    /** The template's labels must be selected by {@code selector} ({@code `selector` does not match template `labels`}). */
    static void templateLabels(String templatePath, LabelSelector selector, PodTemplateSpec template,
                               List<StatusCause> causes) {
        Map<String, String> labels = labels(template);
        if (!LabelSelectors.isEmpty(selector) && !LabelSelectors.matches(selector, labels)) {
            causes.add(Causes.invalidShown(templatePath + ".metadata.labels", goMap(labels),
                    "`selector` does not match template `labels`"));
        }
    }

    /** Operators and values of a selector's expressions (metav1 ValidateLabelSelector). */
    static void wellFormed(String path, LabelSelector selector, List<StatusCause> causes) {
        if (selector == null || selector.getMatchExpressions() == null) {
            return;
        }
        for (int i = 0; i < selector.getMatchExpressions().size(); i++) {
            LabelSelectorRequirement r = selector.getMatchExpressions().get(i);
            String f = path + ".matchExpressions[" + i + "]";
            if (r.getKey() == null || r.getKey().isEmpty()) {
                causes.add(Causes.required(f + ".key"));
            }
            operatorValues(f, r.getOperator(), r.getValues(), false, causes);
        }
    }

    /**
     * A selector requirement's operator and values, as Kubernetes checks label and node selector requirements: In and
     * NotIn need values, Exists and DoesNotExist take none, and (node selectors only: {@code numeric}) Gt and Lt take
     * exactly one.
     */
    static void operatorValues(String f, String operator, List<String> given, boolean numeric,
                               List<StatusCause> causes) {
        List<String> values = given == null ? List.of() : given;
        String op = operator == null ? "" : operator;
        switch (op) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    causes.add(Causes.required(f + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    causes.add(Causes.forbidden(f + ".values",
                            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                }
            }
            case "Gt", "Lt" -> {
                if (numeric && values.size() != 1) {
                    causes.add(Causes.required(f + ".values",
                            "must be specified single value when `operator` is 'Lt' or 'Gt'"));
                } else if (!numeric) {
                    causes.add(Causes.invalid(f + ".operator", op, "not a valid selector operator"));
                }
            }
            default -> causes.add(Causes.invalid(f + ".operator", op, "not a valid selector operator"));
        }
    }

    static Map<String, String> labels(PodTemplateSpec template) {
        return template == null || template.getMetadata() == null ? null : template.getMetadata().getLabels();
    }

    static void nonNegative(String field, Number value, List<StatusCause> causes) {
        if (value != null && value.longValue() < 0) {
            causes.add(Causes.invalid(field, value, "must be greater than or equal to 0"));
        }
    }

    /** An int-or-percent that must be non-negative ({@code ValidatePositiveIntOrPercent}), optionally at most 100%. */
    static void intOrPercent(String field, Object value, boolean atMost100Percent, List<StatusCause> causes) {
        if (value == null) {
            return;
        }
        if (value instanceof Integer i) {
            nonNegative(field, i, causes);
            return;
        }
        if (!IntOrPercent.isPercent(value)) {
            causes.add(Causes.invalid(field, value.toString(), "a valid percent string must be a numeric string "
                    + "followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"));
            return;
        }
        Integer pct = IntOrPercent.number(value);
        if (atMost100Percent && (pct == null || pct > 100)) {
            causes.add(Causes.invalid(field, value.toString(), "must not be greater than 100%"));
        }
    }

    /** The number in an int-or-percent, 0 when absent or not a number (Kubernetes' getIntOrPercentValue). */
    static int intOrPercentValue(Object value) {
        Integer n = IntOrPercent.number(value);
        return n == null ? 0 : n;
    }

    static void immutable(String field, Object old, Object updated, String shown, List<StatusCause> causes) {
        if (!Objects.equals(old, updated)) {
            causes.add(Causes.invalidShown(field, shown, "field is immutable"));
        }
    }

    static ObjectMeta meta(ObjectMeta m) {
        return m == null ? new ObjectMeta() : m;
    }

    // ------------------------------------------------------------------ Go renderings for Invalid values

    /** {@code map[string]string{"a":"1"}}, or {@code map[string]string(nil)}. */
    static String goMap(Map<String, String> m) {
        if (m == null) {
            return "map[string]string(nil)";
        }
        StringBuilder sb = new StringBuilder("map[string]string{");
        boolean first = true;
        for (Map.Entry<String, String> e : new TreeMap<>(m).entrySet()) {
            sb.append(first ? "" : ", ").append('"').append(e.getKey()).append("\":\"").append(e.getValue()).append('"');
            first = false;
        }
        return sb.append('}').toString();
    }

    /** {@code v1.LabelSelector{MatchLabels:map[string]string{...}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}. */
    static String show(LabelSelector s) {
        if (s == null) {
            return "(*v1.LabelSelector)(nil)";
        }
        StringBuilder sb = new StringBuilder("v1.LabelSelector{MatchLabels:").append(goMap(s.getMatchLabels()))
                .append(", MatchExpressions:");
        if (s.getMatchExpressions() == null) {
            sb.append("[]v1.LabelSelectorRequirement(nil)");
        } else {
            List<String> items = new ArrayList<>();
            for (LabelSelectorRequirement r : s.getMatchExpressions()) {
                List<String> values = new ArrayList<>();
                if (r.getValues() != null) {
                    r.getValues().forEach(v -> values.add('"' + v + '"'));
                }
                items.add("v1.LabelSelectorRequirement{Key:\"" + r.getKey() + "\", Operator:\"" + r.getOperator()
                        + "\", Values:" + (r.getValues() == null ? "[]string(nil)" : "[]string{" + String.join(", ", values) + "}")
                        + "}");
            }
            sb.append("[]v1.LabelSelectorRequirement{").append(String.join(", ", items)).append('}');
        }
        return sb.append('}').toString();
    }
}
