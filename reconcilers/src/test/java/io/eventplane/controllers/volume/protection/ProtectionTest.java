package io.eventplane.controllers.volume.protection;

import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static io.eventplane.testkit.objects.KubeObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.controllers.volume.Steps;
import io.eventplane.controllers.volume.StorageState;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** The pvc-protection and pv-protection decisions. */
class ProtectionTest {
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    @ParameterizedTest(name = "claim deleting={0} finalizer={1} used by {2}: {3}")
    @CsvSource(delimiter = '|', value = {
            "false | false | nobody         | update PersistentVolumeClaim data",
            "false | true  | nobody         | ''",
            "true  | true  | nobody         | update PersistentVolumeClaim data",
            "true  | true  | a scheduled pod | ''",
            "true  | true  | a finished pod  | ''",
            "true  | true  | a pending pod   | update PersistentVolumeClaim data",
            "true  | false | a scheduled pod | ''",
    })
    @DisplayName("a claim always carries kubernetes.io/pvc-protection; a deleted one loses it once no scheduled pod names it")
    void claims(boolean deleting, boolean finalizer, String usedBy, String expected) {
        var b = persistentVolumeClaim("data");
        if (finalizer) {
            b.finalizers(PersistentVolumes.PVC_PROTECTION);
        }
        if (deleting) {
            b.deletedAt(NOW);
        }
        PersistentVolumeClaim claim = b.build();
        List<SpecificRecord> state = switch (usedBy) {
            case "a scheduled pod" -> List.of(pod("web").claimVolume("www", "data").onNode("node-1").running().build());
            case "a finished pod" -> List.of(pod("job").claimVolume("www", "data").onNode("node-1").phase("Succeeded")
                    .build());
            case "a pending pod" -> List.of(pod("web").claimVolume("www", "data").build());
            default -> List.of(pod("other").onNode("node-1").build());
        };
        assertEquals(expected.isEmpty() ? List.of() : List.of(expected),
                Steps.of(ClaimProtection.decide(claim, StorageState.of(state))));
    }

    @Test
    @DisplayName("the finalizer is added to a new claim and removed from a deleted one")
    void claimFinalizer() {
        PersistentVolumeClaim added = Steps.written(ClaimProtection.decide(persistentVolumeClaim("data").build(),
                StorageState.of(List.of())), PersistentVolumeClaim.class);
        assertEquals(List.of(PersistentVolumes.PVC_PROTECTION), added.getMetadata().getFinalizers());
        PersistentVolumeClaim removed = Steps.written(ClaimProtection.decide(persistentVolumeClaim("data").deletedAt(NOW)
                .finalizers(PersistentVolumes.PVC_PROTECTION).build(), StorageState.of(List.of())),
                PersistentVolumeClaim.class);
        assertNull(removed.getMetadata().getFinalizers());
    }

    @ParameterizedTest(name = "volume deleting={0} finalizer={1} phase {2}: {3}")
    @CsvSource(delimiter = '|', value = {
            "false | false | Available | update PersistentVolume pv-1",
            "false | true  | Bound     | ''",
            "true  | true  | Bound     | ''",
            "true  | true  | Released  | update PersistentVolume pv-1",
            "true  | true  | Available | update PersistentVolume pv-1",
    })
    @DisplayName("a volume always carries kubernetes.io/pv-protection; a deleted one loses it once it is not Bound")
    void volumes(boolean deleting, boolean finalizer, String phase, String expected) {
        var b = persistentVolume("pv-1").phase(phase);
        if (finalizer) {
            b.finalizers(PersistentVolumes.PV_PROTECTION);
        }
        if (deleting) {
            b.deletedAt(NOW);
        }
        PersistentVolume volume = b.build();
        assertEquals(expected.isEmpty() ? List.of() : List.of(expected), Steps.of(VolumeProtection.decide(volume)));
    }
}
