package io.eventplane.controllers.volume.persistentvolume;

import static io.eventplane.controllers.volume.persistentvolume.ClaimSyncTest.NOW;
import static io.eventplane.controllers.volume.persistentvolume.ClaimSyncTest.claim;
import static io.eventplane.controllers.volume.persistentvolume.ClaimSyncTest.volume;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.controllers.volume.Steps;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The binder's step for a volume (syncVolume), as a decision table. */
class VolumeSyncTest {
    record Row(String name, PersistentVolume volume, List<SpecificRecord> state, List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> table() {
        PersistentVolumeClaim bound = claim().storageClass("manual").phase("Bound").volumeName("pv-1")
                .annotations(PersistentVolumes.BIND_COMPLETED, "yes").build();
        PersistentVolumeClaim elsewhere = claim().storageClass("manual").phase("Bound").volumeName("pv-2")
                .annotations(PersistentVolumes.BIND_COMPLETED, "yes").build();
        String provisioned = PersistentVolumes.PROVISIONED_BY;
        List<Row> rows = List.of(
                new Row("a new volume without claim becomes Available", volume("pv-1", "1Gi").phase("Pending").build(),
                        List.of(), List.of("status PersistentVolume pv-1 Available")),
                new Row("a volume pre-bound to a claim by name stays Available until the claim is bound",
                        volume("pv-1", "1Gi").phase("Pending").claimRef("default", "data", null).build(), List.of(),
                        List.of("status PersistentVolume pv-1 Available")),
                new Row("a volume whose claim is bound to it becomes Bound", volume("pv-1", "1Gi").storageClass("manual")
                        .claimRef("default", "data", "uid-data").build(), List.of(bound),
                        List.of("status PersistentVolume pv-1 Bound")),
                new Row("a volume whose claim is not bound yet waits for the claim's step", volume("pv-1", "1Gi")
                        .claimRef("default", "data", "uid-data").build(), List.of(claim().build()), List.of()),
                new Row("a volume whose claim is gone is Released", volume("pv-1", "1Gi").phase("Bound")
                        .claimRef("default", "data", "uid-data").build(), List.of(),
                        List.of("status PersistentVolume pv-1 Released")),
                new Row("a claim of the same name with another uid is not its claim", volume("pv-1", "1Gi").phase("Bound")
                        .claimRef("default", "data", "uid-old").build(), List.of(bound),
                        List.of("status PersistentVolume pv-1 Released")),
                new Row("Released with Retain: it stays", volume("pv-1", "1Gi").phase("Released").reclaimPolicy("Retain")
                        .claimRef("default", "data", "uid-data").build(), List.of(), List.of()),
                new Row("Released with Delete, provisioned: its provisioner deletes it", volume("pv-1", "1Gi")
                        .phase("Released").reclaimPolicy("Delete").annotations(provisioned, "sim.eventplane.io/hostpath")
                        .claimRef("default", "data", "uid-data").build(), List.of(), List.of()),
                new Row("Released with Delete, made by hand: nothing can delete it, it Fails", volume("pv-1", "1Gi")
                        .phase("Released").reclaimPolicy("Delete").claimRef("default", "data", "uid-data").build(),
                        List.of(), List.of("status PersistentVolume pv-1 Failed", "Warning VolumeFailedDelete: error "
                                + "getting deleter volume plugin for volume \"pv-1\": no deletable volume plugin matched")),
                new Row("Released with Recycle: no recycler, it Fails", volume("pv-1", "1Gi").phase("Released")
                        .reclaimPolicy("Recycle").claimRef("default", "data", "uid-data").build(), List.of(),
                        List.of("status PersistentVolume pv-1 Failed",
                                "Warning VolumeFailedRecycle: No recycler plugin found for the volume!")),
                new Row("a Failed volume is left as it is", volume("pv-1", "1Gi").phase("Failed").reclaimPolicy("Delete")
                        .claimRef("default", "data", "uid-data").build(), List.of(), List.of()),
                new Row("bound by the controller to a claim that went elsewhere: unbound", volume("pv-1", "1Gi")
                        .phase("Bound").annotations(PersistentVolumes.BOUND_BY_CONTROLLER, "yes")
                        .claimRef("default", "data", "uid-data").build(), List.of(elsewhere),
                        List.of("update PersistentVolume pv-1")),
                new Row("provisioned for a claim that went elsewhere, Delete: Released to be deleted", volume("pv-1", "1Gi")
                        .phase("Bound").reclaimPolicy("Delete").annotations(provisioned, "x")
                        .claimRef("default", "data", "uid-data").build(), List.of(elsewhere),
                        List.of("status PersistentVolume pv-1 Released")));
        return rows.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    @DisplayName("syncVolume")
    void decides(Row row) {
        List<SpecificRecord> state = new ArrayList<>(row.state());
        state.add(row.volume());
        assertEquals(row.expected(), Steps.of(VolumeSync.sync(row.volume(), StorageState.of(state), NOW)));
    }

    @Test
    @DisplayName("unbinding drops a controller's claimRef and annotation; a user's pre-binding keeps the claim's name; a "
            + "phase change records its time")
    void unbinding() {
        PersistentVolumeClaim elsewhere = claim().phase("Bound").volumeName("pv-2")
                .annotations(PersistentVolumes.BIND_COMPLETED, "yes").build();
        PersistentVolume byController = volume("pv-1", "1Gi").phase("Bound")
                .annotations(PersistentVolumes.BOUND_BY_CONTROLLER, "yes").claimRef("default", "data", "uid-data").build();
        PersistentVolume v = Steps.written(VolumeSync.sync(byController, StorageState.of(List.of(elsewhere)), NOW),
                PersistentVolume.class);
        assertNull(v.getSpec().getClaimRef());
        assertNull(v.getMetadata().getAnnotations());

        PersistentVolume byUser = volume("pv-1", "1Gi").phase("Bound").claimRef("default", "data", "uid-data").build();
        PersistentVolume u = Steps.written(VolumeSync.sync(byUser, StorageState.of(List.of(elsewhere)), NOW),
                PersistentVolume.class);
        assertEquals("data", u.getSpec().getClaimRef().getName());
        assertEquals("", u.getSpec().getClaimRef().getUid());

        PersistentVolume released = Steps.written(VolumeSync.sync(byUser, StorageState.of(List.of()), NOW),
                PersistentVolume.class);
        assertEquals(NOW, released.getStatus().getLastPhaseTransitionTime());
    }
}
