package io.eventplane.nodesim;

import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.model.Pod;
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

/**
 * POD-6.11: the kubelet mounts a pod's claim volumes before its sandbox; what keeps it waiting and how it says so. The
 * status while waiting is VolumeMountsTest's.
 */
class ClaimMountsTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");

    private static Pod pod(String... claims) {
        var b = KubeObjects.pod("web").uid("uid-web").onNode("node-1").pending();
        for (int i = 0; i < claims.length; i++) {
            b.claimVolume("v" + i, claims[i]);
        }
        return b.build();
    }

    private static Optional<ClaimMounts.Unready> unready(Pod pod, SpecificRecord... objects) {
        return ClaimMounts.unready(pod, ObjectStore.of(List.of(objects)));
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
        Optional<ClaimMounts.Unready> u = unready(pod("data"), objects.toArray(SpecificRecord[]::new));
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
        ClaimMounts.Unready u = unready(pod, persistentVolumeClaim("a-claim").phase("Pending").build()).orElseThrow();
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
        assertEquals(0, ClaimMounts.reportsDue(T0, T0.plusSeconds(122)));
        assertEquals(1, ClaimMounts.reportsDue(T0, T0.plusSeconds(123)));
        assertEquals(2, ClaimMounts.reportsDue(T0, T0.plus(Duration.ofSeconds(250))));
        assertEquals(T0.plusSeconds(123), ClaimMounts.nextReportAt(T0, 0));
        assertEquals(T0.plusSeconds(246), ClaimMounts.nextReportAt(T0, 1));
    }
}
