package io.eventplane.controllers.statefulset;

import static io.eventplane.controllers.statefulset.StatefulSets.image;
import static io.eventplane.controllers.statefulset.StatefulSets.web;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** StatefulSet updates in a simulated cluster: RollingUpdate, partitions, OnDelete, rollbacks (workloads.md §3.4). */
class StatefulSetRolloutTest {
    private static final String V1 = StatefulSets.IMAGE;
    private static final String V2 = "k8s.gcr.io/nginx-slim:0.9";
    private static final String BAD = "k8s.gcr.io/nginx-slim:does-not-exist";
    private final SimulatedCluster cluster = StatefulSets.withStorage();
    private final PodTimeline timeline = PodTimeline.of(cluster, "web-");

    private StatefulSet set() {
        return cluster.get(StatefulSet.class, "web");
    }

    private Pod pod(String name) {
        return cluster.get(Pod.class, name);
    }

    private void edit(UnaryOperator<StatefulSet> change) {
        assertTrue(cluster.update(change.apply(set())).getAccepted());
    }

    /** The image of each pod, in ordinal order. */
    private List<String> images() {
        return cluster.podsOf("web").stream().sorted(Comparator.comparingInt(StatefulPods::ordinal))
                .map(p -> p.getSpec().getContainers().get(0).getImage().replace("k8s.gcr.io/nginx-slim:", "")).toList();
    }

    private String uid(String name) {
        return pod(name).getMetadata().getUid();
    }

    private List<String> uids() {
        return List.of(uid("web-0"), uid("web-1"), uid("web-2"));
    }

    private static int n(Integer i) {
        return i == null ? 0 : i;
    }

    private static final List<String> ROLLED_ONE_BY_ONE = List.of("terminating web-2", "gone web-2", "created web-2",
            "ready web-2", "terminating web-1", "gone web-1", "created web-1", "ready web-1", "terminating web-0",
            "gone web-0", "created web-0", "ready web-0");

    @Test
    @DisplayName("AC-STS-06 STS-20 STS-22 STS-X01 RollingUpdate of 3 to a new image: web-2, web-1, web-0, one at a time, "
            + "each deleted once the one updated before it is Running and Ready; a second ControllerRevision; status "
            + "currentRevision/updateRevision and the current and updated counts as the rollout goes")
    void rollingUpdate() {
        cluster.create(web(3));
        cluster.settle();
        String v1 = set().getStatus().getCurrentRevision();
        List<String> counts = new ArrayList<>();
        cluster.invariant(c -> {
            StatefulSetStatus s = c.get(StatefulSet.class, "web").getStatus();
            String entry = "current " + n(s.getCurrentReplicas()) + " updated " + n(s.getUpdatedReplicas());
            if (s.getUpdateRevision() != null && !s.getUpdateRevision().equals(v1)
                    && (counts.isEmpty() || !counts.get(counts.size() - 1).equals(entry))) {
                counts.add(entry);
            }
        });
        timeline.entries.clear();
        edit(s -> image(s, V2));
        cluster.settle();

        assertEquals(ROLLED_ONE_BY_ONE, timeline.entries);
        assertEquals(List.of("0.9", "0.9", "0.9"), images());
        StatefulSetStatus s = set().getStatus();
        String v2 = s.getUpdateRevision();
        assertNotEquals(v1, v2);
        assertEquals(v2, s.getCurrentRevision(), "complete: the update revision is current");
        assertEquals(List.of("current 2 updated 0", "current 2 updated 1", "current 1 updated 1", "current 1 updated 2",
                "current 0 updated 2", "current 0 updated 3", "current 3 updated 3"), counts);
        assertTrue(cluster.podsOf("web").stream().allMatch(p -> v2.equals(StatefulPods.revision(p))));
        List<ControllerRevision> revisions = revisions();
        assertEquals(List.of(v1 + "@1", v2 + "@2"), revisions.stream()
                .map(r -> r.getMetadata().getName() + "@" + r.getRevision()).toList());
    }

    private List<ControllerRevision> revisions() {
        return cluster.list(ControllerRevision.class).stream().sorted(Revisions.BY_REVISION).toList();
    }

    @Test
    @DisplayName("STS-18 STS-22 under Parallel pod management the update is the same: one at a time, from web-2 down")
    void rollingUpdateUnderParallel() {
        cluster.create(StatefulSets.parallel(web(3)));
        cluster.settle();
        timeline.entries.clear();
        edit(s -> image(s, V2));
        cluster.settle();
        assertEquals(ROLLED_ONE_BY_ONE, timeline.entries);
    }

    @Test
    @DisplayName("AC-STS-07 STS-21 OnDelete: a template change updates no pod; deleting web-1 recreates it from the new "
            + "template while web-0 and web-2 stay as they were")
    void onDelete() {
        cluster.create(StatefulSets.onDelete(web(3)));
        cluster.settle();
        List<String> before = uids();
        edit(s -> image(s, V2));
        cluster.settle();
        assertEquals(before, uids());
        assertEquals(List.of("0.8", "0.8", "0.8"), images());
        StatefulSetStatus s = set().getStatus();
        assertNotEquals(s.getCurrentRevision(), s.getUpdateRevision());
        assertNull(s.getUpdatedReplicas(), "updatedReplicas 0, omitted");

        cluster.delete(Kinds.POD, "web-1");
        cluster.settle();
        assertEquals(List.of("0.8", "0.9", "0.8"), images());
        assertEquals(before.get(0), uid("web-0"));
        assertEquals(before.get(2), uid("web-2"));
        assertEquals(1, set().getStatus().getUpdatedReplicas());
        assertEquals(2, set().getStatus().getCurrentReplicas());
    }

    @Test
    @DisplayName("AC-STS-08 STS-23 partition 2 of 3: only web-2 takes the new template; web-0 deleted comes back with "
            + "the old one; lowering the partition to 0 rolls the rest (a phased rollout)")
    void partition() {
        cluster.create(StatefulSets.rollingUpdate(web(3), 2, null));
        cluster.settle();
        edit(s -> image(s, V2));
        cluster.settle();
        assertEquals(List.of("0.8", "0.8", "0.9"), images());
        cluster.delete(Kinds.POD, "web-0");
        cluster.settle();
        assertEquals(List.of("0.8", "0.8", "0.9"), images(), "recreated at the previous version");
        StatefulSetStatus s = set().getStatus();
        assertEquals(List.of(2, 1), List.of(s.getCurrentReplicas(), s.getUpdatedReplicas()));

        edit(x -> StatefulSets.rollingUpdate(x, 0, null));
        cluster.settle();
        assertEquals(List.of("0.9", "0.9", "0.9"), images());
        assertEquals(set().getStatus().getUpdateRevision(), set().getStatus().getCurrentRevision());
    }

    @Test
    @DisplayName("AC-STS-09 STS-23 partition 5 above 3 replicas: no pod takes the new template, not even one added by "
            + "scaling to 4")
    void partitionAboveReplicas() {
        cluster.create(StatefulSets.rollingUpdate(web(3), 5, null));
        cluster.settle();
        List<String> before = uids();
        edit(s -> image(s, V2));
        cluster.settle();
        assertEquals(before, uids());
        edit(s -> StatefulSets.replicas(s, 4));
        cluster.settle();
        assertEquals(List.of("0.8", "0.8", "0.8", "0.8"), images());
    }

    @Test
    @DisplayName("AC-STS-10 STS-24 a template whose pod never becomes Ready stalls the rollout at web-2; reverting the "
            + "template alone leaves it stalled; once the user deletes web-2 it comes back from the reverted template "
            + "and the set is whole again")
    void forcedRollback() {
        cluster.badImages.add(BAD);
        cluster.create(web(3));
        cluster.settle();
        String good = set().getStatus().getCurrentRevision();
        List<String> before = uids();
        edit(s -> image(s, BAD));
        cluster.settle();
        assertEquals(List.of("0.8", "0.8", "does-not-exist"), images(), "stalled at web-2");
        String broken = uid("web-2");
        assertTrue(!PodStates.isReady(pod("web-2")));

        edit(s -> image(s, V1));
        cluster.settle();
        assertEquals(List.of("0.8", "0.8", "does-not-exist"), images(), "reverting alone is not enough");
        assertEquals(broken, uid("web-2"));
        assertEquals(List.of(before.get(0), before.get(1)), List.of(uid("web-0"), uid("web-1")));
        StatefulSetStatus stuck = set().getStatus();
        assertEquals(good, stuck.getUpdateRevision(), "the reverted template is the old revision again");
        assertEquals(2, stuck.getReadyReplicas());

        cluster.delete(Kinds.POD, "web-2");
        cluster.settle();
        assertEquals(List.of("0.8", "0.8", "0.8"), images());
        assertTrue(PodStates.isReady(pod("web-2")));
        StatefulSetStatus s = set().getStatus();
        assertEquals(List.of(3, 3, good, good), List.of(s.getReadyReplicas(), s.getUpdatedReplicas(),
                s.getCurrentRevision(), s.getUpdateRevision()));
        assertEquals(3L, revisions().stream().filter(r -> r.getMetadata().getName().equals(good)).findFirst()
                .orElseThrow().getRevision(), "the old revision renumbered, as a rollback does");
    }

    @Test
    @DisplayName("STS-X04 maxUnavailable 2 of 5: two pods are updated at a time, never more than two unavailable")
    void maxUnavailable() {
        cluster.create(StatefulSets.rollingUpdate(web(5), 0, 2));
        cluster.settle();
        int[] worst = {0};
        cluster.invariant(c -> {
            int unavailable = 0;
            for (int i = 0; i < 5; i++) {
                Pod p = c.get(Pod.class, "web-" + i);
                if (p == null || !PodStates.isReady(p) || PodStates.isTerminating(p)) {
                    unavailable++;
                }
            }
            worst[0] = Math.max(worst[0], unavailable);
        });
        timeline.entries.clear();
        edit(s -> image(s, V2));
        cluster.settle();
        assertEquals(List.of("terminating web-4", "terminating web-3"), timeline.only("terminating").subList(0, 2));
        assertTrue(timeline.indexOf("terminating web-3") < timeline.indexOf("gone web-4"), timeline.entries.toString());
        assertEquals(2, worst[0]);
        assertEquals(List.of("0.9", "0.9", "0.9", "0.9", "0.9"), images());
    }

    @Test
    @DisplayName("STS-X01 going back to an earlier template (kubectl rollout undo) takes its revision back with the next "
            + "number and makes no new one; beyond revisionHistoryLimit the oldest unused revisions go")
    void rollbackAndHistoryLimit() {
        cluster.create(StatefulSets.spec(web(2), s -> s.setRevisionHistoryLimit(1)));
        cluster.settle();
        String v1 = set().getStatus().getCurrentRevision();
        edit(s -> image(s, V2));
        cluster.settle();
        String v2 = set().getStatus().getCurrentRevision();
        edit(s -> image(s, V1));
        cluster.settle();
        assertEquals(List.of(v2 + "@2", v1 + "@3"), revisions().stream()
                .map(r -> r.getMetadata().getName() + "@" + r.getRevision()).toList());
        assertEquals(v1, set().getStatus().getCurrentRevision());
        assertEquals(List.of("0.8", "0.8"), images());

        edit(s -> image(s, "k8s.gcr.io/nginx-slim:1.0"));
        cluster.settle();
        edit(s -> image(s, "k8s.gcr.io/nginx-slim:1.1"));
        cluster.settle();
        List<String> left = revisions().stream().map(r -> r.getMetadata().getName()).toList();
        assertEquals(2, left.size(), "the live revision and one of history: " + left);
        assertEquals(set().getStatus().getCurrentRevision(), left.get(1));
    }

    @Test
    @DisplayName("STS-X01 a revision name already taken by another object's revision is a collision: collisionCount "
            + "goes to 1 and the revision gets another name")
    void collision() {
        StatefulSet web = web(1);
        cluster.create(web("probe", 0)); // the template as the writer defaults it, in another namespace
        String hash = Revisions.hash(Revisions.templatePatch(cluster.get(StatefulSet.class, "probe", "web").getSpec()
                .getTemplate()), null);
        ControllerRevision squatter = ControllerRevision.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("web-" + hash).setNamespace("default")
                        .setLabels(Map.of("app", "other")).build())
                .setData(Revisions.templatePatch(StatefulSets.template("other:1"))).setRevision(1L).build();
        assertTrue(cluster.create(squatter).getAccepted());
        cluster.create(web);
        cluster.settle();
        StatefulSetStatus s = set().getStatus();
        assertEquals(1, s.getCollisionCount());
        assertNotEquals("web-" + hash, s.getCurrentRevision());
        assertEquals(s.getCurrentRevision(), StatefulPods.revision(pod("web-0")));
    }
}
