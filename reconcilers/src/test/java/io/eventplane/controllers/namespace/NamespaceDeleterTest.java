package io.eventplane.controllers.namespace;

import static io.eventplane.testkit.objects.KubeObjects.container;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceCondition;
import io.eventplane.model.NamespaceSpec;
import io.eventplane.model.NamespaceStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.reconcile.Action;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One step of the namespace controller, decided on given content (Kubernetes' namespacedResourcesDeleter). */
class NamespaceDeleterTest {
    private static final Instant DELETED_AT = Instant.parse("2026-11-21T10:00:00Z");

    private static Namespace terminating(List<String> finalizers, NamespaceStatus status) {
        return Namespace.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("shop").setUid("ns-uid").setResourceVersion("7")
                        .setDeletionTimestamp(DELETED_AT).setDeletionGracePeriodSeconds(0L).build())
                .setSpec(NamespaceSpec.newBuilder().setFinalizers(finalizers).build())
                .setStatus(status == null ? NamespaceStatus.newBuilder().setPhase("Terminating").build() : status).build();
    }

    private static Map<KindInfo, List<SpecificRecord>> content(SpecificRecord... objects) {
        Map<KindInfo, List<SpecificRecord>> out = new LinkedHashMap<>();
        for (KindInfo k : Kinds.all()) {
            if (k.namespaced()) {
                out.put(k, new ArrayList<>());
            }
        }
        for (SpecificRecord o : objects) {
            out.get(Kinds.of(o)).add(o);
        }
        return out;
    }

    private static SpecificRecord runningPod(String name) {
        return KubeObjects.pod(name).namespace("shop").uid(name + "-uid").onNode("node-1")
                .containers(container("c").image("nginx")).build();
    }

    private static ConfigMap configMap(String name, boolean deleting, String... finalizers) {
        ObjectMeta.Builder m = ObjectMeta.newBuilder().setName(name).setNamespace("shop").setUid(name + "-uid");
        if (deleting) {
            m.setDeletionTimestamp(DELETED_AT).setDeletionGracePeriodSeconds(0L);
        }
        if (finalizers.length > 0) {
            m.setFinalizers(List.of(finalizers));
        }
        return ConfigMap.newBuilder().setMetadata(m.build()).build();
    }

    private static NamespaceStatus statusOf(NamespaceDeleter.Step step) {
        return step.actions().stream().filter(a -> a instanceof Action.UpdateStatus)
                .map(a -> ((Namespace) ((Action.UpdateStatus) a).object()).getStatus()).findFirst().orElseThrow();
    }

    private static String condition(NamespaceStatus s, String type) {
        NamespaceCondition c = s.getConditions().stream().filter(x -> x.getType().equals(type)).findFirst().orElseThrow();
        return c.getStatus() + " " + c.getReason() + ": " + c.getMessage();
    }

    private static List<String> deleted(NamespaceDeleter.Step step) {
        return step.actions().stream().filter(a -> a instanceof Action.Delete).map(Action::target).toList();
    }

    @Test
    @DisplayName("every object is deleted with Background propagation; running pods remain for their grace period, as the conditions say")
    void deletesContent() {
        NamespaceDeleter.Step step = NamespaceDeleter.decide(terminating(List.of("kubernetes"), null),
                content(runningPod("web-1"), runningPod("web-2"), configMap("settings", false)),
                DELETED_AT.plusSeconds(1));
        assertEquals(List.of("Pod/shop/web-1", "Pod/shop/web-2", "ConfigMap/shop/settings"), deleted(step));
        Action.Delete d = (Action.Delete) step.actions().get(0);
        assertEquals("Background", d.propagationPolicy());
        assertEquals("web-1-uid", d.uid());
        NamespaceStatus s = statusOf(step);
        assertEquals("Terminating", s.getPhase());
        assertEquals(List.of("NamespaceDeletionDiscoveryFailure", "NamespaceDeletionGroupVersionParsingFailure",
                        "NamespaceDeletionContentFailure", "NamespaceContentRemaining", "NamespaceFinalizersRemaining"),
                s.getConditions().stream().map(NamespaceCondition::getType).toList());
        assertEquals("False ResourcesDiscovered: All resources successfully discovered",
                condition(s, "NamespaceDeletionDiscoveryFailure"));
        assertEquals("False ParsedGroupVersions: All legacy kube types successfully parsed",
                condition(s, "NamespaceDeletionGroupVersionParsingFailure"));
        assertEquals("False ContentDeleted: All content successfully deleted, may be waiting on finalization",
                condition(s, "NamespaceDeletionContentFailure"));
        assertEquals("True SomeResourcesRemain: Some resources are remaining: pods. has 2 resource instances",
                condition(s, "NamespaceContentRemaining"));
        assertEquals("False ContentHasNoFinalizers: All content-preserving finalizers finished",
                condition(s, "NamespaceFinalizersRemaining"));
        assertEquals(Duration.ofSeconds(16), step.requeueAfter(), "30 s of grace: looked at again after 30/2+1 s");
    }

    @Test
    @DisplayName("content held by finalizers is waited for and named")
    void finalizersRemain() {
        NamespaceDeleter.Step step = NamespaceDeleter.decide(terminating(List.of("kubernetes"), null),
                content(configMap("a", true, "example.com/hold"), configMap("b", false, "example.com/hold", "orphan")),
                DELETED_AT.plusSeconds(1));
        assertEquals(List.of("ConfigMap/shop/b"), deleted(step));
        NamespaceStatus s = statusOf(step);
        assertEquals("True SomeResourcesRemain: Some resources are remaining: configmaps. has 2 resource instances",
                condition(s, "NamespaceContentRemaining"));
        assertEquals("True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: "
                + "example.com/hold in 2 resource instances", condition(s, "NamespaceFinalizersRemaining"));
        assertEquals(Duration.ofSeconds(8), step.requeueAfter());
    }

    @Test
    @DisplayName("a pod that outlives its grace period without finalizers (a lost node) is a content failure")
    void stuckPod() {
        SpecificRecord stuck = KubeObjects.pod("web-1").namespace("shop").onNode("node-1").deletedAt(DELETED_AT.plusSeconds(30))
                .deletionGracePeriodSeconds(30).containers(container("c").image("nginx")).build();
        NamespaceDeleter.Step step = NamespaceDeleter.decide(terminating(List.of("kubernetes"), null), content(stuck),
                DELETED_AT.plusSeconds(40));
        assertTrue(deleted(step).isEmpty());
        NamespaceStatus s = statusOf(step);
        assertEquals("True ContentDeletionFailed: Failed to delete all resource types, 1 remaining: unexpected items "
                + "still remain in namespace: shop for gvr: /v1, Resource=pods", condition(s, "NamespaceDeletionContentFailure"));
        assertEquals("True SomeResourcesRemain: Some resources are remaining: pods. has 1 resource instances",
                condition(s, "NamespaceContentRemaining"));
        assertEquals(NamespaceDeleter.RETRY_AFTER_ERROR, step.requeueAfter());
    }

    @Test
    @DisplayName("an empty namespace whose conditions say so loses the kubernetes finalizer; other finalizers stay, sorted")
    void finalizesWhenEmpty() {
        NamespaceDeleter.Step first = NamespaceDeleter.decide(terminating(List.of("kubernetes", "b.io/x", "a.io/y"), null),
                content(), DELETED_AT.plusSeconds(1));
        NamespaceStatus s = statusOf(first);
        assertEquals("False ContentRemoved: All content successfully removed", condition(s, "NamespaceContentRemaining"));
        assertEquals(1, first.actions().size(), "the conditions first; the finalizer once they are written");

        NamespaceDeleter.Step second = NamespaceDeleter.decide(terminating(List.of("kubernetes", "b.io/x", "a.io/y"), s),
                content(), DELETED_AT.plusSeconds(2));
        assertEquals(1, second.actions().size());
        Namespace finalized = (Namespace) ((Action.Finalize) second.actions().get(0)).object();
        assertEquals(List.of("a.io/y", "b.io/x"), finalized.getSpec().getFinalizers());
        assertEquals("7", finalized.getMetadata().getResourceVersion(), "written on the version it was decided on");
        assertNull(second.requeueAfter());
    }

    @Test
    @DisplayName("a namespace not being deleted, or no longer holding the kubernetes finalizer, is left alone")
    void leftAlone() {
        Namespace live = Namespace.newBuilder(terminating(List.of("kubernetes"), null))
                .setMetadata(ObjectMeta.newBuilder().setName("shop").build()).build();
        assertTrue(NamespaceDeleter.decide(live, content(configMap("a", false)), DELETED_AT).actions().isEmpty());
        assertTrue(NamespaceDeleter.decide(terminating(List.of("example.com/x"), null), content(configMap("a", false)),
                DELETED_AT).actions().isEmpty());
    }

    @Test
    @DisplayName("custom objects are deleted like any content, and named by their resource and group in the conditions")
    void customObjects() {
        KindInfo crontab = new KindInfo("CronTab", "stable.example.com", "v1", "crontabs", "crontab", List.of(), true,
                true, CustomObject.class);
        Map<KindInfo, List<SpecificRecord>> content = content();
        content.put(crontab, List.of(crontab("held", false, "example.com/hold"), crontab("plain", false)));
        NamespaceDeleter.Step step = NamespaceDeleter.decide(terminating(List.of("kubernetes"), null), content,
                DELETED_AT.plusSeconds(1));
        assertEquals(List.of("CronTab/shop/held", "CronTab/shop/plain"), deleted(step));
        NamespaceStatus s = statusOf(step);
        assertEquals("True SomeResourcesRemain: Some resources are remaining: crontabs.stable.example.com has 1 "
                + "resource instances", condition(s, "NamespaceContentRemaining"));
        assertEquals("True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: "
                + "example.com/hold in 1 resource instances", condition(s, "NamespaceFinalizersRemaining"));
        assertEquals("False ContentDeleted: All content successfully deleted, may be waiting on finalization",
                condition(s, "NamespaceDeletionContentFailure"), "a finalizer explains what stays");

        content.put(crontab, List.of(crontab("stuck", true)));
        s = statusOf(NamespaceDeleter.decide(terminating(List.of("kubernetes"), null), content,
                DELETED_AT.plusSeconds(2)));
        assertEquals("True ContentDeletionFailed: Failed to delete all resource types, 1 remaining: unexpected items "
                + "still remain in namespace: shop for gvr: stable.example.com/v1, Resource=crontabs",
                condition(s, "NamespaceDeletionContentFailure"));
    }

    private static CustomObject crontab(String name, boolean deleting, String... finalizers) {
        ConfigMap like = configMap(name, deleting, finalizers);
        return CustomObject.newBuilder().setApiVersion("stable.example.com/v1").setKind("CronTab")
                .setMetadata(like.getMetadata()).setContent("{}").build();
    }
}
