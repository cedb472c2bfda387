package io.eventplane.controllers.volume.provisioner;

import static io.eventplane.testkit.objects.KubeObjects.node;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static io.eventplane.testkit.objects.KubeObjects.storageClass;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.volume.Steps;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.StorageClass;
import io.eventplane.testkit.objects.PersistentVolumeClaimBuilder;
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

/** The simulated provisioner's decisions, as a table; and what a provisioned volume looks like. */
class ProvisioningTest {
    static final String SIM = SimulatedProvisioner.NAME;
    static final StorageClass STANDARD = storageClass("standard", SIM).waitForFirstConsumer().isDefault()
            .reclaimPolicy("Delete").build();
    static final StorageClass FAST = storageClass("fast", SIM).immediate().reclaimPolicy("Retain").build();

    /** The claim default/data of 5Gi, handed over to this provisioner. */
    static PersistentVolumeClaimBuilder handedOver(String storageClass) {
        return persistentVolumeClaim("data").uid("1234").resourceVersion("7").storage("5Gi").storageClass(storageClass)
                .annotations(PersistentVolumes.STORAGE_PROVISIONER, SIM, PersistentVolumes.BETA_STORAGE_PROVISIONER, SIM);
    }

    record Row(String name, PersistentVolumeClaim claim, List<SpecificRecord> state, List<String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> table() {
        String provisioning = "Normal Provisioning: External provisioner is provisioning volume for claim \"default/data\"";
        List<Row> rows = List.of(
                new Row("an Immediate claim handed over gets its volume at once", handedOver("fast").build(),
                        List.of(FAST), List.of("create PersistentVolume pvc-1234", provisioning)),
                new Row("a WaitForFirstConsumer claim gets it on its selected node", handedOver("standard")
                        .annotations(PersistentVolumes.SELECTED_NODE, "node-1").build(),
                        List.of(STANDARD, node("node-1").build()), List.of("create PersistentVolume pvc-1234", provisioning)),
                new Row("... not before a node is selected", handedOver("standard").build(), List.of(STANDARD), List.of()),
                new Row("... and a selected node that is gone goes back to the scheduler", handedOver("standard")
                        .annotations(PersistentVolumes.SELECTED_NODE, "node-9").build(), List.of(STANDARD),
                        List.of("update PersistentVolumeClaim data", "Warning ProvisioningFailed: node \"node-9\" not found")),
                new Row("a claim not handed over is not its business", persistentVolumeClaim("data").uid("1234")
                        .storageClass("fast").build(), List.of(FAST), List.of()),
                new Row("a claim of another provisioner's class is not either", handedOver("other").build(),
                        List.of(storageClass("other", "example.com/disk").build()), List.of()),
                new Row("a claim whose volume exists waits for the binder", handedOver("fast").build(),
                        List.of(FAST, persistentVolume("pvc-1234").build()), List.of()),
                new Row("a claim bound already needs nothing", handedOver("fast").volumeName("pv-1").build(),
                        List.of(FAST), List.of()));
        return rows.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    @DisplayName("provision")
    void decides(Row row) {
        List<SpecificRecord> state = new ArrayList<>(row.state());
        state.add(row.claim());
        assertEquals(row.expected(), Steps.of(Provisioning.provision(row.claim(), StorageState.of(state), SIM)));
    }

    @Test
    @DisplayName("STS-05: the provisioned volume: pvc-<uid>, the requested size, the claim's modes, the class's reclaim "
            + "policy, bound to the claim, a hostPath, pinned to the selected node's hostname; ProvisioningSucceeded once "
            + "created")
    void provisionedVolume() {
        PersistentVolumeClaim claim = handedOver("standard").annotations(PersistentVolumes.SELECTED_NODE, "node-1").build();
        var r = Provisioning.provision(claim, StorageState.of(List.of(claim, STANDARD,
                node("node-1").labels(PersistentVolumes.HOSTNAME_LABEL, "host-1").build())), SIM);
        PersistentVolume pv = Steps.written(r, PersistentVolume.class);
        assertEquals("pvc-1234", pv.getMetadata().getName());
        assertEquals(Map.of(PersistentVolumes.PROVISIONED_BY, SIM), pv.getMetadata().getAnnotations());
        assertEquals(Map.of("storage", "5Gi"), pv.getSpec().getCapacity());
        assertEquals(List.of("ReadWriteOnce"), pv.getSpec().getAccessModes());
        assertEquals("Delete", pv.getSpec().getPersistentVolumeReclaimPolicy());
        assertEquals("standard", pv.getSpec().getStorageClassName());
        assertEquals("1234", pv.getSpec().getClaimRef().getUid());
        assertEquals("/var/lib/eventplane/volumes/pvc-1234_default_data", pv.getSpec().getHostPath().getPath());
        assertTrue(PersistentVolumes.nodeAffinityAllows(pv, Map.of(PersistentVolumes.HOSTNAME_LABEL, "host-1"), "node-1"));
        assertTrue(!PersistentVolumes.nodeAffinityAllows(pv, Map.of(PersistentVolumes.HOSTNAME_LABEL, "host-2"), "node-2"));
        var created = (io.eventplane.reconcile.Action.Create) r.actions().get(0);
        assertEquals("ProvisioningSucceeded", created.onAccepted().reason());
        assertEquals("Successfully provisioned volume pvc-1234", created.onAccepted().message());

        PersistentVolumeClaim immediate = handedOver("fast").build();
        PersistentVolume anywhere = Steps.written(Provisioning.provision(immediate,
                StorageState.of(List.of(immediate, FAST)), SIM), PersistentVolume.class);
        assertNull(anywhere.getSpec().getNodeAffinity());
        assertEquals("Retain", anywhere.getSpec().getPersistentVolumeReclaimPolicy());
    }

    @Test
    @DisplayName("a Released volume it provisioned with reclaim policy Delete is deleted; others stay")
    void reclaim() {
        PersistentVolume released = persistentVolume("pvc-1").uid("u").phase("Released").reclaimPolicy("Delete")
                .annotations(PersistentVolumes.PROVISIONED_BY, SIM).build();
        assertEquals(List.of("delete PersistentVolume pvc-1"), Steps.of(Provisioning.reclaim(released, SIM)));
        PersistentVolume retained = persistentVolume("pvc-1").phase("Released").reclaimPolicy("Retain")
                .annotations(PersistentVolumes.PROVISIONED_BY, SIM).build();
        assertEquals(List.of(), Steps.of(Provisioning.reclaim(retained, SIM)));
        PersistentVolume foreign = persistentVolume("pv-1").phase("Released").reclaimPolicy("Delete").build();
        assertEquals(List.of(), Steps.of(Provisioning.reclaim(foreign, SIM)));
        PersistentVolume bound = persistentVolume("pvc-1").phase("Bound").reclaimPolicy("Delete")
                .annotations(PersistentVolumes.PROVISIONED_BY, SIM).build();
        assertEquals(List.of(), Steps.of(Provisioning.reclaim(bound, SIM)));
    }

    @Test
    @DisplayName("STS-12: the default class standard (WaitForFirstConsumer, Delete, marked default) is made when neither it "
            + "nor another default class exists")
    void defaultClass() {
        StorageClass made = Provisioning.defaultClass(StorageState.of(List.of()), "standard", SIM).orElseThrow();
        assertEquals("standard", made.getMetadata().getName());
        assertEquals(SIM, made.getProvisioner());
        assertEquals("WaitForFirstConsumer", made.getVolumeBindingMode());
        assertEquals("Delete", made.getReclaimPolicy());
        assertTrue(PersistentVolumes.isDefault(made));
        assertTrue(Provisioning.defaultClass(StorageState.of(List.of(FAST)), "standard", SIM).isPresent());
        assertTrue(Provisioning.defaultClass(StorageState.of(List.of(storageClass("mine", "x").isDefault().build())),
                "standard", SIM).isEmpty());
        assertTrue(Provisioning.defaultClass(StorageState.of(List.of(storageClass("standard", "x").build())),
                "standard", SIM).isEmpty());
    }
}
