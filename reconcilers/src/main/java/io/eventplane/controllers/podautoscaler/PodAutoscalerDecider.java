package io.eventplane.controllers.podautoscaler;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.controllers.podautoscaler.ReplicaCalculator.Estimate;
import io.eventplane.controllers.podautoscaler.ReplicaCalculator.PodMetric;
import io.eventplane.controllers.podautoscaler.ScalingBehavior.History;
import io.eventplane.core.meta.Conditions;
import io.eventplane.model.HorizontalPodAutoscaler;
import io.eventplane.model.HorizontalPodAutoscalerCondition;
import io.eventplane.model.HorizontalPodAutoscalerSpec;
import io.eventplane.model.HorizontalPodAutoscalerStatus;
import io.eventplane.model.MetricSpec;
import io.eventplane.model.MetricStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.ResourceMetricStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * One step of the horizontal pod autoscaler for one HPA (upstream's reconcileAutoscaler): the target's current
 * replicas; outside min/max they are brought back in range; otherwise each metric's estimate, the largest wins, and
 * the behavior (stabilization, policies) decides the new count. The result is the count to scale to, the HPA's new
 * status with its AbleToScale, ScalingActive and ScalingLimited conditions, the Events, and the updated history. Pure.
 */
final class PodAutoscalerDecider {

    /** What the HPA scales: its current replicas (spec.replicas of the scale subresource) and its pods. */
    record Target(int replicas, List<Pod> pods, BadSelector badSelector) {
        Target(int replicas, List<Pod> pods) {
            this(replicas, pods, null);
        }
    }

    /** Why the target's scale selects no pods (a custom kind's scale may lack a selector): upstream's words. */
    record BadSelector(String eventReason, String error, String conditionMessage) {
        static BadSelector missing() {
            return new BadSelector("SelectorRequired", "selector is required",
                    "the HPA target's scale is missing a selector");
        }

        static BadSelector invalid(String why) {
            String error = "couldn't convert selector into a corresponding internal selector object: " + why;
            return new BadSelector("InvalidSelector", error, error);
        }
    }

    /**
     * @param replicas  the count to scale the target to, or -1 to leave it
     * @param reason    why ({@code SuccessfulRescale}'s message), when scaling
     * @param status    the HPA's new status
     */
    record Decision(int replicas, String reason, HorizontalPodAutoscalerStatus status, List<EventNotice> events,
                    History history) {
    }

    private PodAutoscalerDecider() {
    }

    /**
     * @param target  the scale target, or null when it cannot be read
     * @param missing why the target cannot be read (when {@code target} is null)
     * @param metrics a pod's sample of a resource, by (resource, pod name); null when not measured
     */
    static Decision decide(HorizontalPodAutoscaler hpa, Target target, String missing,
                           BiFunction<String, String, PodMetric> metrics, History history, Instant now) {
        HorizontalPodAutoscalerSpec spec = hpa.getSpec();
        HorizontalPodAutoscalerStatus old = hpa.getStatus() == null ? new HorizontalPodAutoscalerStatus()
                : hpa.getStatus();
        List<HorizontalPodAutoscalerCondition> conditions = old.getConditions();
        List<EventNotice> events = new ArrayList<>();
        var ref = ObjectReferences.of(hpa);
        Long generation = hpa.getMetadata().getGeneration();
        if (target == null) {
            conditions = set(conditions, "AbleToScale", false, "FailedGetScale",
                    "the HPA controller was unable to get the target's current scale: " + missing, now);
            if (!"FailedGetScale".equals(reason(old.getConditions(), "AbleToScale"))) {
                events.add(EventNotice.warning(ref, "FailedGetScale", missing));
            }
            HorizontalPodAutoscalerStatus status = HorizontalPodAutoscalerStatus.newBuilder(old)
                    .setObservedGeneration(generation).setConditions(conditions).build();
            return new Decision(-1, null, status, events, history);
        }
        conditions = set(conditions, "AbleToScale", true, "SucceededGetScale",
                "the HPA controller was able to get the target's current scale", now);
        int current = target.replicas();
        int min = spec.getMinReplicas() == null ? 1 : spec.getMinReplicas();
        int max = spec.getMaxReplicas() == null ? min : spec.getMaxReplicas();
        List<MetricStatus> currentMetrics = old.getCurrentMetrics();
        int desired;
        String reason = null;
        History next = history;
        if (current == 0 && min != 0) {
            desired = 0;
            conditions = set(conditions, "ScalingActive", false, "ScalingDisabled",
                    "scaling is disabled since the replica count of the target is zero", now);
        } else if (current > max) {
            desired = max;
            reason = "Current number of replicas above Spec.MaxReplicas";
        } else if (current < min) {
            desired = min;
            reason = "Current number of replicas below Spec.MinReplicas";
        } else if (target.badSelector() != null) {
            BadSelector bad = target.badSelector();
            conditions = set(conditions, "ScalingActive", false, "InvalidSelector", bad.conditionMessage(), now);
            if (!"InvalidSelector".equals(reason(old.getConditions(), "ScalingActive"))) {
                events.add(EventNotice.warning(ref, bad.eventReason(), bad.error()));
                events.add(EventNotice.warning(ref, "FailedComputeMetricsReplicas", bad.error()));
            }
            HorizontalPodAutoscalerStatus status = HorizontalPodAutoscalerStatus.newBuilder(old)
                    .setObservedGeneration(generation).setCurrentReplicas(current).setCurrentMetrics(null)
                    .setConditions(conditions).build();
            return new Decision(-1, null, status, events, history);
        } else {
            Metrics m = metrics(spec.getMetrics(), current, target.pods(), metrics, now);
            if (m.replicas < 0) {
                conditions = set(conditions, "ScalingActive", false, m.errorReason,
                        "the HPA was unable to compute the replica count: " + m.error, now);
                if (!m.errorReason.equals(reason(old.getConditions(), "ScalingActive"))) {
                    events.add(EventNotice.warning(ref, m.errorReason, m.error));
                    events.add(EventNotice.warning(ref, "FailedComputeMetricsReplicas", "invalid metrics ("
                            + m.invalid + " invalid out of " + spec.getMetrics().size() + "), first error is: "
                            + m.error));
                }
                HorizontalPodAutoscalerStatus status = HorizontalPodAutoscalerStatus.newBuilder(old)
                        .setObservedGeneration(generation).setCurrentReplicas(current)
                        .setCurrentMetrics(m.statuses.isEmpty() ? null : m.statuses).setConditions(conditions).build();
                return new Decision(-1, null, status, events, history);
            }
            currentMetrics = m.statuses;
            conditions = set(conditions, "ScalingActive", true, "ValidMetricFound",
                    "the HPA was able to successfully calculate a replica count from " + m.name, now);
            ScalingBehavior.Outcome o = ScalingBehavior.apply(spec.getBehavior(), min, max, current, m.replicas,
                    history, now);
            conditions = set(conditions, "AbleToScale", true, o.stabilizedReason(), o.stabilizedMessage(), now);
            conditions = set(conditions, "ScalingLimited", o.limited(), o.limitReason(), o.limitMessage(), now);
            desired = o.replicas();
            next = o.history();
            if (desired > current) {
                reason = m.name + " above target";
            } else if (desired < current) {
                reason = "All metrics below target";
            }
        }
        boolean rescale = desired != current;
        if (rescale) {
            next = next.scaled(current, desired, now);
            conditions = set(conditions, "AbleToScale", true, "SucceededRescale",
                    "the HPA controller was able to update the target scale to " + desired, now);
        }
        HorizontalPodAutoscalerStatus status = HorizontalPodAutoscalerStatus.newBuilder(old)
                .setObservedGeneration(generation).setCurrentReplicas(current).setDesiredReplicas(desired)
                .setCurrentMetrics(currentMetrics).setConditions(conditions)
                .setLastScaleTime(rescale ? now : old.getLastScaleTime()).build();
        return new Decision(rescale ? desired : -1, reason, status, events, next);
    }

    private record Metrics(int replicas, String name, List<MetricStatus> statuses, int invalid, String error,
                           String errorReason) {
    }

    /** Every metric's estimate; the largest count wins. No scale-down while some metric cannot be read. */
    private static Metrics metrics(List<MetricSpec> specs, int current, List<Pod> pods,
                                   BiFunction<String, String, PodMetric> metrics, Instant now) {
        int replicas = -1;
        String name = "";
        int invalid = 0;
        String error = null;
        String errorReason = null;
        List<MetricStatus> statuses = new ArrayList<>();
        for (MetricSpec spec : specs == null ? List.<MetricSpec>of() : specs) {
            if (!"Resource".equals(spec.getType()) || spec.getResource() == null) {
                invalid++;
                if (error == null) {
                    error = "the HPA controller has no " + spec.getType() + " metrics to read (only Resource metrics "
                            + "are simulated)";
                    errorReason = "FailedGet" + spec.getType() + "Metric";
                }
                continue;
            }
            String resource = spec.getResource().getName();
            boolean utilization = "Utilization".equals(spec.getResource().getTarget().getType());
            Map<String, PodMetric> samples = new java.util.HashMap<>();
            for (Pod pod : pods) {
                PodMetric m = metrics.apply(resource, pod.getMetadata().getName());
                if (m != null) {
                    samples.put(pod.getMetadata().getName(), m);
                }
            }
            Estimate e = ReplicaCalculator.resourceReplicas(current, resource, spec.getResource().getTarget(), pods,
                    samples, now);
            if (!e.ok()) {
                invalid++;
                if (error == null) {
                    error = "failed to get " + resource + (utilization ? " utilization: " : " usage: ") + e.error();
                    errorReason = "FailedGetResourceMetric";
                }
                continue;
            }
            statuses.add(MetricStatus.newBuilder().setType("Resource")
                    .setResource(new ResourceMetricStatus(resource, e.current())).build());
            if (e.replicas() > replicas) {
                replicas = e.replicas();
                name = resource + " resource" + (utilization ? " utilization (percentage of request)" : "");
            }
        }
        int total = specs == null ? 0 : specs.size();
        if (invalid >= total || (invalid > 0 && replicas < current)) {
            return new Metrics(-1, name, statuses, invalid, error, errorReason);
        }
        return new Metrics(replicas, name, statuses, invalid, null, null);
    }

    private static List<HorizontalPodAutoscalerCondition> set(List<HorizontalPodAutoscalerCondition> conditions,
                                                              String type, boolean status, String reason,
                                                              String message, Instant now) {
        return Conditions.set(conditions, new HorizontalPodAutoscalerCondition(type, status ? "True" : "False", now,
                reason, message));
    }

    private static String reason(List<HorizontalPodAutoscalerCondition> conditions, String type) {
        return Conditions.find(conditions == null ? List.of() : conditions, type)
                .map(HorizontalPodAutoscalerCondition::getReason).orElse(null);
    }

    /** Whether two statuses say the same (condition times aside): a write that would change nothing is skipped. */
    static boolean same(HorizontalPodAutoscalerStatus a, HorizontalPodAutoscalerStatus b) {
        if (a == null || b == null) {
            return a == b;
        }
        return Objects.equals(a.getObservedGeneration(), b.getObservedGeneration())
                && Objects.equals(a.getLastScaleTime(), b.getLastScaleTime())
                && Objects.equals(a.getCurrentReplicas(), b.getCurrentReplicas())
                && Objects.equals(a.getDesiredReplicas(), b.getDesiredReplicas())
                && Objects.equals(a.getCurrentMetrics(), b.getCurrentMetrics())
                && Conditions.sameIgnoringTimes(a.getConditions(), b.getConditions());
    }
}
