package io.eventplane.controllers.resourcequota;

import static io.eventplane.testkit.objects.KubeObjects.container;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectStore;
import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.Keys;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Deployment;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodStatus;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaSpec;
import io.eventplane.model.ResourceQuotaStatus;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The resource quota controller: status.hard follows spec.hard, status.used what the namespace uses. */
class ResourceQuotaControllerTest {
    private final SimulatedCluster cluster = new SimulatedCluster();
    private final Commands kubelet = new Commands("kubelet", cluster.clock);

    private static ResourceQuota quota(Map<String, String> hard) {
        return ResourceQuota.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("q").setNamespace("shop").build())
                .setSpec(ResourceQuotaSpec.newBuilder().setHard(hard).build()).build();
    }

    private ResourceQuotaStatus status() {
        return cluster.get(ResourceQuota.class, "shop", "q").getStatus();
    }

    private static Deployment web(int replicas) {
        return KubeObjects.deployment("web").namespace("shop").replicas(replicas).selector("app", "web")
                .template(KubeObjects.template().labels("app", "web").containers(container("nginx").image("nginx")
                        .requests("100m", "64Mi").limits(Map.of("memory", "128Mi"))).build()).build();
    }

    @Test
    @DisplayName("used counts the namespace's running pods, their requests and limits, and its objects; a finished pod stops counting")
    void tracksUsage() {
        cluster.create(Namespace.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("shop").build()).build());
        assertTrue(cluster.create(quota(Map.of("pods", "3", "requests.cpu", "1", "limits.memory", "1Gi",
                "count/deployments.apps", "1", "configmaps", "2", "count/serviceaccounts", "5"))).getAccepted());
        assertTrue(cluster.create(web(2)).getAccepted());
        cluster.settle();
        assertEquals(Map.of("pods", "3", "requests.cpu", "1", "limits.memory", "1Gi", "count/deployments.apps", "1",
                "configmaps", "2", "count/serviceaccounts", "5"), status().getHard());
        assertEquals(Map.of("pods", "2", "requests.cpu", "200m", "limits.memory", "256Mi", "count/deployments.apps", "1",
                "configmaps", "0", "count/serviceaccounts", "1"), status().getUsed());

        Pod pod = cluster.listIn(Pod.class, "shop").get(0);
        assertTrue(cluster.submit(kubelet.updateStatus(Pod.newBuilder(pod).setStatus(PodStatus.newBuilder(pod.getStatus())
                .setPhase("Succeeded").build()).build())).getAccepted());
        cluster.settle();
        assertEquals(3, cluster.listIn(Pod.class, "shop").size(), "the ReplicaSet replaced the finished pod");
        assertEquals("2", status().getUsed().get("pods"), "the finished pod is not charged");
        assertEquals("200m", status().getUsed().get("requests.cpu"));

        ResourceQuota q = cluster.get(ResourceQuota.class, "shop", "q");
        assertTrue(cluster.update(ResourceQuota.newBuilder(q).setSpec(ResourceQuotaSpec.newBuilder()
                .setHard(Map.of("pods", "10")).build()).build()).getAccepted());
        cluster.step();
        assertEquals(Map.of("pods", "10"), status().getHard());
        assertEquals(Map.of("pods", "2"), status().getUsed());
    }

    private static ObjectChanged change(ChangeType type, SpecificRecord object, long rv) {
        ObjectMeta m = io.eventplane.core.meta.ObjectAccess.meta(object);
        return ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("t").setRequestId("r" + rv).setTime(Instant.EPOCH).build())
                .setType(type).setKind(io.eventplane.core.kinds.Kinds.of(object).kind())
                .setNamespace(m.getNamespace() == null ? "" : m.getNamespace()).setName(m.getName()).setUid("u")
                .setResourceVersion(rv).setObject(object).build();
    }

    @Test
    @DisplayName("a quota is looked at when its spec.hard changes or what it counts changes, not when only its status does (admission's reservations)")
    void whatWakesIt() {
        ResourceReconcilerProbe probe = new ResourceReconcilerProbe();
        ResourceQuota q = quota(Map.of("pods", "2"));
        ObjectChanged created = change(ChangeType.CREATED, q, 1);
        probe.store.apply(created);
        assertEquals(List.of("ResourceQuota/shop/q"), probe.keys(created, null));
        ObjectChanged reserved = change(ChangeType.STATUS_UPDATED, ResourceQuota.newBuilder(q).setStatus(
                ResourceQuotaStatus.newBuilder().setHard(Map.of("pods", "2")).setUsed(Map.of("pods", "1")).build()).build(), 2);
        assertEquals(List.of(), probe.keys(reserved, created));
        ObjectChanged raised = change(ChangeType.UPDATED, quota(Map.of("pods", "5")), 3);
        assertEquals(List.of("ResourceQuota/shop/q"), probe.keys(raised, reserved));

        Pod pod = KubeObjects.pod("p").namespace("shop").containers(container("c").image("nginx")).build();
        ObjectChanged podCreated = change(ChangeType.CREATED, pod, 4);
        assertEquals(List.of("ResourceQuota/shop/q"), probe.keys(podCreated, null));
        ObjectChanged podRunning = change(ChangeType.STATUS_UPDATED, Pod.newBuilder(pod)
                .setStatus(PodStatus.newBuilder().setPhase("Running").build()).build(), 5);
        assertEquals(List.of(), probe.keys(podRunning, podCreated), "a status that changes no usage");
        ObjectChanged podDone = change(ChangeType.STATUS_UPDATED, Pod.newBuilder(pod)
                .setStatus(PodStatus.newBuilder().setPhase("Failed").build()).build(), 6);
        assertEquals(List.of("ResourceQuota/shop/q"), probe.keys(podDone, podRunning));
        ObjectChanged elsewhere = change(ChangeType.CREATED, KubeObjects.pod("p").namespace("other")
                .containers(container("c").image("nginx")).build(), 7);
        assertEquals(List.of(), probe.keys(elsewhere, null));
    }

    /** The reconciler's keysFor on a store. */
    private static final class ResourceReconcilerProbe {
        final ObjectStore store = new ObjectStore();
        final ResourceQuotaReconciler reconciler = new ResourceQuotaReconciler();

        List<String> keys(ObjectChanged change, ObjectChanged previous) {
            return List.copyOf(reconciler.keysFor(change, previous, store));
        }
    }

    @Test
    @DisplayName("a status that already says it is not written again")
    void noOp() {
        cluster.create(Namespace.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("shop").build()).build());
        cluster.create(quota(Map.of("pods", "3")));
        cluster.settle();
        String rv = cluster.get(ResourceQuota.class, "shop", "q").getMetadata().getResourceVersion();
        cluster.step();
        assertEquals(rv, cluster.get(ResourceQuota.class, "shop", "q").getMetadata().getResourceVersion());
        assertEquals(Keys.of("ResourceQuota", "shop", "q"), "ResourceQuota/shop/q");
    }
}
