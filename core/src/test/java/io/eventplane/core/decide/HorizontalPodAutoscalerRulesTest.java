package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.model.HPAScalingRules;
import io.eventplane.model.HorizontalPodAutoscaler;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HorizontalPodAutoscalerRulesTest {
    private final Decisions decisions = new Decisions();

    @Test
    @DisplayName("an HPA without metrics follows CPU at 80%, minReplicas 1; a behavior is completed with the defaults")
    void defaults() {
        HorizontalPodAutoscaler hpa = (HorizontalPodAutoscaler) decisions.createdChange(parse(
                HorizontalPodAutoscaler.class, """
                        apiVersion: autoscaling/v2
                        kind: HorizontalPodAutoscaler
                        metadata: {name: web}
                        spec:
                          scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
                          maxReplicas: 5
                          behavior:
                            scaleDown: {stabilizationWindowSeconds: 60}
                        """)).getObject();
        assertEquals(1, hpa.getSpec().getMinReplicas());
        assertEquals("cpu", hpa.getSpec().getMetrics().get(0).getResource().getName());
        assertEquals(80, hpa.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization());
        HPAScalingRules down = hpa.getSpec().getBehavior().getScaleDown();
        assertEquals(60, down.getStabilizationWindowSeconds());
        assertEquals("Max", down.getSelectPolicy());
        assertEquals("Percent", down.getPolicies().get(0).getType());
        HPAScalingRules up = hpa.getSpec().getBehavior().getScaleUp();
        assertEquals(0, up.getStabilizationWindowSeconds());
        assertEquals(2, up.getPolicies().size());
    }

    @Test
    @DisplayName("an HPA needs a target, 1 <= minReplicas <= maxReplicas, and well-formed targets and policies")
    void validation() {
        assertEquals(List.of("spec.scaleTargetRef.kind: Required value",
                        "spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`",
                        "spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0",
                        "spec.behavior.scaleUp.policies[0].periodSeconds: Invalid value: 3600: must be less than or "
                                + "equal to 1800"),
                rejected(decisions.create(parse(HorizontalPodAutoscaler.class, """
                        apiVersion: autoscaling/v2
                        kind: HorizontalPodAutoscaler
                        metadata: {name: web}
                        spec:
                          scaleTargetRef: {name: web}
                          minReplicas: 3
                          maxReplicas: 2
                          metrics:
                          - type: Resource
                            resource: {name: cpu, target: {type: Utilization, averageUtilization: 0}}
                          behavior:
                            scaleUp:
                              policies: [{type: Pods, value: 1, periodSeconds: 3600}]
                        """))));
    }
}
