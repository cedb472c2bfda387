package io.eventplane.controllers.volume.persistentvolume;

import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static io.eventplane.testkit.objects.KubeObjects.pod;
import static io.eventplane.testkit.objects.KubeObjects.storageClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.controllers.volume.Steps;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.StorageClass;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.testkit.objects.PersistentVolumeBuilder;
import io.eventplane.testkit.objects.PersistentVolumeClaimBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The binder's step for a claim (syncClaim), as a decision table: the state, the claim, what it writes and records. */
class ClaimSyncTest {
    static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    static final String SIM = "sim.eventplane.io/hostpath";
    static final String WAITING = "Waiting for a volume to be created either by the external provisioner '" + SIM
            + "' or manually by the system administrator. If volume creation is delayed, please verify that the "
            + "provisioner is running and correctly registered.";

    /** The claim default/data, 1Gi ReadWriteOnce, Pending. */
    static PersistentVolumeClaimBuilder claim() {
        return persistentVolumeClaim("data").uid("uid-data").resourceVersion("5").phase("Pending");
    }

    static PersistentVolumeBuilder volume(String name, String size) {
        return persistentVolume(name).uid("uid-" + name).resourceVersion("3").capacity(size).phase("Available");
    }

    static final StorageClass STANDARD = storageClass("standard", SIM).waitForFirstConsumer().isDefault().build();
    static final StorageClass FAST = storageClass("fast", SIM).immediate().build();

    record Row(String name, PersistentVolumeClaim claim, List<SpecificRecord> state, List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> table() {
        PersistentVolumeClaim manual = claim().storageClass("manual").build();
        PersistentVolume bigManual = volume("pv-big", "10Gi").storageClass("manual").build();
        PersistentVolume smallManual = volume("pv-small", "2Gi").storageClass("manual").build();
        PersistentVolume claimedSmall = volume("pv-small", "2Gi").storageClass("manual")
                .claimRef("default", "data", "uid-data").annotations(PersistentVolumes.BOUND_BY_CONTROLLER, "yes").build();
        PersistentVolumeClaim bindingDone = claim().storageClass("manual").volumeName("pv-small")
                .annotations(PersistentVolumes.BOUND_BY_CONTROLLER, "yes", PersistentVolumes.BIND_COMPLETED, "yes").build();
        PersistentVolume boundSmall = volume("pv-small", "2Gi").storageClass("manual").phase("Bound")
                .claimRef("default", "data", "uid-data").build();
        PersistentVolumeClaim wffc = claim().storageClass("standard").build();
        PersistentVolumeClaim selected = claim().storageClass("standard")
                .annotations(PersistentVolumes.SELECTED_NODE, "node-1").build();
        List<Row> rows = List.of(
                new Row("an unbound claim takes the smallest Available volume of its class, size and access modes: the "
                        + "volume is written first", manual, List.of(bigManual, smallManual,
                        volume("pv-tiny", "500Mi").storageClass("manual").build(),
                        volume("pv-other", "2Gi").storageClass("other").build(),
                        volume("pv-rox", "2Gi").storageClass("manual").accessModes("ReadOnlyMany").build(),
                        volume("pv-taken", "1Gi").storageClass("manual").claimRef("default", "other", "uid-o").build()),
                        List.of("update PersistentVolume pv-small")),
                new Row("once the volume names the claim, the volume turns Bound and the claim gets its volumeName",
                        manual, List.of(claimedSmall), List.of("status PersistentVolume pv-small Bound",
                        "update PersistentVolumeClaim data")),
                new Row("then the claim's status: Bound", bindingDone, List.of(boundSmall),
                        List.of("status PersistentVolumeClaim data Bound")),
                new Row("a WaitForFirstConsumer claim without a pod waits for its first consumer", wffc,
                        List.of(STANDARD), List.of("Normal WaitForFirstConsumer: waiting for first consumer to be "
                                + "created before binding")),
                new Row("... with a pod not scheduled yet, it names the pod", wffc,
                        List.of(STANDARD, pod("web").claimVolume("www", "data").build(),
                                pod("done").claimVolume("www", "data").onNode("node-1").build()),
                        List.of("Normal WaitForPodScheduled: waiting for pod web to be scheduled")),
                new Row("a WaitForFirstConsumer claim with a selected node is handed to its class's provisioner", selected,
                        List.of(STANDARD), List.of("update PersistentVolumeClaim data", "Normal ExternalProvisioning: "
                                + WAITING)),
                new Row("an Immediate claim already handed over only waits for its provisioner", claim().storageClass("fast")
                        .annotations(PersistentVolumes.STORAGE_PROVISIONER, SIM, PersistentVolumes.BETA_STORAGE_PROVISIONER,
                                SIM).build(), List.of(FAST), List.of("Normal ExternalProvisioning: " + WAITING)),
                new Row("a class that does not exist cannot provision", claim().storageClass("gold").build(), List.of(),
                        List.of("Warning ProvisioningFailed: storageclass.storage.k8s.io \"gold\" not found")),
                new Row("a class without provisioner cannot provision", claim().storageClass("local").build(),
                        List.of(storageClass("local", PersistentVolumes.NO_PROVISIONER).immediate().build()),
                        List.of("Warning ProvisioningFailed: no volume plugin matched name: kubernetes.io/no-provisioner")),
                new Row("a claim asking for no class and finding no volume fails to bind", claim().storageClass("").build(),
                        List.of(STANDARD), List.of("Normal FailedBinding: no persistent volumes available for this claim "
                                + "and no storage class is set")),
                new Row("a claim without class gets the default class (retroactive assignment)", claim().build(),
                        List.of(STANDARD, FAST), List.of("update PersistentVolumeClaim data")),
                new Row("a claim pre-bound to a free volume is bound to it, the volume first",
                        claim().storageClass("manual").volumeName("pv-1").build(),
                        List.of(volume("pv-1", "1Gi").storageClass("manual").build()),
                        List.of("update PersistentVolume pv-1")),
                new Row("a claim pre-bound to a volume too small is not", claim().storageClass("manual").volumeName("pv-1")
                        .build(), List.of(volume("pv-1", "512Mi").storageClass("manual").build()),
                        List.of("Warning VolumeMismatch: Cannot bind to requested volume \"pv-1\": requested PV is too small")),
                new Row("a claim pre-bound to a volume another claim holds waits", claim().storageClass("manual")
                        .volumeName("pv-1").build(), List.of(volume("pv-1", "1Gi").storageClass("manual")
                        .claimRef("default", "other", "uid-o").build()),
                        List.of("Warning FailedBinding: volume \"pv-1\" already bound to a different claim.")),
                new Row("a claim pre-bound to a volume that does not exist waits quietly", claim().storageClass("manual")
                        .volumeName("pv-1").build(), List.of(), List.of()),
                new Row("a volume pre-bound to the claim by name is taken, also in a WaitForFirstConsumer class", wffc,
                        List.of(STANDARD, volume("pv-1", "1Gi").storageClass("standard").claimRef("default", "data", null)
                                .build()), List.of("update PersistentVolume pv-1")),
                new Row("a bound claim whose volume is gone is Lost", claim().storageClass("manual").phase("Bound")
                        .volumeName("pv-small").annotations(PersistentVolumes.BIND_COMPLETED, "yes").build(), List.of(),
                        List.of("status PersistentVolumeClaim data Lost", "Warning ClaimLost: Bound claim has lost its "
                                + "PersistentVolume. Data on the volume is lost!")),
                new Row("a bound claim whose volume another claim holds is Lost", claim().storageClass("manual")
                        .phase("Bound").volumeName("pv-small").annotations(PersistentVolumes.BIND_COMPLETED, "yes").build(),
                        List.of(volume("pv-small", "2Gi").storageClass("manual").claimRef("default", "x", "uid-x").build()),
                        List.of("status PersistentVolumeClaim data Lost", "Warning ClaimMisbound: Two claims are bound to "
                                + "the same volume, this one is bound incorrectly")),
                new Row("an unbound claim being deleted gets nothing", claim().storageClass("fast").deletedAt(NOW).build(),
                        List.of(FAST), List.of()));
        return rows.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    @DisplayName("syncClaim")
    void decides(Row row) {
        List<SpecificRecord> state = new ArrayList<>(row.state());
        state.add(row.claim());
        assertEquals(row.expected(), Steps.of(ClaimSync.sync(row.claim(), StorageState.of(state), NOW)));
    }

    @Test
    @DisplayName("binding writes the claim's uid into the volume's claimRef and marks it bound by the controller; the claim "
            + "gets bound-by-controller and bind-completed; its status the volume's capacity and access modes")
    void bindingWrites() {
        PersistentVolumeClaim manual = claim().storageClass("manual").build();
        PersistentVolume pv = Steps.written(ClaimSync.sync(manual, StorageState.of(List.of(manual,
                volume("pv-small", "2Gi").storageClass("manual").build())), NOW), PersistentVolume.class);
        assertEquals("uid-data", pv.getSpec().getClaimRef().getUid());
        assertEquals("data", pv.getSpec().getClaimRef().getName());
        assertEquals("PersistentVolumeClaim", pv.getSpec().getClaimRef().getKind());
        assertEquals("yes", pv.getMetadata().getAnnotations().get(PersistentVolumes.BOUND_BY_CONTROLLER));

        PersistentVolume claimed = volume("pv-small", "2Gi").storageClass("manual").claimRef("default", "data", "uid-data")
                .build();
        PersistentVolumeClaim next = Steps.written(ClaimSync.sync(manual, StorageState.of(List.of(manual, claimed)), NOW),
                PersistentVolumeClaim.class);
        assertEquals("pv-small", next.getSpec().getVolumeName());
        assertEquals(Map.of(PersistentVolumes.BOUND_BY_CONTROLLER, "yes", PersistentVolumes.BIND_COMPLETED, "yes"),
                next.getMetadata().getAnnotations());

        PersistentVolume bound = volume("pv-small", "2Gi").storageClass("manual").phase("Bound")
                .claimRef("default", "data", "uid-data").build();
        PersistentVolumeClaim status = Steps.written(ClaimSync.sync(next, StorageState.of(List.of(next, bound)), NOW),
                PersistentVolumeClaim.class);
        assertEquals("Bound", status.getStatus().getPhase());
        assertEquals(Map.of("storage", "2Gi"), status.getStatus().getCapacity());
        assertEquals(List.of("ReadWriteOnce"), status.getStatus().getAccessModes());
        Reconciliation done = ClaimSync.sync(status, StorageState.of(List.of(status, bound)), NOW);
        assertEquals(List.of(), Steps.of(done));
    }

    @Test
    @DisplayName("a volume pre-bound by the user is not marked bound by the controller")
    void userPreBinding() {
        PersistentVolumeClaim wffc = claim().storageClass("standard").build();
        PersistentVolume pv = Steps.written(ClaimSync.sync(wffc, StorageState.of(List.of(wffc, STANDARD,
                        volume("pv-1", "1Gi").storageClass("standard").claimRef("default", "data", null).build())), NOW),
                PersistentVolume.class);
        assertEquals("uid-data", pv.getSpec().getClaimRef().getUid());
        assertNull(pv.getMetadata().getAnnotations());
    }

    @Test
    @DisplayName("STS-12: a claim without class gets the newest default class; the handed-over claim names its provisioner")
    void defaultClassAndHandOver() {
        PersistentVolumeClaim none = claim().build();
        StorageClass older = storageClass("old", SIM).isDefault().createdAt(NOW.minusSeconds(60)).build();
        StorageClass newer = storageClass("new", SIM).isDefault().createdAt(NOW).build();
        PersistentVolumeClaim classed = Steps.written(ClaimSync.sync(none, StorageState.of(List.of(none, older, newer)),
                NOW), PersistentVolumeClaim.class);
        assertEquals("new", classed.getSpec().getStorageClassName());

        PersistentVolumeClaim immediate = claim().storageClass("fast").build();
        PersistentVolumeClaim handed = Steps.written(ClaimSync.sync(immediate, StorageState.of(List.of(immediate, FAST)),
                NOW), PersistentVolumeClaim.class);
        assertEquals(SIM, handed.getMetadata().getAnnotations().get(PersistentVolumes.STORAGE_PROVISIONER));
        assertEquals(SIM, handed.getMetadata().getAnnotations().get(PersistentVolumes.BETA_STORAGE_PROVISIONER));
    }
}
