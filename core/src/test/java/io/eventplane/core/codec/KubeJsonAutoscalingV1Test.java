package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.AutoscalingV1;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.HorizontalPodAutoscaler;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** autoscaling/v1 HorizontalPodAutoscaler served over the stored autoscaling/v2 object, as kube-apiserver converts it. */
class KubeJsonAutoscalingV1Test {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final KubeJson JSON = KubeJson.get();
    private static final String SEED = """
            apiVersion: autoscaling/v1
            kind: HorizontalPodAutoscaler
            metadata:
              name: frontend-scaler
            spec:
              scaleTargetRef:
                kind: ReplicaSet
                name: frontend
              minReplicas: 3
              maxReplicas: 10
              targetCPUUtilizationPercentage: 50
            """;

    private static HorizontalPodAutoscaler parse(String yaml) {
        return (HorizontalPodAutoscaler) JSON.parseObject(yaml.getBytes(StandardCharsets.UTF_8), Kinds.AUTOSCALING_V1_HPA,
                FieldValidation.STRICT, new ArrayList<>());
    }

    private static HorizontalPodAutoscaler v2(String json) throws Exception {
        return JSON.decode(MAPPER.readTree(json), HorizontalPodAutoscaler.class, FieldValidation.STRICT).value();
    }

    @Test
    @DisplayName("RS-19: the seed's v1 HPA is stored as a v2 Resource cpu Utilization metric and reads back as it was written")
    void seedRoundTrips() throws Exception {
        HorizontalPodAutoscaler stored = parse(SEED);
        JsonNode v2 = JSON.encode(stored);
        assertEquals(MAPPER.readTree("""
                [{"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":50}}}]"""),
                v2.get("spec").get("metrics"));
        assertEquals("ReplicaSet", v2.at("/spec/scaleTargetRef/kind").asText());

        ObjectNode v1 = JSON.encodeObject(Kinds.AUTOSCALING_V1_HPA, stored);
        assertEquals("autoscaling/v1", v1.get("apiVersion").asText());
        assertEquals(50, v1.at("/spec/targetCPUUtilizationPercentage").asInt());
        assertEquals(3, v1.at("/spec/minReplicas").asInt());
        assertTrue(v1.at("/metadata/annotations").isMissingNode(), v1.toString());
        assertEquals(0, v1.at("/status/currentReplicas").asInt());
    }

    @Test
    @DisplayName("a v1 HPA without a CPU target gets Kubernetes' implicit 80%")
    void implicitCpuTarget() {
        HorizontalPodAutoscaler stored = parse(SEED.replace("  targetCPUUtilizationPercentage: 50\n", ""));
        assertEquals(80, stored.getSpec().getMetrics().get(0).getResource().getTarget().getAverageUtilization());
    }

    @Test
    @DisplayName("v1 errors name v1's fields: an unknown v2 field is unknown in v1")
    void servedErrors() {
        DecodeException e = assertThrows(DecodeException.class, () -> parse(SEED + "  metrics: []\n"));
        assertTrue(e.getMessage().contains("spec.metrics"), e.getMessage());
    }

    @Test
    @DisplayName("v1 shows what it has no field for in the autoscaling.alpha annotations, and writing them back restores it")
    void annotationsCarryTheRest() throws Exception {
        HorizontalPodAutoscaler stored = v2("""
                {"metadata":{"name":"web","namespace":"default","annotations":{"team":"a"}},
                 "spec":{"scaleTargetRef":{"apiVersion":"apps/v1","kind":"Deployment","name":"web"},"minReplicas":1,"maxReplicas":5,
                  "metrics":[{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"100Mi"}}},
                             {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}}],
                  "behavior":{"scaleDown":{"stabilizationWindowSeconds":30,"selectPolicy":"Max",
                    "policies":[{"type":"Percent","value":100,"periodSeconds":15}]}}},
                 "status":{"currentReplicas":2,"desiredReplicas":2,
                  "currentMetrics":[{"type":"Resource","resource":{"name":"cpu","current":{"averageValue":"120m","averageUtilization":40}}}],
                  "conditions":[{"type":"AbleToScale","status":"True","lastTransitionTime":"2025-01-02T03:04:05Z","reason":"ReadyForNewScale"}]}}""");
        ObjectNode v1 = JSON.encodeObject(Kinds.AUTOSCALING_V1_HPA, stored);
        assertEquals(60, v1.at("/spec/targetCPUUtilizationPercentage").asInt());
        assertEquals(40, v1.at("/status/currentCPUUtilizationPercentage").asInt());
        JsonNode annotations = v1.at("/metadata/annotations");
        assertEquals("a", annotations.get("team").asText());
        assertEquals(MAPPER.readTree("""
                [{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]"""),
                MAPPER.readTree(annotations.get(AutoscalingV1.METRICS).asText()));
        assertEquals(MAPPER.readTree("""
                [{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":40,"currentAverageValue":"120m"}}]"""),
                MAPPER.readTree(annotations.get(AutoscalingV1.CURRENT_METRICS).asText()));
        assertTrue(annotations.get(AutoscalingV1.CONDITIONS).asText().contains("\"ReadyForNewScale\""));
        assertEquals(MAPPER.readTree("""
                {"ScaleUp":null,"ScaleDown":{"StabilizationWindowSeconds":30,"SelectPolicy":"Max",
                 "Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}"""),
                MAPPER.readTree(annotations.get(AutoscalingV1.BEHAVIOR).asText()));

        HorizontalPodAutoscaler back = (HorizontalPodAutoscaler) JSON.decode(v1, Kinds.AUTOSCALING_V1_HPA, FieldValidation.STRICT).value();
        assertEquals(JSON.encode(stored), JSON.encode(back));
    }

    @Test
    @DisplayName("the stored object never keeps round-trip annotations; malformed ones are ignored")
    void roundTripAnnotationsDropped() {
        HorizontalPodAutoscaler stored = parse(SEED.replace("  name: frontend-scaler\n", """
                  name: frontend-scaler
                  annotations:
                    autoscaling.alpha.kubernetes.io/metrics: not json
                    autoscaling.alpha.kubernetes.io/conditions: "[]"
                """));
        assertNull(stored.getMetadata().getAnnotations());
        List<?> metrics = stored.getSpec().getMetrics();
        assertEquals(1, metrics.size());
        assertFalse(JSON.encodeObject(Kinds.AUTOSCALING_V1_HPA, stored).at("/metadata").has("annotations"));
    }
}
