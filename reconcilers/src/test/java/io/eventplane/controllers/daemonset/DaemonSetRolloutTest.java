package io.eventplane.controllers.daemonset;

import static io.eventplane.controllers.daemonset.DaemonSets.fluentd;
import static io.eventplane.controllers.daemonset.DaemonSets.node;
import static io.eventplane.controllers.daemonset.DaemonSets.onDelete;
import static io.eventplane.controllers.daemonset.DaemonSets.rollingUpdate;
import static io.eventplane.controllers.daemonset.DaemonSets.withImage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetSpec;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Updates of a DaemonSet: strategies, revisions, status (workloads.md DS-14, DS-16). */
class DaemonSetRolloutTest {
    private static final String DS = "fluentd-elasticsearch";
    private static final String V2 = "quay.io/fluentd_elasticsearch/fluentd:v2.6.0";
    private final SimulatedCluster cluster = new SimulatedCluster();

    private void nodes(int n) {
        for (int i = 1; i <= n; i++) {
            assertTrue(cluster.create(node("node-" + i)).getAccepted());
        }
    }

    private DaemonSet ds() {
        return cluster.get(DaemonSet.class, DS);
    }

    private List<Pod> live() {
        return cluster.podsOf(DS).stream().filter(p -> !PodStates.isTerminating(p)).toList();
    }

    private long onImage(String image) {
        return live().stream().filter(p -> p.getSpec().getContainers().get(0).getImage().equals(image)).count();
    }

    private void update(java.util.function.UnaryOperator<DaemonSet> change) {
        assertTrue(cluster.update(change.apply(ds())).getAccepted());
    }

    /** Eligible nodes without an available pod that is not being deleted. */
    private static int unavailableNodes(SimulatedCluster c, int nodes) {
        Set<String> available = new HashSet<>();
        for (Pod p : c.podsOf(DS)) {
            if (!PodStates.isTerminating(p) && PodStates.isAvailable(p, 0, c.clock.instant())) {
                available.add(p.getSpec().getNodeName());
            }
        }
        return nodes - available.size();
    }

    private List<ControllerRevision> revisions() {
        return cluster.list(ControllerRevision.class).stream().sorted(Revisions.BY_REVISION).toList();
    }

    @Test
    @DisplayName("DS-14 DS-16 RollingUpdate maxUnavailable 1 on 5 nodes: one node at a time is without an available "
            + "pod, every pod ends on the new image with the new revision's hash and template generation")
    void rollingUpdateOneAtATime() {
        nodes(5);
        cluster.create(fluentd());
        cluster.settle();
        String oldHash = live().get(0).getMetadata().getLabels().get(Revisions.HASH_LABEL);
        int[] worst = {0};
        cluster.invariant(c -> worst[0] = Math.max(worst[0], unavailableNodes(c, 5)));
        update(ds -> withImage(ds, V2));
        cluster.settle();

        assertEquals(1, worst[0], "maxUnavailable 1");
        assertEquals(5, onImage(V2));
        String newHash = live().get(0).getMetadata().getLabels().get(Revisions.HASH_LABEL);
        assertNotEquals(oldHash, newHash);
        live().forEach(p -> assertEquals(Map.of("name", "fluentd-elasticsearch", "controller-revision-hash", newHash,
                "pod-template-generation", "2"), p.getMetadata().getLabels()));
        DaemonSetStatus s = ds().getStatus();
        assertEquals(List.of(5, 5, 5, 5, 5, 0), List.of(s.getDesiredNumberScheduled(), s.getCurrentNumberScheduled(),
                n(s.getUpdatedNumberScheduled()), s.getNumberReady(), n(s.getNumberAvailable()), n(s.getNumberUnavailable())));
        assertEquals(ds().getMetadata().getGeneration(), s.getObservedGeneration());

        List<ControllerRevision> revisions = revisions();
        assertEquals(List.of(1L, 2L), revisions.stream().map(ControllerRevision::getRevision).toList());
        assertEquals(List.of(oldHash, newHash), revisions.stream().map(DaemonSetHistory::hashOf).toList());
        assertEquals(List.of(DS + "-" + oldHash, DS + "-" + newHash),
                revisions.stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(V2, Revisions.template(revisions.get(1)).getSpec().getContainers().get(0).getImage());
    }

    @Test
    @DisplayName("DS-16 maxUnavailable 40% of 5 nodes (rounded up: 2): at most two nodes at a time")
    void rollingUpdatePercent() {
        nodes(5);
        cluster.create(rollingUpdate(fluentd(), "40%", 0));
        cluster.settle();
        int[] worst = {0};
        cluster.invariant(c -> worst[0] = Math.max(worst[0], unavailableNodes(c, 5)));
        update(ds -> withImage(ds, V2));
        cluster.settle();
        assertEquals(2, worst[0]);
        assertEquals(5, onImage(V2));
    }

    @Test
    @DisplayName("DS-16 maxSurge 1 (maxUnavailable 0): every node keeps an available pod throughout, at most one node "
            + "runs two pods, the old pod goes once the new one is available")
    void rollingUpdateWithSurge() {
        nodes(4);
        cluster.create(rollingUpdate(fluentd(), 0, 1));
        cluster.settle();
        int[] worstUnavailable = {0};
        int[] mostPods = {0};
        cluster.invariant(c -> {
            worstUnavailable[0] = Math.max(worstUnavailable[0], unavailableNodes(c, 4));
            mostPods[0] = Math.max(mostPods[0], (int) c.podsOf(DS).stream().filter(p -> !PodStates.isTerminating(p)).count());
        });
        update(ds -> withImage(ds, V2));
        cluster.settle();
        assertEquals(0, worstUnavailable[0]);
        assertEquals(5, mostPods[0]);
        assertEquals(4, onImage(V2));
        assertEquals(4, live().size());
    }

    @Test
    @DisplayName("DS-16 POD-2.2 POD-2.3 OnDelete: a new template replaces no pod; a pod the user deletes comes back on the new template")
    void onDeleteWaitsForTheUser() {
        nodes(3);
        cluster.create(onDelete(fluentd()));
        cluster.settle();
        update(ds -> withImage(ds, V2));
        cluster.settle();
        assertEquals(0, onImage(V2));
        assertEquals(0, n(ds().getStatus().getUpdatedNumberScheduled()));
        assertEquals(ds().getMetadata().getGeneration(), ds().getStatus().getObservedGeneration());

        cluster.delete(Kinds.POD, live().get(0).getMetadata().getName());
        cluster.settle();
        assertEquals(1, onImage(V2));
        assertEquals(1, n(ds().getStatus().getUpdatedNumberScheduled()));
        assertEquals(3, live().size());
    }

    @Test
    @DisplayName("DS-16 rolling back to an earlier template (kubectl rollout undo) reuses its revision with the next "
            + "number and its hash; revisionHistoryLimit 1 deletes the oldest unused revision")
    void rollbackAndHistoryLimit() {
        nodes(2);
        cluster.create(fluentd());
        cluster.settle();
        String v1Hash = DaemonSetHistory.hashOf(revisions().get(0));
        update(ds -> withImage(ds, V2));
        cluster.settle();
        update(ds -> withImage(ds, DaemonSets.IMAGE));
        cluster.settle();
        assertEquals(List.of(2L, 3L), revisions().stream().map(ControllerRevision::getRevision).toList());
        assertEquals(v1Hash, DaemonSetHistory.hashOf(revisions().get(1)), "revision 1 came back as revision 3");
        live().forEach(p -> assertEquals(v1Hash, p.getMetadata().getLabels().get(Revisions.HASH_LABEL)));
        assertEquals("3", ds().getMetadata().getAnnotations().get(DaemonPods.TEMPLATE_GENERATION_ANNOTATION));

        update(ds -> DaemonSet.newBuilder(withImage(ds, "fluentd:v3")).setSpec(DaemonSetSpec.newBuilder(
                withImage(ds, "fluentd:v3").getSpec()).setRevisionHistoryLimit(1).build()).build());
        cluster.settle();
        assertEquals(List.of(3L, 4L), revisions().stream().map(ControllerRevision::getRevision).toList());
    }

    @Test
    @DisplayName("DS-16 a revision name taken by another revision is a hash collision: collisionCount goes to 1 and "
            + "the revision is named with the next hash")
    void hashCollision() {
        nodes(1);
        cluster.create(fluentd());
        DaemonSet stored = ds();
        String hash = Revisions.hash(stored.getSpec().getTemplate(), null);
        ControllerRevision squatter = ControllerRevision.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(Revisions.name(DS, hash)).setNamespace("default").build())
                .setData(Revisions.templatePatch(withImage(stored, "other").getSpec().getTemplate())).setRevision(1L)
                .build();
        assertTrue(cluster.create(squatter).getAccepted());
        cluster.settle();
        assertEquals(1, ds().getStatus().getCollisionCount());
        String next = Revisions.hash(stored.getSpec().getTemplate(), 1);
        assertEquals(DS + "-" + next, revisions().stream().filter(r -> r.getMetadata().getOwnerReferences() != null)
                .findFirst().orElseThrow().getMetadata().getName());
        assertEquals(next, live().get(0).getMetadata().getLabels().get(Revisions.HASH_LABEL));
    }

    @Test
    @DisplayName("DS-16 minReadySeconds: a Ready pod counts available only after it, and the controller wakes then")
    void minReadySeconds() {
        nodes(2);
        cluster.create(DaemonSet.newBuilder(fluentd()).setSpec(DaemonSetSpec.newBuilder(fluentd().getSpec())
                .setMinReadySeconds(10).build()).build());
        for (int i = 0; i < 4; i++) {
            cluster.step();
        }
        DaemonSetStatus s = ds().getStatus();
        assertEquals(2, s.getNumberReady());
        assertEquals(0, n(s.getNumberAvailable()));
        assertEquals(2, n(s.getNumberUnavailable()));
        Reconciliation r = new DaemonSetReconciler().reconcile("DaemonSet/default/" + DS, cluster.view(),
                cluster.clock.instant(), null);
        assertTrue(r.requeueAfter() != null && r.requeueAfter().getSeconds() <= 10, "wakes when they become available");
        cluster.clock.advance(r.requeueAfter());
        cluster.settle();
        assertEquals(2, n(ds().getStatus().getNumberAvailable()));
        assertEquals(0, n(ds().getStatus().getNumberUnavailable()));
    }

    @Test
    @DisplayName("DS-07 DS-16 the first step records the revision; pods, pinned and labelled with its hash, follow")
    void revisionFirstThenPods() {
        nodes(2);
        cluster.create(fluentd());
        DaemonSetDecider.Observed first = new DaemonSetDecider.Observed(ds(), cluster.list(io.eventplane.model.Node.class),
                List.of(), List.of());
        Reconciliation r = DaemonSetDecider.sync(first, Instant.now(), new FailedPodBackoff());
        assertEquals(List.of("ControllerRevision"), r.actions().stream().filter(a -> a instanceof Action.Create)
                .map(a -> ((Action.Create) a).object().getClass().getSimpleName()).toList());
        ControllerRevision rev = (ControllerRevision) ((Action.Create) r.actions().get(0)).object();
        ControllerRevision stored = ControllerRevision.newBuilder(rev).setMetadata(ObjectMeta.newBuilder(rev.getMetadata())
                .setUid("rev-uid").setResourceVersion("5").build()).build();
        Reconciliation second = DaemonSetDecider.sync(new DaemonSetDecider.Observed(ds(),
                cluster.list(io.eventplane.model.Node.class), List.of(), List.of(stored)), Instant.now(), new FailedPodBackoff());
        List<Pod> created = second.actions().stream().filter(a -> a instanceof Action.Create)
                .map(a -> (Pod) ((Action.Create) a).object()).sorted(Comparator.comparing(p -> DaemonPods.targetNode(p)))
                .toList();
        assertEquals(List.of("node-1", "node-2"), created.stream().map(DaemonPods::targetNode).toList());
        created.forEach(p -> {
            assertEquals(null, p.getSpec().getNodeName());
            assertEquals(DaemonSetHistory.hashOf(stored), p.getMetadata().getLabels().get(Revisions.HASH_LABEL));
        });
    }

    /** A counter Kubernetes omits when 0. */
    private static int n(Integer i) {
        return i == null ? 0 : i;
    }
}
