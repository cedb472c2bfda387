package io.eventplane.controllers.podautoscaler;

import static io.eventplane.testkit.objects.KubeObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.podautoscaler.PodAutoscalerDecider.Decision;
import io.eventplane.controllers.podautoscaler.PodAutoscalerDecider.Target;
import io.eventplane.controllers.podautoscaler.ReplicaCalculator.Estimate;
import io.eventplane.controllers.podautoscaler.ReplicaCalculator.PodMetric;
import io.eventplane.controllers.podautoscaler.ScalingBehavior.History;
import io.eventplane.core.meta.Conditions;
import io.eventplane.model.CrossVersionObjectReference;
import io.eventplane.model.HPAScalingPolicy;
import io.eventplane.model.HPAScalingRules;
import io.eventplane.model.HorizontalPodAutoscaler;
import io.eventplane.model.HorizontalPodAutoscalerBehavior;
import io.eventplane.model.HorizontalPodAutoscalerCondition;
import io.eventplane.model.HorizontalPodAutoscalerSpec;
import io.eventplane.model.MetricSpec;
import io.eventplane.model.MetricTarget;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.ResourceMetricSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodAutoscalerDecisionTest {
    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    private static final MetricTarget CPU_50 = MetricTarget.newBuilder().setType("Utilization")
            .setAverageUtilization(50).build();

    /** A running pod, ready for ten minutes, requesting 100m CPU. */
    private static Pod ready(String name) {
        return pod(name).requests("100m", "64Mi").running().status(s -> s.setStartTime(NOW.minusSeconds(600)))
                .condition(PodCondition.newBuilder().setType("Ready").setStatus("True")
                        .setLastTransitionTime(NOW.minusSeconds(590)).build()).build();
    }

    private static Map<String, PodMetric> usage(long... millicores) {
        Map<String, PodMetric> m = new HashMap<>();
        for (int i = 0; i < millicores.length; i++) {
            m.put("p" + i, new PodMetric(millicores[i], NOW.minusSeconds(5), Duration.ofSeconds(15)));
        }
        return m;
    }

    private static List<Pod> pods(int n) {
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            pods.add(ready("p" + i));
        }
        return pods;
    }

    @ParameterizedTest(name = "{0} pods using {1}m each of 100m against 50%: {2} replicas")
    @CsvSource({
            "3, 50, 3",   // on target
            "3, 54, 3",   // within the 10% tolerance
            "3, 56, 4",   // just outside: ceil(3 * 56/50)
            "3, 100, 6",  // twice the target
            "4, 20, 2",   // well below
            "4, 46, 4",   // within tolerance below
    })
    @DisplayName("utilization: ceil(current * usage/target), unchanged within the 10% tolerance")
    void utilization(int pods, long each, int expected) {
        long[] values = new long[pods];
        java.util.Arrays.fill(values, each);
        Estimate e = ReplicaCalculator.resourceReplicas(pods, "cpu", CPU_50, pods(pods), usage(values), NOW);
        assertEquals(expected, e.replicas());
        assertEquals((int) each * 100 / 100, e.current().getAverageUtilization());
    }

    @Test
    @DisplayName("AverageValue: mean usage against the value; the status says the mean")
    void averageValue() {
        MetricTarget target = MetricTarget.newBuilder().setType("AverageValue").setAverageValue("100m").build();
        Estimate e = ReplicaCalculator.resourceReplicas(2, "cpu", target, pods(2), usage(150, 250), NOW);
        assertEquals(4, e.replicas());
        assertEquals("200m", e.current().getAverageValue());
    }

    @Test
    @DisplayName("missing pods: on a scale-up they count as using nothing, on a scale-down as their request")
    void missingPods() {
        // 2 measured at 100% of request, 2 missing: scale-up re-estimated with 0 for the missing (50% -> hold)
        Estimate up = ReplicaCalculator.resourceReplicas(4, "cpu", CPU_50, pods(4), usage(100, 100), NOW);
        assertEquals(4, up.replicas());
        // 2 measured at 10%, 2 missing counted at 100%: (10+10+100+100)/4 = 55% -> hold instead of scaling down
        Estimate down = ReplicaCalculator.resourceReplicas(4, "cpu", CPU_50, pods(4), usage(10, 10), NOW);
        assertEquals(4, down.replicas());
        // 3 measured at 10%, 1 missing at 100%: 32% -> ceil(0.64 * 4) = 3
        Estimate some = ReplicaCalculator.resourceReplicas(4, "cpu", CPU_50, pods(4), usage(10, 10, 10), NOW);
        assertEquals(3, some.replicas());
    }

    @Test
    @DisplayName("unready pods count as using nothing on a scale-up; a pod without a request is an error")
    void unreadyAndRequests() {
        List<Pod> pods = new ArrayList<>(pods(2));
        pods.add(pod("p2").requests("100m", "64Mi").pending().build());
        Estimate e = ReplicaCalculator.resourceReplicas(3, "cpu", CPU_50, pods, usage(100, 100), NOW);
        assertEquals(4, e.replicas()); // (100+100+0)/3 = 66% -> ceil(1.32 * 3)
        List<Pod> noRequest = List.of(pod("p0").running().build());
        Estimate bad = ReplicaCalculator.resourceReplicas(1, "cpu", CPU_50, noRequest, usage(10), NOW);
        assertFalse(bad.ok());
        assertEquals("missing request for cpu in container c of Pod p0", bad.error());
    }

    private static HorizontalPodAutoscaler hpa(int min, int max, HorizontalPodAutoscalerBehavior behavior) {
        return HorizontalPodAutoscaler.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("web").setNamespace("default").setUid("u-web")
                        .setGeneration(1L).build())
                .setSpec(HorizontalPodAutoscalerSpec.newBuilder()
                        .setScaleTargetRef(new CrossVersionObjectReference("Deployment", "web", "apps/v1"))
                        .setMinReplicas(min).setMaxReplicas(max).setBehavior(behavior)
                        .setMetrics(List.of(MetricSpec.newBuilder().setType("Resource")
                                .setResource(new ResourceMetricSource("cpu", CPU_50)).build())).build()).build();
    }

    private static Decision decide(HorizontalPodAutoscaler hpa, int replicas, long each, History history,
                                   Instant now) {
        long[] values = new long[replicas];
        java.util.Arrays.fill(values, each);
        Map<String, PodMetric> m = usage(values);
        return PodAutoscalerDecider.decide(hpa, new Target(replicas, pods(replicas)), null,
                (resource, pod) -> m.get(pod), history, now);
    }

    private static String condition(Decision d, String type) {
        HorizontalPodAutoscalerCondition c = Conditions.find(d.status().getConditions(), type).orElseThrow();
        return c.getStatus() + " " + c.getReason();
    }

    @Test
    @DisplayName("a scale-up is limited by the default policies (+4 pods or +100% per 15 s) and by max")
    void scaleUpLimits() {
        Decision d = decide(hpa(1, 20, null), 2, 500, History.EMPTY, NOW); // wants 20
        assertEquals(6, d.replicas()); // +4 pods beats +100% of 2
        assertEquals("True ScaleUpLimit", condition(d, "ScalingLimited"));
        assertEquals("cpu resource utilization (percentage of request) above target", d.reason());
        Decision capped = decide(hpa(1, 5, null), 4, 500, History.EMPTY, NOW);
        assertEquals(5, capped.replicas());
        assertEquals("True TooManyReplicas", condition(capped, "ScalingLimited"));
        assertEquals("True ValidMetricFound", condition(capped, "ScalingActive"));
        assertEquals(500, capped.status().getCurrentMetrics().get(0).getResource().getCurrent()
                .getAverageUtilization());
    }

    @Test
    @DisplayName("a scale-down waits out the stabilization window (the highest recent recommendation holds)")
    void stabilization() {
        HorizontalPodAutoscaler hpa = hpa(1, 10, null);
        Decision high = decide(hpa, 6, 50, History.EMPTY, NOW); // on target: recommends 6
        assertEquals(-1, high.replicas());
        Decision low = decide(hpa, 6, 10, high.history(), NOW.plusSeconds(60)); // wants 2, 6 was recommended 60 s ago
        assertEquals(-1, low.replicas());
        assertEquals("True ScaleDownStabilized", condition(low, "AbleToScale"));
        Decision later = decide(hpa, 6, 10, low.history(), NOW.plusSeconds(301));
        assertEquals(2, later.replicas());
        assertEquals("All metrics below target", later.reason());
        assertEquals(NOW.plusSeconds(301), later.status().getLastScaleTime());
    }

    @Test
    @DisplayName("behavior: a Pods policy counts the changes already made in its period; Disabled never scales")
    void policies() {
        HPAScalingRules onePerMinute = new HPAScalingRules(0, "Max", List.of(new HPAScalingPolicy("Pods", 1, 60)),
                null);
        HorizontalPodAutoscaler hpa = hpa(1, 10, new HorizontalPodAutoscalerBehavior(onePerMinute, null));
        Decision first = decide(hpa, 2, 100, History.EMPTY, NOW);
        assertEquals(3, first.replicas());
        Decision second = decide(hpa, 3, 100, first.history(), NOW.plusSeconds(30));
        assertEquals(-1, second.replicas()); // 1 pod already added within the minute
        assertEquals("True ScaleUpLimit", condition(second, "ScalingLimited"));
        Decision third = decide(hpa, 3, 100, second.history(), NOW.plusSeconds(61));
        assertEquals(4, third.replicas());
        HPAScalingRules disabled = new HPAScalingRules(null, "Disabled", null, null);
        Decision none = decide(hpa(1, 10, new HorizontalPodAutoscalerBehavior(null, disabled)), 6, 5,
                History.EMPTY, NOW);
        assertEquals(-1, none.replicas());
    }

    @Test
    @DisplayName("min/max bring the target back in range; a target at zero disables scaling; no target fails")
    void ranges() {
        Decision below = PodAutoscalerDecider.decide(hpa(3, 10, null), new Target(1, pods(1)), null,
                (r, p) -> null, History.EMPTY, NOW);
        assertEquals(3, below.replicas());
        assertEquals("Current number of replicas below Spec.MinReplicas", below.reason());
        Decision zero = PodAutoscalerDecider.decide(hpa(3, 10, null), new Target(0, List.of()), null,
                (r, p) -> null, History.EMPTY, NOW);
        assertEquals(-1, zero.replicas());
        assertEquals("False ScalingDisabled", condition(zero, "ScalingActive"));
        Decision missing = PodAutoscalerDecider.decide(hpa(3, 10, null), null, "Deployment \"web\" not found",
                (r, p) -> null, History.EMPTY, NOW);
        assertEquals("False FailedGetScale", condition(missing, "AbleToScale"));
        assertEquals(1, missing.events().size());
        Decision noMetrics = PodAutoscalerDecider.decide(hpa(1, 10, null), new Target(3, pods(3)), null,
                (r, p) -> null, History.EMPTY, NOW);
        assertEquals("False FailedGetResourceMetric", condition(noMetrics, "ScalingActive"));
        assertTrue(noMetrics.events().stream().anyMatch(e -> e.reason().equals("FailedComputeMetricsReplicas")));
    }
}
