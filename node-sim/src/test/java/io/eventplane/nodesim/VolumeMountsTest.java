package io.eventplane.nodesim;

import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Volume;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** POD-6.11: the kubelet mounts a pod's claim volumes before its sandbox; what keeps it waiting and how it says so. */
class VolumeMountsTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");

    private static Pod pod(String... claims) {
        var b = KubeObjects.pod("web").uid("uid-web").onNode("node-1").pending();
        for (int i = 0; i < claims.length; i++) {
            b.claimVolume("v" + i, claims[i]);
        }
        return b.build();
    }

    private static Optional<VolumeMounts.Unready> unready(Pod pod, SpecificRecord... objects) {
        return VolumeMounts.unready(pod, ObjectStore.of(List.of(objects)));
    }

    @ParameterizedTest(name = "a claim {0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "missing         | error processing PVC default/data: failed to fetch PVC from API server: persistentvolumeclaims \"data\" not found",
            "being deleted   | error processing PVC default/data: PVC is being deleted",
            "Pending         | error processing PVC default/data: PVC is not bound",
            "Bound, no PV    | error processing PVC default/data: failed to fetch PV pv-1 from API server: persistentvolumes \"pv-1\" not found",
            "Bound           | ''",
    })
    @DisplayName("POD-6.11 a claim volume can be mounted once its claim is Bound to a volume that exists")
    void claimStates(String state, String error) {
        List<SpecificRecord> objects = new ArrayList<>();
        switch (state) {
            case "being deleted" -> objects.add(persistentVolumeClaim("data").phase("Bound").volumeName("pv-1")
                    .deletedAt(T0).build());
            case "Pending" -> objects.add(persistentVolumeClaim("data").phase("Pending").build());
            case "Bound, no PV" -> objects.add(persistentVolumeClaim("data").phase("Bound").volumeName("pv-1").build());
            case "Bound" -> {
                objects.add(persistentVolumeClaim("data").phase("Bound").volumeName("pv-1").build());
                objects.add(persistentVolume("pv-1").build());
            }
            default -> {
            }
        }
        Optional<VolumeMounts.Unready> u = unready(pod("data"), objects.toArray(SpecificRecord[]::new));
        if (error.isEmpty()) {
            assertTrue(u.isEmpty());
        } else {
            assertEquals(List.of(error), u.orElseThrow().errors());
        }
    }

    @Test
    @DisplayName("the FailedMount message is the kubelet's; only volumes a container mounts are waited for")
    void message() {
        Pod pod = pod("b-claim", "a-claim");
        VolumeMounts.Unready u = unready(pod, persistentVolumeClaim("a-claim").phase("Pending").build()).orElseThrow();
        assertEquals("Unable to attach or mount volumes: unmounted volumes=[v0 v1], unattached volumes=[], failed to "
                + "process volumes=[v0 v1]: error processing PVC default/a-claim: PVC is not bound; error processing PVC "
                + "default/b-claim: failed to fetch PVC from API server: persistentvolumeclaims \"b-claim\" not found",
                u.message());

        List<Volume> volumes = new ArrayList<>(pod.getSpec().getVolumes());
        Pod unmounted = Pod.newBuilder(pod).setSpec(io.eventplane.model.PodSpec.newBuilder(pod.getSpec())
                .setContainers(List.of(KubeObjects.container("c").build())).setVolumes(volumes).build()).build();
        assertTrue(unready(unmounted).isEmpty(), "claims no container mounts are not waited for");
        assertTrue(unready(KubeObjects.pod("plain").build()).isEmpty());
    }

    @Test
    @DisplayName("POD-6.11 a wait is reported once per podAttachAndMountTimeout (2m3s)")
    void reports() {
        assertEquals(0, VolumeMounts.reportsDue(T0, T0.plusSeconds(122)));
        assertEquals(1, VolumeMounts.reportsDue(T0, T0.plusSeconds(123)));
        assertEquals(2, VolumeMounts.reportsDue(T0, T0.plus(Duration.ofSeconds(250))));
        assertEquals(T0.plusSeconds(123), VolumeMounts.nextReportAt(T0, 0));
        assertEquals(T0.plusSeconds(246), VolumeMounts.nextReportAt(T0, 1));
    }

    @Test
    @DisplayName("POD-6.11 waiting for volumes: admitted (hostIP, startTime), ContainerCreating, no sandbox and no pod IP; "
            + "the sandbox follows, and the containers' run starts from it")
    void mountingThenSandbox() {
        Pod mounting = PodLifecycle.mounting(PodLifecycleTest.boundPod(PodLifecycleTest.nginx()), "10.1.0.1", T0);
        PodStatus st = mounting.getStatus();
        assertEquals("Pending", st.getPhase());
        assertEquals("10.1.0.1", st.getHostIP());
        assertNull(st.getPodIP());
        assertEquals(T0, st.getStartTime());
        assertEquals("ContainerCreating", st.getContainerStatuses().get(0).getState().getWaiting().getReason());
        assertEquals("False", condition(mounting, "PodReadyToStartContainers").getStatus());
        assertTrue(PodLifecycle.isMounting(mounting));
        assertFalse(PodLifecycle.hasSandbox(mounting));
        assertEquals(Optional.of(T0), PodLifecycle.sandboxReadyAt(mounting));

        Instant later = T0.plusSeconds(30);
        Pod sandbox = PodLifecycle.creating(mounting, new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1.7"), later);
        assertEquals(T0, sandbox.getStatus().getStartTime());
        assertEquals("10.244.1.7", sandbox.getStatus().getPodIP());
        assertEquals("True", condition(sandbox, "PodReadyToStartContainers").getStatus());
        assertFalse(PodLifecycle.isMounting(sandbox));
        assertEquals(Optional.of(later), PodLifecycle.sandboxReadyAt(sandbox));
    }

    private static PodCondition condition(Pod pod, String type) {
        return pod.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
    }
}
