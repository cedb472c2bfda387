package io.eventplane.controllers.statefulset;

import static io.eventplane.controllers.statefulset.StatefulSets.retention;
import static io.eventplane.controllers.statefulset.StatefulSets.web;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A StatefulSet's claims in a simulated cluster: one per template and ordinal, reuse, retention (STS-04, STS-12, STS-X03). */
class StatefulSetStorageTest {
    private final SimulatedCluster cluster = StatefulSets.withStorage();

    private StatefulSet set() {
        return cluster.get(StatefulSet.class, "web");
    }

    private PersistentVolumeClaim claim(String name) {
        return cluster.get(PersistentVolumeClaim.class, name);
    }

    private List<String> podNames() {
        return cluster.podsOf("web").stream().sorted(Comparator.comparingInt(StatefulPods::ordinal))
                .map(p -> p.getMetadata().getName()).toList();
    }

    private List<String> owners(String claim) {
        List<OwnerReference> refs = claim(claim).getMetadata().getOwnerReferences();
        return refs == null ? List.of() : refs.stream().map(r -> r.getKind() + "/" + r.getName() + ":"
                + r.getController() + ":" + r.getBlockOwnerDeletion()).toList();
    }

    @Test
    @DisplayName("STS-04 STS-05 STS-12 two claim templates: each pod gets one claim per template, <template>-<pod>, "
            + "created before the pod, Pending with the template's class until the provisioner binds it; a pod "
            + "created again mounts the same claims")
    void claimsPerTemplate() {
        PersistentVolumeClaim logs = PersistentVolumeClaim.newBuilder(StatefulSets.www())
                .setMetadata(ObjectMeta.newBuilder().setName("logs").build()).build();
        cluster.create(StatefulSets.spec(web(2), s -> s.setVolumeClaimTemplates(List.of(StatefulSets.www(), logs))));
        List<String> firstSeen = new java.util.ArrayList<>();
        cluster.invariant(c -> {
            for (PersistentVolumeClaim p : c.list(PersistentVolumeClaim.class)) {
                if (!firstSeen.contains(p.getMetadata().getName())) {
                    firstSeen.add(p.getMetadata().getName());
                    assertEquals("Pending", p.getStatus().getPhase(), "STS-05 binding is the provisioner's");
                    String pod = p.getMetadata().getName().substring(p.getMetadata().getName().indexOf('-') + 1);
                    assertNull(c.get(Pod.class, pod), "the claim exists before its pod");
                }
            }
        });
        cluster.settle();
        assertEquals(List.of("www-web-0", "logs-web-0", "www-web-1", "logs-web-1"), firstSeen);
        Pod p = cluster.get(Pod.class, "web-1");
        assertEquals(List.of("www:www-web-1", "logs:logs-web-1"), p.getSpec().getVolumes().stream()
                .map(v -> v.getName() + ":" + v.getPersistentVolumeClaim().getClaimName()).toList());
        String uid = claim("logs-web-1").getMetadata().getUid();
        cluster.delete(Kinds.POD, "web-1");
        cluster.settle();
        assertEquals(uid, claim("logs-web-1").getMetadata().getUid());
        assertEquals(4, cluster.list(PersistentVolumeClaim.class).size());
        assertTrue(cluster.list(PersistentVolumeClaim.class).stream().allMatch(c -> "Bound".equals(c.getStatus().getPhase())));
    }

    @Test
    @DisplayName("STS-X03 whenDeleted Delete: every claim has the set as controller (blockOwnerDeletion), so the "
            + "garbage collector deletes them with the set")
    void whenDeletedDelete() {
        cluster.create(retention(web(2), "Delete", "Retain"));
        cluster.settle();
        assertEquals(List.of("StatefulSet/web:true:true"), owners("www-web-0"));
        assertEquals(List.of("StatefulSet/web:true:true"), owners("www-web-1"));
        assertTrue(Owners.isControlledBy(claim("www-web-0").getMetadata(), set().getMetadata().getUid()));
    }

    @Test
    @DisplayName("STS-X03 whenScaled Delete: scaled from 3 to 1, the claims of web-2 and web-1 get their pod as "
            + "controller before the pods are deleted (the garbage collector deletes them after the pod); web-0's stay "
            + "unowned; with both Delete, the remaining claim is the set's")
    void whenScaledDelete() {
        cluster.create(retention(web(3), "Retain", "Delete"));
        cluster.settle();
        assertEquals(List.of(), owners("www-web-2"));
        String web2 = cluster.get(Pod.class, "web-2").getMetadata().getUid();
        String web1 = cluster.get(Pod.class, "web-1").getMetadata().getUid();
        boolean[] ownedBeforeDeletion = {true};
        cluster.invariant(c -> {
            for (String n : List.of("web-1", "web-2")) {
                Pod p = c.get(Pod.class, n);
                if (p != null && p.getMetadata().getDeletionTimestamp() != null
                        && !Owners.isControlledBy(c.get(PersistentVolumeClaim.class, "www-" + n).getMetadata(),
                        p.getMetadata().getUid())) {
                    ownedBeforeDeletion[0] = false;
                }
            }
        });
        cluster.update(StatefulSets.replicas(set(), 1));
        cluster.settle();
        assertEquals(List.of("web-0"), podNames());
        assertTrue(ownedBeforeDeletion[0]);
        assertTrue(Owners.isControlledBy(claim("www-web-2").getMetadata(), web2));
        assertTrue(Owners.isControlledBy(claim("www-web-1").getMetadata(), web1));
        assertEquals(List.of(), owners("www-web-0"));

        cluster.update(retention(set(), "Delete", "Delete"));
        cluster.settle();
        assertEquals(List.of("StatefulSet/web:true:true"), owners("www-web-0"), "a policy change reaches the claims");
    }

    @Test
    @DisplayName("STS-X03 whenScaled Delete: scaled back up before the garbage collector removed a condemned pod's "
            + "claim, the new pod waits (the claim is stale); once the claim is gone the pod gets a new one")
    void staleClaimHoldsTheNewPod() {
        cluster.create(retention(web(2), "Retain", "Delete"));
        cluster.settle();
        cluster.update(StatefulSets.replicas(set(), 1));
        cluster.settle();
        String stale = claim("www-web-1").getMetadata().getUid();
        cluster.update(StatefulSets.replicas(set(), 2));
        cluster.settle();
        assertEquals(List.of("web-0"), podNames(), "web-1 waits for its stale claim to go");
        assertTrue(cluster.delete(Kinds.PERSISTENT_VOLUME_CLAIM, "www-web-1").getAccepted()); // the garbage collector
        cluster.settle();
        assertEquals(List.of("web-0", "web-1"), podNames());
        assertTrue(!stale.equals(claim("www-web-1").getMetadata().getUid()));
    }

    @Test
    @DisplayName("STS-12 a claim being deleted holds its pod back with a FailedCreate Warning until it is gone; then "
            + "the pod is created with a new claim")
    void claimBeingDeleted() {
        cluster.create(web(1));
        cluster.settle();
        PersistentVolumeClaim c = claim("www-web-0");
        List<String> finalizers = new java.util.ArrayList<>(c.getMetadata().getFinalizers() == null ? List.of()
                : c.getMetadata().getFinalizers());
        finalizers.add("example.com/hold"); // held past pvc-protection, which lets it go once no pod uses it
        cluster.update(PersistentVolumeClaim.newBuilder(c).setMetadata(ObjectMeta.newBuilder(c.getMetadata())
                .setFinalizers(finalizers).build()).build());
        cluster.delete(Kinds.PERSISTENT_VOLUME_CLAIM, "www-web-0");
        cluster.delete(Kinds.POD, "web-0");
        cluster.settle();
        assertEquals(List.of(), podNames());
        assertTrue(cluster.eventsWithReason("FailedCreate").contains(
                "create Pod web-0 in StatefulSet web failed error: pvc www-web-0 is being deleted"));
        PersistentVolumeClaim held = claim("www-web-0");
        cluster.update(PersistentVolumeClaim.newBuilder(held).setMetadata(ObjectMeta.newBuilder(held.getMetadata())
                .setFinalizers(held.getMetadata().getFinalizers().stream().filter(f -> !f.equals("example.com/hold"))
                        .toList()).build()).build());
        cluster.settle();
        assertEquals(List.of("web-0"), podNames());
        assertTrue(!c.getMetadata().getUid().equals(claim("www-web-0").getMetadata().getUid()));
    }
}
