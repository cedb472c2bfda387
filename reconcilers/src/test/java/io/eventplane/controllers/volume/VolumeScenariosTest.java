package io.eventplane.controllers.volume;

import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static io.eventplane.testkit.objects.KubeObjects.pod;
import static io.eventplane.testkit.objects.KubeObjects.storageClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.volume.provisioner.SimulatedProvisioner;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Volume binding and provisioning end to end in a {@link SimulatedCluster}: the binder, the protection controllers and
 * the simulated provisioner on the real writer rules, with the scheduler's volume binding in the scripted kubelet.
 */
class VolumeScenariosTest {
    private static final String SIM = SimulatedProvisioner.NAME;

    private final SimulatedCluster cluster = new SimulatedCluster();

    private PersistentVolumeClaim claim(String name) {
        return cluster.get(PersistentVolumeClaim.class, name);
    }

    private PersistentVolume volume(String name) {
        return cluster.get(PersistentVolume.class, name);
    }

    private PersistentVolume volumeOf(String claim) {
        return volume(PersistentVolumes.volumeName(claim(claim)));
    }

    @Test
    @DisplayName("STS-05: an Immediate class's claim is provisioned and bound at once: Bound with the requested capacity "
            + "and access modes, its volume pvc-<uid> Bound to it; both protected by their finalizers")
    void immediate() {
        cluster.create(storageClass("fast", SIM).immediate().build());
        cluster.create(persistentVolumeClaim("data").storageClass("fast").storage("3Gi").build());
        cluster.settle();

        PersistentVolumeClaim data = claim("data");
        assertEquals("Bound", data.getStatus().getPhase());
        assertEquals(Map.of("storage", "3Gi"), data.getStatus().getCapacity());
        assertEquals(List.of("ReadWriteOnce"), data.getStatus().getAccessModes());
        assertEquals("pvc-" + data.getMetadata().getUid(), data.getSpec().getVolumeName());
        assertEquals("yes", data.getMetadata().getAnnotations().get(PersistentVolumes.BIND_COMPLETED));
        assertEquals(List.of(PersistentVolumes.PVC_PROTECTION), data.getMetadata().getFinalizers());
        PersistentVolume pv = volumeOf("data");
        assertEquals("Bound", pv.getStatus().getPhase());
        assertEquals(data.getMetadata().getUid(), pv.getSpec().getClaimRef().getUid());
        assertEquals("Delete", pv.getSpec().getPersistentVolumeReclaimPolicy());
        assertEquals(List.of(PersistentVolumes.PV_PROTECTION), pv.getMetadata().getFinalizers());
        assertEquals(List.of("Successfully provisioned volume " + pv.getMetadata().getName()),
                cluster.eventsWithReason("ProvisioningSucceeded"));
    }

    @Test
    @DisplayName("STS-12: a claim without class gets the default class; WaitForFirstConsumer keeps it Pending until a pod "
            + "uses it; the pod's node is selected, the volume provisioned there, the claim bound, the pod bound and run")
    void waitForFirstConsumer() {
        cluster.nodes(3);
        cluster.create(storageClass("standard", SIM).waitForFirstConsumer().isDefault().build());
        cluster.create(persistentVolumeClaim("data").build());
        cluster.settle();
        assertEquals("standard", claim("data").getSpec().getStorageClassName());
        assertEquals("Pending", claim("data").getStatus().getPhase());
        assertTrue(cluster.eventsWithReason("WaitForFirstConsumer").contains(
                "waiting for first consumer to be created before binding"));

        cluster.create(pod("web").claimVolume("www", "data").build());
        cluster.settle();
        Pod web = cluster.get(Pod.class, "web");
        String node = web.getSpec().getNodeName();
        assertNotNull(node);
        assertEquals("Running", PodStates.phase(web));
        PersistentVolumeClaim data = claim("data");
        assertEquals("Bound", data.getStatus().getPhase());
        assertEquals(node, data.getMetadata().getAnnotations().get(PersistentVolumes.SELECTED_NODE));
        PersistentVolume pv = volumeOf("data");
        assertTrue(PersistentVolumes.nodeAffinityAllows(pv, Map.of(PersistentVolumes.HOSTNAME_LABEL, node), node));
        assertTrue(!PersistentVolumes.nodeAffinityAllows(pv, Map.of(PersistentVolumes.HOSTNAME_LABEL, "elsewhere"), "x"));
    }

    @Test
    @DisplayName("a second pod of a claim bound on a node goes to that node (the volume's node affinity)")
    void boundVolumePinsPods() {
        cluster.nodes(3);
        cluster.create(storageClass("standard", SIM).waitForFirstConsumer().isDefault().build());
        cluster.create(persistentVolumeClaim("data").build());
        cluster.create(pod("first").claimVolume("www", "data").build());
        cluster.settle();
        String node = cluster.get(Pod.class, "first").getSpec().getNodeName();
        for (int i = 0; i < 3; i++) {
            cluster.create(pod("more-" + i).claimVolume("www", "data").build());
        }
        cluster.settle();
        for (int i = 0; i < 3; i++) {
            assertEquals(node, cluster.get(Pod.class, "more-" + i).getSpec().getNodeName());
        }
    }

    @Test
    @DisplayName("a claim pre-bound by volumeName is bound to that volume; deleted, its Retain volume is Released and stays")
    void preBoundAndRetain() {
        cluster.create(persistentVolume("pv-1").capacity("5Gi").storageClass("manual").reclaimPolicy("Retain").build());
        cluster.create(persistentVolume("pv-2").capacity("1Gi").storageClass("manual").reclaimPolicy("Retain").build());
        cluster.create(persistentVolumeClaim("data").storageClass("manual").volumeName("pv-1").build());
        cluster.settle();
        assertEquals("Bound", claim("data").getStatus().getPhase());
        assertEquals("pv-1", claim("data").getSpec().getVolumeName());
        assertEquals(Map.of("storage", "5Gi"), claim("data").getStatus().getCapacity());
        assertEquals("Bound", volume("pv-1").getStatus().getPhase());
        assertEquals("Available", volume("pv-2").getStatus().getPhase());

        cluster.delete(Kinds.PERSISTENT_VOLUME_CLAIM, "data");
        cluster.settle();
        assertNull(claim("data"));
        assertEquals("Released", volume("pv-1").getStatus().getPhase());
        assertEquals("data", volume("pv-1").getSpec().getClaimRef().getName());
    }

    @Test
    @DisplayName("a claim takes the smallest Available volume that fits; deleting a Bound volume waits for its claim")
    void staticBindingAndVolumeProtection() {
        cluster.create(persistentVolume("big").capacity("10Gi").storageClass("manual").build());
        cluster.create(persistentVolume("small").capacity("2Gi").storageClass("manual").build());
        cluster.create(persistentVolumeClaim("data").storageClass("manual").storage("2Gi").build());
        cluster.settle();
        assertEquals("small", claim("data").getSpec().getVolumeName());

        cluster.deleteClusterScoped(Kinds.PERSISTENT_VOLUME, "small");
        cluster.settle();
        assertNotNull(volume("small").getMetadata().getDeletionTimestamp(), "a Bound volume stays while bound");
        cluster.delete(Kinds.PERSISTENT_VOLUME_CLAIM, "data");
        cluster.settle();
        assertNull(volume("small"), "released, the volume goes");
    }

    @Test
    @DisplayName("a claim in use is not removed until its pod is gone; then its Delete volume is deleted by the provisioner")
    void protectionAndReclaimDelete() {
        cluster.nodes(3);
        cluster.create(storageClass("fast", SIM).immediate().reclaimPolicy("Delete").build());
        cluster.create(persistentVolumeClaim("data").storageClass("fast").build());
        cluster.create(pod("web").claimVolume("www", "data").build());
        cluster.settle();
        String pv = claim("data").getSpec().getVolumeName();
        assertEquals("Running", PodStates.phase(cluster.get(Pod.class, "web")));

        cluster.delete(Kinds.PERSISTENT_VOLUME_CLAIM, "data");
        cluster.settle();
        assertNotNull(claim("data"), "in use: Terminating");
        assertNotNull(claim("data").getMetadata().getDeletionTimestamp());
        assertEquals("Bound", volume(pv).getStatus().getPhase());

        cluster.delete(Kinds.POD, "web");
        cluster.settle();
        assertNull(cluster.get(Pod.class, "web"));
        assertNull(claim("data"));
        assertNull(volume(pv), "reclaim policy Delete: the provisioner deleted it");
    }

    @Test
    @DisplayName("a pod whose claim does not exist, or is unbound under an Immediate class, stays Pending with the "
            + "scheduler's message; it runs once its claim is bound")
    void unschedulableWithoutClaim() {
        cluster.nodes(3);
        cluster.create(pod("web").claimVolume("www", "data").build());
        cluster.settle();
        assertNull(cluster.get(Pod.class, "web").getSpec().getNodeName());
        assertEquals("persistentvolumeclaim \"data\" not found", cluster.unschedulable.get("web"));

        cluster.create(persistentVolumeClaim("data").storageClass("slow").build()); // no such class yet
        cluster.settle();
        assertEquals("pod has unbound immediate PersistentVolumeClaims", cluster.unschedulable.get("web"));
        assertTrue(cluster.eventsWithReason("ProvisioningFailed").contains(
                "storageclass.storage.k8s.io \"slow\" not found"));

        cluster.create(storageClass("slow", SIM).immediate().build());
        cluster.settle();
        assertEquals("Bound", claim("data").getStatus().getPhase());
        assertEquals("Running", PodStates.phase(cluster.get(Pod.class, "web")));
        assertNull(cluster.unschedulable.get("web"));
    }

    @Test
    @DisplayName("a volume pinned to one node takes its WaitForFirstConsumer claim's pod there; a claim no volume can "
            + "serve and no provisioner can provision leaves its pod unschedulable")
    void pinnedStaticVolume() {
        cluster.nodes(3);
        cluster.create(storageClass("local", PersistentVolumes.NO_PROVISIONER).waitForFirstConsumer().build());
        cluster.create(persistentVolume("disk-2").storageClass("local").onNodes("node-2").build());
        cluster.create(persistentVolumeClaim("data").storageClass("local").build());
        cluster.create(pod("web").claimVolume("www", "data").build());
        cluster.settle();
        assertEquals("node-2", cluster.get(Pod.class, "web").getSpec().getNodeName());
        assertEquals("disk-2", claim("data").getSpec().getVolumeName());

        cluster.create(persistentVolumeClaim("more").storageClass("local").build());
        cluster.create(pod("other").claimVolume("www", "more").build());
        cluster.settle();
        assertEquals("0/3 nodes are available: 3 node(s) didn't find available persistent volumes to bind.",
                cluster.unschedulable.get("other"));
    }
}
