package io.eventplane.controllers.statefulset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The pure parts: names and ordinals, identity, maxUnavailable, and the claims' references per retention policy. */
class StatefulPodsTest {
    private static StatefulSet set(int replicas) {
        StatefulSet s = StatefulSets.web(replicas);
        return StatefulSet.newBuilder(s).setMetadata(ObjectMeta.newBuilder(s.getMetadata()).setUid("set-uid").build())
                .build();
    }

    @ParameterizedTest(name = "{0} belongs to \"{1}\" with ordinal {2}")
    @CsvSource(nullValues = "null", value = {
            "web-0, web, 0",
            "web-12, web, 12",
            "my-web-3, my-web, 3",
            "web-1-2, web-1, 2",
            "web, null, -1",
            "web-x, null, -1",
            "web-99999999999, null, -1",
    })
    @DisplayName("STS-08 STS-09 a pod's set and ordinal come from its name <set>-<ordinal>")
    void ordinals(String pod, String parent, int ordinal) {
        assertEquals(parent, StatefulPods.parentName(pod));
        assertEquals(ordinal, StatefulPods.ordinal(pod));
    }

    @ParameterizedTest(name = "maxUnavailable {0} of {1} replicas: {2}")
    @CsvSource({"null, 5, 1", "2, 5, 2", "50%, 5, 2", "10%, 5, 1", "100%, 3, 3", "1%, 3, 1"})
    @DisplayName("STS-X04 maxUnavailable: 1 by default, a percentage rounded down, never below 1")
    void maxUnavailable(String value, int replicas, int expected) {
        Object v = value.equals("null") ? null : value.endsWith("%") ? value : (Object) Integer.valueOf(value);
        assertEquals(expected, StatefulPods.maxUnavailable(StatefulSets.rollingUpdate(set(replicas), 0, v)));
    }

    @Test
    @DisplayName("STS-09 STS-11 STS-12 STS-X01 STS-X05 a new pod: name, generateName, identity labels, hostname, "
            + "subdomain, the claim volumes first, the revision label, the set as controller, no status")
    void newPod() {
        StatefulSet s = set(3);
        Pod p = StatefulPods.newPod(s, s.getSpec().getTemplate(), 2, "web-abc");
        assertEquals("web-2", p.getMetadata().getName());
        assertEquals("web-", p.getMetadata().getGenerateName());
        assertEquals(Map.of("app", "nginx", "statefulset.kubernetes.io/pod-name", "web-2",
                "apps.kubernetes.io/pod-index", "2", "controller-revision-hash", "web-abc"), p.getMetadata().getLabels());
        assertEquals(List.of(Owners.controllerRef(Kinds.STATEFUL_SET, s.getMetadata())), p.getMetadata().getOwnerReferences());
        assertEquals("web-2", p.getSpec().getHostname());
        assertEquals("nginx", p.getSpec().getSubdomain());
        assertEquals("www-web-2", p.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
        assertNull(p.getStatus());
        assertFalse(StatefulPods.isCreated(p));
        assertTrue(StatefulPods.identityMatches(s, p));
        assertTrue(StatefulPods.storageMatches(s, p));
        PersistentVolumeClaim claim = StatefulPods.claimsFor(s, 2).get("www");
        assertEquals("www-web-2", claim.getMetadata().getName());
        assertEquals(Map.of("app", "nginx"), claim.getMetadata().getLabels());
        assertNull(claim.getStatus());
    }

    // ------------------------------------------------------------------ retention

    /** policy, ordinal in range or not, then the references the claim must carry: S (set), P (pod). */
    static Stream<Arguments> policies() {
        return Stream.of(
                Arguments.of("Retain", "Retain", true, ""),
                Arguments.of("Retain", "Retain", false, ""),
                Arguments.of("Delete", "Retain", true, "S"),
                Arguments.of("Delete", "Retain", false, "S"),
                Arguments.of("Retain", "Delete", true, ""),
                Arguments.of("Retain", "Delete", false, "P"),
                Arguments.of("Delete", "Delete", true, "S"),
                Arguments.of("Delete", "Delete", false, "P"));
    }

    @ParameterizedTest(name = "whenDeleted {0}, whenScaled {1}, in range {2}: {3}")
    @MethodSource("policies")
    @DisplayName("STS-X03 the claim's controller per retention policy, as Kubernetes sets it")
    void retentionRefs(String whenDeleted, String whenScaled, boolean inRange, String expected) {
        StatefulSet s = StatefulSets.retention(set(inRange ? 3 : 1), whenDeleted, whenScaled);
        Pod pod = Pod.newBuilder(StatefulPods.newPod(s, s.getSpec().getTemplate(), 2, "r"))
                .setMetadata(ObjectMeta.newBuilder(StatefulPods.newPod(s, s.getSpec().getTemplate(), 2, "r")
                        .getMetadata()).setUid("pod-uid").build()).build();
        PersistentVolumeClaim claim = StatefulPods.claimsFor(s, 2).get("www");
        PersistentVolumeClaim fixed = ClaimRetention.withPolicyRefs(claim, s, pod);
        List<String> refs = new ArrayList<>();
        for (OwnerReference r : fixed.getMetadata().getOwnerReferences() == null ? List.<OwnerReference>of()
                : fixed.getMetadata().getOwnerReferences()) {
            assertTrue(r.getController() && r.getBlockOwnerDeletion());
            refs.add(r.getUid().equals("set-uid") ? "S" : r.getUid().equals("pod-uid") ? "P" : "?");
        }
        assertEquals(expected, String.join("", refs));
        assertTrue(ClaimRetention.isUpToDate(fixed, s, pod));
        assertEquals(expected.isEmpty(), ClaimRetention.isUpToDate(claim, s, pod));
    }

    @Test
    @DisplayName("STS-X03 a claim whose reference names a previous pod of that name (another uid) is stale: left "
            + "alone; a claim another controller manages keeps that controller and loses ours")
    void staleAndForeignControllers() {
        StatefulSet s = StatefulSets.retention(set(1), "Delete", "Delete");
        Pod pod = Pod.newBuilder(StatefulPods.newPod(s, s.getSpec().getTemplate(), 3, "r"))
                .setMetadata(ObjectMeta.newBuilder(StatefulPods.newPod(s, s.getSpec().getTemplate(), 3, "r")
                        .getMetadata()).setUid("new-uid").build()).build();
        PersistentVolumeClaim claim = StatefulPods.claimsFor(s, 3).get("www");
        OwnerReference oldPod = OwnerReference.newBuilder(Owners.controllerRef(Kinds.POD, pod.getMetadata()))
                .setUid("old-uid").build();
        PersistentVolumeClaim stale = PersistentVolumeClaim.newBuilder(claim).setMetadata(ObjectMeta.newBuilder(
                claim.getMetadata()).setOwnerReferences(List.of(oldPod)).build()).build();
        assertTrue(ClaimRetention.hasStaleOwnerRef(stale, Kinds.POD, pod.getMetadata()));
        assertTrue(ClaimRetention.isUpToDate(stale, s, pod), "not ours to touch");

        OwnerReference foreign = OwnerReference.newBuilder().setApiVersion("v1").setKind("Other").setName("x")
                .setUid("x-uid").setController(true).build();
        PersistentVolumeClaim both = PersistentVolumeClaim.newBuilder(claim).setMetadata(ObjectMeta.newBuilder(
                claim.getMetadata()).setOwnerReferences(List.of(foreign, Owners.controllerRef(Kinds.STATEFUL_SET,
                s.getMetadata()))).build()).build();
        assertTrue(ClaimRetention.hasUnexpectedController(both, s, pod));
        assertFalse(ClaimRetention.isUpToDate(both, s, pod));
        assertEquals(List.of(foreign), ClaimRetention.withPolicyRefs(both, s, pod).getMetadata().getOwnerReferences());
    }
}
