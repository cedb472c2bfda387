package io.eventplane.core.decide;

import io.eventplane.core.codec.Quantity;
import io.eventplane.log.StatusCause;
import io.eventplane.model.CrossVersionObjectReference;
import io.eventplane.model.HPAScalingPolicy;
import io.eventplane.model.HPAScalingRules;
import io.eventplane.model.HorizontalPodAutoscaler;
import io.eventplane.model.HorizontalPodAutoscalerBehavior;
import io.eventplane.model.HorizontalPodAutoscalerSpec;
import io.eventplane.model.MetricSpec;
import io.eventplane.model.MetricTarget;
import io.eventplane.model.ResourceMetricSource;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * autoscaling/v2 HorizontalPodAutoscaler: Kubernetes' defaulting (minReplicas 1, CPU at 80% when no metric is given,
 * a given behavior completed with the default scaling rules) and the main checks of ValidateHorizontalPodAutoscaler
 * (a scale target, 1 &le; minReplicas &le; maxReplicas, well-formed Resource metrics and scaling policies).
 */
public final class HorizontalPodAutoscalerRules implements KindRules<HorizontalPodAutoscaler> {
    public static final int DEFAULT_CPU_UTILIZATION = 80;
    static final List<String> METRIC_TYPES = List.of("ContainerResource", "External", "Object", "Pods", "Resource");
    static final List<String> TARGET_TYPES = List.of("AverageValue", "Utilization", "Value");
    static final List<String> SELECT_POLICIES = List.of("Disabled", "Max", "Min");
    public static final int MAX_PERIOD_SECONDS = 1800;
    static final int MAX_STABILIZATION_SECONDS = 3600;

    /** The scale-up rules a behavior gets when it names none (no stabilization; +4 pods or +100% per 15 s). */
    public static HPAScalingRules defaultScaleUp() {
        return new HPAScalingRules(0, "Max", List.of(new HPAScalingPolicy("Pods", 4, 15),
                new HPAScalingPolicy("Percent", 100, 15)), null);
    }

    /** The scale-down rules a behavior gets (-100% per 15 s); the window stays unset: the controller's 300 s. */
    public static HPAScalingRules defaultScaleDown() {
        return new HPAScalingRules(null, "Max", List.of(new HPAScalingPolicy("Percent", 100, 15)), null);
    }

    @Override
    public HorizontalPodAutoscaler defaults(HorizontalPodAutoscaler hpa) {
        HorizontalPodAutoscalerSpec spec = hpa.getSpec() == null ? new HorizontalPodAutoscalerSpec()
                : HorizontalPodAutoscalerSpec.newBuilder(hpa.getSpec()).build();
        if (spec.getMinReplicas() == null) {
            spec.setMinReplicas(1);
        }
        if (spec.getMetrics() == null || spec.getMetrics().isEmpty()) {
            spec.setMetrics(List.of(MetricSpec.newBuilder().setType("Resource").setResource(new ResourceMetricSource(
                    "cpu", MetricTarget.newBuilder().setType("Utilization")
                    .setAverageUtilization(DEFAULT_CPU_UTILIZATION).build())).build()));
        }
        if (spec.getBehavior() != null) {
            spec.setBehavior(new HorizontalPodAutoscalerBehavior(
                    complete(spec.getBehavior().getScaleUp(), defaultScaleUp()),
                    complete(spec.getBehavior().getScaleDown(), defaultScaleDown())));
        }
        return HorizontalPodAutoscaler.newBuilder(hpa).setSpec(spec).build();
    }

    /** The given rule's fields over the defaults' (copyHPAScalingRules). */
    public static HPAScalingRules complete(HPAScalingRules given, HPAScalingRules defaults) {
        if (given == null) {
            return defaults;
        }
        HPAScalingRules out = HPAScalingRules.newBuilder(defaults).build();
        if (given.getSelectPolicy() != null) {
            out.setSelectPolicy(given.getSelectPolicy());
        }
        if (given.getStabilizationWindowSeconds() != null) {
            out.setStabilizationWindowSeconds(given.getStabilizationWindowSeconds());
        }
        if (given.getPolicies() != null) {
            out.setPolicies(given.getPolicies());
        }
        if (given.getTolerance() != null) {
            out.setTolerance(given.getTolerance());
        }
        return out;
    }

    @Override
    public HorizontalPodAutoscaler prepareForCreate(HorizontalPodAutoscaler hpa, Instant now) {
        return HorizontalPodAutoscaler.newBuilder(hpa).setStatus(null).build();
    }

    @Override
    public List<StatusCause> validate(HorizontalPodAutoscaler hpa) {
        List<StatusCause> causes = new ArrayList<>();
        HorizontalPodAutoscalerSpec spec = hpa.getSpec() == null ? new HorizontalPodAutoscalerSpec() : hpa.getSpec();
        reference("spec.scaleTargetRef", spec.getScaleTargetRef(), causes);
        int min = spec.getMinReplicas() == null ? 1 : spec.getMinReplicas();
        int max = spec.getMaxReplicas() == null ? 0 : spec.getMaxReplicas();
        if (min < 1) {
            causes.add(Causes.invalid("spec.minReplicas", min, "must be greater than or equal to 1"));
        }
        if (max < 1) {
            causes.add(Causes.invalid("spec.maxReplicas", max, "must be greater than 0"));
        }
        if (spec.getMinReplicas() != null && max < min) {
            causes.add(Causes.invalid("spec.maxReplicas", max, "must be greater than or equal to `minReplicas`"));
        }
        List<MetricSpec> metrics = spec.getMetrics() == null ? List.of() : spec.getMetrics();
        for (int i = 0; i < metrics.size(); i++) {
            metric("spec.metrics[" + i + "]", metrics.get(i), causes);
        }
        if (spec.getBehavior() != null) {
            rules("spec.behavior.scaleUp", spec.getBehavior().getScaleUp(), causes);
            rules("spec.behavior.scaleDown", spec.getBehavior().getScaleDown(), causes);
        }
        return causes;
    }

    private static void reference(String f, CrossVersionObjectReference ref, List<StatusCause> causes) {
        if (ref == null || ref.getKind() == null || ref.getKind().isEmpty()) {
            causes.add(Causes.required(f + ".kind"));
        }
        if (ref == null || ref.getName() == null || ref.getName().isEmpty()) {
            causes.add(Causes.required(f + ".name"));
        }
    }

    private static void metric(String f, MetricSpec m, List<StatusCause> causes) {
        String type = m.getType() == null ? "" : m.getType();
        if (type.isEmpty()) {
            causes.add(Causes.required(f + ".type", "must specify a metric source type"));
            return;
        }
        if (!METRIC_TYPES.contains(type)) {
            causes.add(Causes.notSupported(f + ".type", type, METRIC_TYPES));
            return;
        }
        if (type.equals("Resource")) {
            ResourceMetricSource r = m.getResource();
            if (r == null) {
                causes.add(Causes.required(f + ".resource", "must populate information for the given metric source"));
                return;
            }
            if (r.getName() == null || r.getName().isEmpty()) {
                causes.add(Causes.required(f + ".resource.name", "must specify a resource name"));
            }
            target(f + ".resource.target", r.getTarget(), false, causes);
        }
    }

    private static void target(String f, MetricTarget t, boolean valueAllowed, List<StatusCause> causes) {
        String type = t == null || t.getType() == null ? "" : t.getType();
        if (type.isEmpty()) {
            causes.add(Causes.required(f + ".type", "must specify a metric target type"));
            return;
        }
        if (!TARGET_TYPES.contains(type)) {
            causes.add(Causes.notSupported(f + ".type", type, TARGET_TYPES));
            return;
        }
        if (type.equals("Utilization") && (t.getAverageUtilization() == null || t.getAverageUtilization() <= 0)) {
            causes.add(t.getAverageUtilization() == null
                    ? Causes.required(f + ".averageUtilization", "must set either a target raw value or a target utilization")
                    : Causes.invalid(f + ".averageUtilization", t.getAverageUtilization(), "must be greater than 0"));
        }
        if (type.equals("AverageValue")) {
            quantity(f + ".averageValue", t.getAverageValue(), causes);
        }
        if (type.equals("Value") && !valueAllowed) {
            causes.add(Causes.notSupported(f + ".type", type, List.of("AverageValue", "Utilization")));
        }
    }

    private static void quantity(String f, String q, List<StatusCause> causes) {
        if (q == null) {
            causes.add(Causes.required(f, "must set either a target raw value or a target utilization"));
        } else if (!Quantity.isValid(q) || Quantity.parse(q).amount().signum() <= 0) {
            causes.add(Causes.invalid(f, q, "must be positive"));
        }
    }

    private static void rules(String f, HPAScalingRules r, List<StatusCause> causes) {
        if (r == null) {
            return;
        }
        Integer window = r.getStabilizationWindowSeconds();
        if (window != null && (window < 0 || window > MAX_STABILIZATION_SECONDS)) {
            causes.add(Causes.invalid(f + ".stabilizationWindowSeconds", window, window < 0
                    ? "must be greater than or equal to zero" : "must be less than or equal to " + MAX_STABILIZATION_SECONDS));
        }
        if (r.getSelectPolicy() != null && !SELECT_POLICIES.contains(r.getSelectPolicy())) {
            causes.add(Causes.notSupported(f + ".selectPolicy", r.getSelectPolicy(), SELECT_POLICIES));
        }
        List<HPAScalingPolicy> policies = r.getPolicies() == null ? List.of() : r.getPolicies();
        if (policies.isEmpty() && !"Disabled".equals(r.getSelectPolicy())) {
            causes.add(Causes.required(f + ".policies", "must specify at least one Policy"));
        }
        for (int i = 0; i < policies.size(); i++) {
            HPAScalingPolicy p = policies.get(i);
            String pf = f + ".policies[" + i + "]";
            if (!"Pods".equals(p.getType()) && !"Percent".equals(p.getType())) {
                causes.add(Causes.notSupported(pf + ".type", p.getType(), List.of("Percent", "Pods")));
            }
            if (p.getValue() == null || p.getValue() <= 0) {
                causes.add(Causes.invalid(pf + ".value", p.getValue(), "must be greater than zero"));
            }
            Integer period = p.getPeriodSeconds();
            if (period == null || period <= 0 || period > MAX_PERIOD_SECONDS) {
                causes.add(Causes.invalid(pf + ".periodSeconds", period, period == null || period <= 0
                        ? "must be greater than zero" : "must be less than or equal to " + MAX_PERIOD_SECONDS));
            }
        }
    }
}
