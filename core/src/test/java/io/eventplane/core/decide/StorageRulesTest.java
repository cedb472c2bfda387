package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.StorageClass;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PersistentVolumeClaim, PersistentVolume and StorageClass defaulting and validation (issue 16). */
class StorageRulesTest {
    private static final String SPEC_IMMUTABLE = "spec: Forbidden: spec is immutable after creation except "
            + "resources.requests and volumeAttributesClassName for bound claims";
    private final Decisions decisions = new Decisions();

    private static final PersistentVolumeClaim CLAIM = parse(PersistentVolumeClaim.class, """
            apiVersion: v1
            kind: PersistentVolumeClaim
            metadata: {name: data}
            spec:
              accessModes: [ReadWriteOnce]
              resources: {requests: {storage: 1Gi}}
              storageClassName: standard
            """);
    private static final PersistentVolume VOLUME = parse(PersistentVolume.class, """
            apiVersion: v1
            kind: PersistentVolume
            metadata: {name: pv1}
            spec:
              capacity: {storage: 5Gi}
              accessModes: [ReadWriteOnce]
              hostPath: {path: /data/pv1}
            """);
    private static final StorageClass CLASS = parse(StorageClass.class, """
            apiVersion: storage.k8s.io/v1
            kind: StorageClass
            metadata: {name: fast}
            provisioner: ebs.csi.aws.com
            parameters: {type: gp3}
            """);

    @Test
    @DisplayName("a claim starts Pending with volumeMode Filesystem; apiVersion and kind are never stored on it")
    void claimDefaults() {
        PersistentVolumeClaim pvc = decisions.created(PersistentVolumeClaim.newBuilder(CLAIM).setApiVersion("v1")
                .setKind("PersistentVolumeClaim").build());
        assertEquals("Pending", pvc.getStatus().getPhase());
        assertEquals("Filesystem", pvc.getSpec().getVolumeMode());
        assertEquals(null, pvc.getApiVersion());
        assertEquals(null, pvc.getKind());
    }

    static Stream<Arguments> invalidClaims() {
        return Stream.of(
                Arguments.of("no storage request", "{spec: {resources: null}}", List.of("spec.resources[storage]: Required value")),
                Arguments.of("a zero storage request", "{spec: {resources: {requests: {storage: 0}}}}",
                        List.of("spec.resources[storage]: Invalid value: \"0\": must be greater than zero")),
                Arguments.of("no access mode", "{spec: {accessModes: null}}",
                        List.of("spec.accessModes: Required value: at least 1 access mode is required")),
                Arguments.of("ReadWriteOncePod with another mode", "{spec: {accessModes: [ReadWriteOncePod, ReadOnlyMany]}}",
                        List.of("spec.accessModes: Forbidden: may not use ReadWriteOncePod with other access modes")),
                Arguments.of("an unknown access mode", "{spec: {accessModes: [ReadWriteSometimes]}}",
                        List.of("spec.accessModes: Unsupported value: \"ReadWriteSometimes\": supported values: "
                                + "\"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"")),
                Arguments.of("an unknown volumeMode", "{spec: {volumeMode: Raw}}",
                        List.of("spec.volumeMode: Unsupported value: \"Raw\": supported values: \"Block\", \"Filesystem\"")),
                Arguments.of("a data source of the core group that is not a claim",
                        "{spec: {dataSource: {kind: VolumeSnapshot, name: snap}}}",
                        List.of("spec.dataSource: Invalid value: \"VolumeSnapshot\": must be 'PersistentVolumeClaim' when "
                                + "referencing the default apiGroup")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidClaims")
    void invalidClaim(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(CLAIM, patch))));
    }

    @Test
    @DisplayName("a claim's spec is immutable; once bound its storage request may grow and its attributes class change")
    void claimUpdates() {
        ObjectChanged stored = decisions.createdChange(CLAIM);
        PersistentVolumeClaim pvc = (PersistentVolumeClaim) stored.getObject();
        assertEquals(List.of(SPEC_IMMUTABLE), rejected(decisions.update(stored,
                merge(pvc, "{spec: {resources: {requests: {storage: 2Gi}}}}"))));
        assertEquals(List.of(SPEC_IMMUTABLE), rejected(decisions.update(stored, merge(pvc, "{spec: {storageClassName: slow}}"))));
        ObjectChanged named = decisions.updatedChange(stored, merge(pvc, "{spec: {volumeName: pv1}}")); // set once
        PersistentVolumeClaim bound = merge((PersistentVolumeClaim) named.getObject(),
                "{status: {phase: Bound, capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce]}}");
        ObjectChanged boundChange = decisions.updateStatus(named, bound).change().orElseThrow();
        PersistentVolumeClaim grown = decisions.updated(boundChange, merge((PersistentVolumeClaim) boundChange.getObject(),
                "{spec: {resources: {requests: {storage: 2Gi}}, volumeAttributesClassName: gold}}"));
        assertEquals("2Gi", grown.getSpec().getResources().getRequests().get("storage"));
        assertEquals(List.of("spec.resources.requests.storage: Forbidden: field can not be less than status.capacity"),
                rejected(decisions.update(boundChange, merge((PersistentVolumeClaim) boundChange.getObject(),
                        "{spec: {resources: {requests: {storage: 512Mi}}}}"))));
        assertEquals(List.of(SPEC_IMMUTABLE, "volumeMode: Invalid value: \"Block\": field is immutable"),
                rejected(decisions.update(boundChange, merge((PersistentVolumeClaim) boundChange.getObject(),
                        "{spec: {volumeMode: Block}}"))));
    }

    @Test
    @DisplayName("a volume starts Pending, Retain, Filesystem; a hostPath's type defaults to \"\"")
    void volumeDefaults() {
        PersistentVolume pv = decisions.created(VOLUME);
        assertEquals("Pending", pv.getStatus().getPhase());
        assertEquals(Decisions.T0.truncatedTo(java.time.temporal.ChronoUnit.SECONDS), pv.getStatus().getLastPhaseTransitionTime());
        assertEquals("Retain", pv.getSpec().getPersistentVolumeReclaimPolicy());
        assertEquals("Filesystem", pv.getSpec().getVolumeMode());
        assertEquals(yaml("{path: /data/pv1, type: ''}"), json(pv.getSpec().getHostPath()));
    }

    static Stream<Arguments> invalidVolumes() {
        return Stream.of(
                Arguments.of("no capacity and no access modes", "{spec: {capacity: null, accessModes: null}}",
                        List.of("spec.accessModes: Required value", "spec.capacity: Required value",
                                "spec.capacity: Unsupported value: core.ResourceList{}: supported values: \"storage\"")),
                Arguments.of("a capacity other than storage", "{spec: {capacity: {cpu: 1}}}",
                        List.of("spec.capacity: Unsupported value: core.ResourceList{\"cpu\":\"1\", \"storage\":\"5Gi\"}: "
                                + "supported values: \"storage\"")),
                Arguments.of("no volume source", "{spec: {hostPath: null}}", List.of("spec: Required value: must specify a volume type")),
                Arguments.of("two volume sources", "{spec: {nfs: {server: nfs.example.com, path: /exports}}}",
                        List.of("spec.nfs: Forbidden: may not specify more than 1 volume type")),
                Arguments.of("a local volume without node affinity", "{spec: {hostPath: null, local: {path: /mnt/ssd}}}",
                        List.of("spec.nodeAffinity: Required value: Local volume requires node affinity")),
                Arguments.of("a csi volume without a handle", "{spec: {hostPath: null, csi: {driver: ebs.csi.aws.com}}}",
                        List.of("spec.csi.volumeHandle: Required value")),
                Arguments.of("an unknown reclaim policy", "{spec: {persistentVolumeReclaimPolicy: Keep}}",
                        List.of("spec.persistentVolumeReclaimPolicy: Unsupported value: \"Keep\": supported values: "
                                + "\"Delete\", \"Recycle\", \"Retain\"")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidVolumes")
    void invalidVolume(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(VOLUME, patch))));
    }

    @Test
    @DisplayName("a volume's source never changes; its capacity may (the resizer's)")
    void volumeUpdates() {
        ObjectChanged stored = decisions.createdChange(VOLUME);
        PersistentVolume pv = (PersistentVolume) stored.getObject();
        assertEquals(List.of("spec.persistentvolumesource: Forbidden: spec.persistentvolumesource is immutable after creation"),
                rejected(decisions.update(stored, merge(pv, "{spec: {hostPath: {path: /data/other}}}"))));
        assertEquals("10Gi", decisions.updated(stored, merge(pv, "{spec: {capacity: {storage: 10Gi}}}")).getSpec()
                .getCapacity().get("storage"));
    }

    @Test
    @DisplayName("a StorageClass reclaims with Delete and binds Immediate by default; provisioner and parameters never change")
    void storageClasses() {
        ObjectChanged stored = decisions.createdChange(CLASS);
        StorageClass sc = (StorageClass) stored.getObject();
        assertEquals("Delete", sc.getReclaimPolicy());
        assertEquals("Immediate", sc.getVolumeBindingMode());
        assertEquals(List.of("provisioner: Required value"), rejected(decisions.create(merge(CLASS,
                "{metadata: {name: other}, provisioner: null}"))));
        assertEquals(List.of("volumeBindingMode: Unsupported value: \"Later\": supported values: \"Immediate\", "
                + "\"WaitForFirstConsumer\""), rejected(decisions.create(merge(CLASS,
                "{metadata: {name: other}, volumeBindingMode: Later}"))));
        assertEquals(List.of("parameters: Forbidden: updates to parameters are forbidden.",
                        "provisioner: Forbidden: updates to provisioner are forbidden.",
                        "reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.",
                        "volumeBindingMode: Invalid value: \"WaitForFirstConsumer\": field is immutable"),
                rejected(decisions.update(stored, merge(sc, "{provisioner: pd.csi.storage.gke.io, parameters: {type: io2}, "
                        + "reclaimPolicy: Retain, volumeBindingMode: WaitForFirstConsumer}"))));
        StorageClass expandable = decisions.updated(stored, merge(sc, "{allowVolumeExpansion: true}"));
        assertTrue(expandable.getAllowVolumeExpansion());
    }
}
