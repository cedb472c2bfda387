package io.eventplane.controllers.podautoscaler;

import static io.eventplane.testkit.objects.KubeObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.client.ObjectStore;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.usage.ResourceUsage;
import io.eventplane.core.Keys;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Conditions;
import io.eventplane.model.CrossVersionObjectReference;
import io.eventplane.model.HorizontalPodAutoscaler;
import io.eventplane.model.HorizontalPodAutoscalerCondition;
import io.eventplane.model.HorizontalPodAutoscalerSpec;
import io.eventplane.model.MetricSpec;
import io.eventplane.model.MetricTarget;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.ResourceMetricSource;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.usage.ContainerUsage;
import io.eventplane.usage.NodeUsage;
import io.eventplane.usage.PodUsage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The HPA scaling a custom object through its definition's scale subresource (issue 26 item 3). */
class PodAutoscalerCustomTargetTest {
    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final String CRD = """
            {"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
             "metadata":{"name":"webapps.hpa.example.com","resourceVersion":"7"},
             "spec":{"group":"hpa.example.com","scope":"Namespaced",
              "names":{"plural":"webapps","singular":"webapp","kind":"WebApp"},
              "versions":[{"name":"v1","served":true,"storage":true,
               "schema":{"openAPIV3Schema":{"type":"object","x-kubernetes-preserve-unknown-fields":true}},
               "subresources":{"status":{},"scale":{"specReplicasPath":".spec.size",
                "statusReplicasPath":".status.size","labelSelectorPath":".status.selector"}}}]},
             "status":{"conditions":[{"type":"Established","status":"True"}]}}""";

    @BeforeAll
    static void define() {
        CustomKinds.define((CustomResourceDefinition) KubeJson.get().parseObject(CRD.getBytes(StandardCharsets.UTF_8),
                Kinds.CUSTOM_RESOURCE_DEFINITION, FieldValidation.STRICT, null));
    }

    @AfterAll
    static void forget() {
        CustomKinds.forget("webapps.hpa.example.com", Long.MAX_VALUE);
    }

    private static CustomObject webapp(String status) {
        return CustomObject.newBuilder().setApiVersion("hpa.example.com/v1").setKind("WebApp")
                .setMetadata(ObjectMeta.newBuilder().setName("shop").setNamespace("default").setUid("u-shop")
                        .setResourceVersion("5").build())
                .setContent("{\"spec\":{\"size\":2,\"image\":\"nginx\"}}").setStatus(status).build();
    }

    private static HorizontalPodAutoscaler hpa() {
        MetricTarget cpu50 = MetricTarget.newBuilder().setType("Utilization").setAverageUtilization(50).build();
        return HorizontalPodAutoscaler.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("shop").setNamespace("default").setUid("u-hpa")
                        .setGeneration(1L).build())
                .setSpec(HorizontalPodAutoscalerSpec.newBuilder()
                        .setScaleTargetRef(new CrossVersionObjectReference("WebApp", "shop", "hpa.example.com/v1"))
                        .setMinReplicas(1).setMaxReplicas(10)
                        .setMetrics(List.of(MetricSpec.newBuilder().setType("Resource")
                                .setResource(new ResourceMetricSource("cpu", cpu50)).build())).build()).build();
    }

    /** A running pod of the web app, ready for ten minutes, requesting 100m CPU. */
    private static Pod ready(String name, String app) {
        return pod(name).labels("app", app).requests("100m", "64Mi").running()
                .status(s -> s.setStartTime(NOW.minusSeconds(600)))
                .condition(PodCondition.newBuilder().setType("Ready").setStatus("True")
                        .setLastTransitionTime(NOW.minusSeconds(590)).build()).build();
    }

    /** Every pod uses 100m CPU (all of its request: twice the 50% target). */
    private static final ResourceUsage BUSY = new ResourceUsage() {
        @Override
        public Optional<NodeUsage> node(String name) {
            return Optional.empty();
        }

        @Override
        public List<NodeUsage> nodes() {
            return List.of();
        }

        @Override
        public Optional<PodSample> pod(String namespace, String name) {
            PodUsage usage = PodUsage.newBuilder().setNamespace(namespace).setName(name).setUid("u-" + name)
                    .setContainers(List.of(ContainerUsage.newBuilder().setName("c").setCpuNanocores(100_000_000)
                            .setMemoryBytes(64L << 20).build())).build();
            return Optional.of(new PodSample(usage, NOW.minusSeconds(5), Duration.ofSeconds(15), "n1"));
        }
    };

    /** The HPA's sync with two pods of the app and another pod (without requests: an error if it were measured). */
    private static Reconciliation reconcile(CustomObject target) {
        List<SpecificRecord> objects = new ArrayList<>(List.of(hpa(), target, ready("shop-a", "shop"),
                ready("shop-b", "shop"), pod("other").labels("app", "other").running().build()));
        return new PodAutoscalerReconciler(BUSY).reconcile(Keys.of("HorizontalPodAutoscaler", "default", "shop"),
                ObjectStore.of(objects), NOW, null);
    }

    private static HorizontalPodAutoscaler status(Reconciliation r) {
        return r.actions().stream().filter(a -> a instanceof Action.UpdateStatus).map(a -> (HorizontalPodAutoscaler)
                ((Action.UpdateStatus) a).object()).findFirst().orElseThrow();
    }

    private static String condition(HorizontalPodAutoscaler hpa, String type) {
        HorizontalPodAutoscalerCondition c = Conditions.find(hpa.getStatus().getConditions(), type).orElseThrow();
        return c.getStatus() + " " + c.getReason() + ": " + c.getMessage();
    }

    @Test
    @DisplayName("CRD-19 (issue 26 item 3) the HPA scales a custom object through its scale subresource: the pods "
            + "its status.selector selects at high CPU, the new replicas written at the spec replicas path")
    void scalesCustomObject() throws Exception {
        Reconciliation r = reconcile(webapp("{\"size\":2,\"selector\":\"app=shop\"}"));
        Action.Update update = r.actions().stream().filter(a -> a instanceof Action.Update)
                .map(a -> (Action.Update) a).findFirst().orElseThrow();
        CustomObject scaled = (CustomObject) update.object();
        JsonNode content = new ObjectMapper().readTree(scaled.getContent());
        assertEquals(4, content.path("spec").path("size").intValue(), "2 pods at 100% of a 50% target: 4");
        assertEquals("nginx", content.path("spec").path("image").textValue(), "the rest of the spec is kept");
        assertEquals("5", scaled.getMetadata().getResourceVersion(), "preconditioned on what was read");
        EventNotice rescaled = update.onAccepted();
        assertEquals("SuccessfulRescale", rescaled.reason());
        assertEquals("New size: 4; reason: cpu resource utilization (percentage of request) above target",
                rescaled.message());
        HorizontalPodAutoscaler hpa = status(r);
        assertEquals(2, hpa.getStatus().getCurrentReplicas());
        assertEquals(4, hpa.getStatus().getDesiredReplicas());
        assertEquals(100, hpa.getStatus().getCurrentMetrics().get(0).getResource().getCurrent()
                .getAverageUtilization(), "only the selected pods are measured");
    }

    @Test
    @DisplayName("CRD-19 (issue 26 item 3) a custom object whose scale has no selector: ScalingActive False "
            + "InvalidSelector and SelectorRequired, as upstream; an unparsable one says why")
    void noSelector() {
        Reconciliation r = reconcile(webapp("{\"size\":2}"));
        assertTrue(r.actions().stream().noneMatch(a -> a instanceof Action.Update), "nothing scaled");
        HorizontalPodAutoscaler hpa = status(r);
        assertEquals("False InvalidSelector: the HPA target's scale is missing a selector",
                condition(hpa, "ScalingActive"));
        assertEquals("True SucceededGetScale: the HPA controller was able to get the target's current scale",
                condition(hpa, "AbleToScale"));
        assertEquals(List.of("SelectorRequired selector is required",
                        "FailedComputeMetricsReplicas selector is required"),
                r.events().stream().map(e -> e.reason() + " " + e.message()).toList());

        Reconciliation bad = reconcile(webapp("{\"size\":2,\"selector\":\"app in (shop\"}"));
        assertTrue(condition(status(bad), "ScalingActive").startsWith("False InvalidSelector: couldn't convert "
                + "selector into a corresponding internal selector object: unable to parse requirement"));
        assertEquals("InvalidSelector", bad.events().get(0).reason());
    }
}
