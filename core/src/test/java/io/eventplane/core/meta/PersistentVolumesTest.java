package io.eventplane.core.meta;

import static io.eventplane.testkit.objects.KubeObjects.matchLabels;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static io.eventplane.testkit.objects.KubeObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** FindMatchingVolume and the other rules the binder, the scheduler and the kubelet share. */
class PersistentVolumesTest {
    /** default/data: 2Gi ReadWriteOnce of class manual, selecting tier=gold. */
    private static final PersistentVolumeClaim CLAIM = persistentVolumeClaim("data").uid("uid-data").storage("2Gi")
            .storageClass("manual").selector(matchLabels("tier", "gold")).build();

    private static PersistentVolume gold(String name, String size) {
        return persistentVolume(name).capacity(size).storageClass("manual").labels("tier", "gold").phase("Available")
                .build();
    }

    static Stream<Arguments> candidates() {
        return Stream.of(
                Arguments.of("too small", persistentVolume("v").capacity("1Gi").storageClass("manual")
                        .labels("tier", "gold").phase("Available").build()),
                Arguments.of("another class", persistentVolume("v").capacity("5Gi").storageClass("fast")
                        .labels("tier", "gold").phase("Available").build()),
                Arguments.of("not selected", persistentVolume("v").capacity("5Gi").storageClass("manual")
                        .labels("tier", "silver").phase("Available").build()),
                Arguments.of("not Available", persistentVolume("v").capacity("5Gi").storageClass("manual")
                        .labels("tier", "gold").phase("Released").build()),
                Arguments.of("being deleted", persistentVolume("v").capacity("5Gi").storageClass("manual")
                        .labels("tier", "gold").phase("Available").deletedAt(Instant.EPOCH).build()),
                Arguments.of("Block volume mode", persistentVolume("v").capacity("5Gi").storageClass("manual")
                        .labels("tier", "gold").phase("Available").spec(s -> s.setVolumeMode("Block")).build()),
                Arguments.of("claimed by another", persistentVolume("v").capacity("5Gi").storageClass("manual")
                        .labels("tier", "gold").phase("Available").claimRef("default", "other", "uid-o").build()),
                Arguments.of("ReadOnlyMany only", persistentVolume("v").capacity("5Gi").storageClass("manual")
                        .labels("tier", "gold").phase("Available").accessModes("ReadOnlyMany").build()));
    }

    @ParameterizedTest(name = "a volume {0} does not match")
    @MethodSource("candidates")
    @DisplayName("FindMatchingVolume skips volumes that cannot serve the claim")
    void skips(String why, PersistentVolume volume) {
        assertEquals(Optional.empty(), PersistentVolumes.findMatching(CLAIM, List.of(volume), null, Set.of(), false));
    }

    @Test
    @DisplayName("the smallest that fits wins; a volume pre-bound to the claim wins over all, unless its node affinity "
            + "excludes the node considered; excluded names are skipped; without a node, delayed claims only take "
            + "pre-bound volumes")
    void chooses() {
        List<PersistentVolume> volumes = List.of(gold("big", "10Gi"), gold("fit", "2Gi"), gold("mid", "5Gi"));
        assertEquals("fit", PersistentVolumes.findMatching(CLAIM, volumes, null, Set.of(), false).orElseThrow()
                .getMetadata().getName());
        assertEquals("mid", PersistentVolumes.findMatching(CLAIM, volumes, null, Set.of("fit"), false).orElseThrow()
                .getMetadata().getName());
        assertEquals(Optional.empty(), PersistentVolumes.findMatching(CLAIM, volumes, null, Set.of(), true));

        PersistentVolume preBound = persistentVolume("mine").capacity("20Gi").storageClass("other").onNodes("node-1")
                .claimRef("default", "data", null).build();
        List<PersistentVolume> with = List.of(gold("fit", "2Gi"), preBound);
        assertEquals("mine", PersistentVolumes.findMatching(CLAIM, with, null, Set.of(), true).orElseThrow()
                .getMetadata().getName());
        PersistentVolumes.Node node2 = new PersistentVolumes.Node(Map.of(PersistentVolumes.HOSTNAME_LABEL, "node-2"),
                "node-2");
        assertEquals(Optional.empty(), PersistentVolumes.findMatching(CLAIM, with, node2, Set.of(), true));
    }

    @Test
    @DisplayName("a pod's claims in order, each once; a claim's class from the beta annotation first; bound-to and "
            + "fully bound")
    void claimsAndClasses() {
        assertEquals(List.of("a", "b"), PersistentVolumes.claimNames(pod("p").claimVolume("v1", "a")
                .claimVolume("v2", "b").claimVolume("v3", "a").build().getSpec()));
        assertEquals(List.of(), PersistentVolumes.claimNames(pod("p").build().getSpec()));
        assertEquals("beta", PersistentVolumes.claimClass(persistentVolumeClaim("c").storageClass("field")
                .annotations(PersistentVolumes.BETA_STORAGE_CLASS, "beta").build()));
        assertEquals("", PersistentVolumes.claimClass(persistentVolumeClaim("c").build()));
        PersistentVolume ref = persistentVolume("v").claimRef("default", "data", "uid-data").build();
        assertTrue(PersistentVolumes.isBoundToClaim(ref, CLAIM));
        assertTrue(!PersistentVolumes.isBoundToClaim(persistentVolume("v").claimRef("default", "data", "uid-x").build(),
                CLAIM));
        assertTrue(PersistentVolumes.boundTo(ref, CLAIM).isEmpty(), "nothing to write");
        assertTrue(!PersistentVolumes.isFullyBound(persistentVolumeClaim("c").volumeName("v").build()));
        assertTrue(PersistentVolumes.isFullyBound(persistentVolumeClaim("c").volumeName("v")
                .annotations(PersistentVolumes.BIND_COMPLETED, "yes").build()));
    }
}
