package io.eventplane.gc;

import static io.eventplane.gc.GraphFixture.deleting;
import static io.eventplane.gc.GraphFixture.meta;
import static io.eventplane.gc.GraphFixture.node;
import static io.eventplane.gc.GraphFixture.pod;
import static io.eventplane.gc.GraphFixture.ref;
import static io.eventplane.gc.GraphFixture.replicaSet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The collector's decisions on an in-memory owner graph (no Kafka). */
class GarbageCollectorDeciderTest {
    final GraphFixture graph = new GraphFixture();
    final GarbageCollectorDecider decider = new GarbageCollectorDecider();

    List<GcAction> decide(ObjectChanged item) {
        return decider.decide(item, graph);
    }

    @Test
    @DisplayName("GC-02 a dependent whose owner lives with the referenced uid is left alone")
    void solidOwner() {
        graph.put(replicaSet(meta("default", "rs")));
        ObjectChanged p = graph.put(pod(meta("default", "p", ref("ReplicaSet", "rs", true))));
        assertEquals(List.of(), decide(p));
    }

    @Test
    @DisplayName("GC-01 GC-12 a dependent whose owner is gone is deleted in the background, with its uid and resourceVersion")
    void danglingOwner() {
        ObjectChanged p = graph.put(pod(meta("default", "p", ref("ReplicaSet", "rs", true))));
        assertEquals(List.of(new GcAction.Delete(p, "Background")), decide(p));
    }

    @Test
    @DisplayName("GC-X01 an owner of that name with another uid counts as absent")
    void uidMismatch() {
        graph.put(replicaSet(GraphFixture.meta("default", "rs")));
        OwnerReference stale = OwnerReference.newBuilder(ref("ReplicaSet", "rs", true)).setUid("uid-old").build();
        ObjectChanged p = graph.put(pod(meta("default", "p", stale)));
        assertEquals(List.of(new GcAction.Delete(p, "Background")), decide(p));
    }

    @Test
    @DisplayName("GC-08 a dependent with two owners loses only the dangling reference while the other owner lives")
    void twoOwners() {
        graph.put(replicaSet(meta("default", "a")));
        ObjectChanged p = graph.put(pod(meta("default", "p", ref("ReplicaSet", "a", false),
                OwnerReference.newBuilder(ref("ReplicaSet", "b", false)).setController(false).build())));
        List<GcAction> actions = decide(p);
        assertEquals(List.of(new GcAction.RemoveOwnerReferences(p, Set.of("uid-b"))), actions);
        Pod updated = (Pod) GarbageCollectorDecider.updated(actions.get(0));
        assertEquals(List.of("uid-a"), updated.getMetadata().getOwnerReferences().stream().map(OwnerReference::getUid).toList());
        assertEquals(ObjectAccess.meta((Pod) p.getObject()).getResourceVersion(), updated.getMetadata().getResourceVersion());
    }

    @Test
    @DisplayName("GC-10 the owner in foreground deletion keeps its finalizer while a blocking dependent exists, then loses it")
    void foregroundOwner() {
        ObjectChanged rs = graph.put(replicaSet(deleting(meta("default", "rs"), "foregroundDeletion")));
        ObjectChanged p = graph.put(pod(meta("default", "p", ref("ReplicaSet", "rs", true))));
        assertEquals(List.of(), decide(rs));
        assertEquals(List.of(new GcAction.Delete(p, "Background")), decide(p), "the waiting owner does not keep the pod");
        graph.remove(p);
        assertEquals(List.of(new GcAction.RemoveFinalizer(rs, "foregroundDeletion")), decide(rs));
    }

    @Test
    @DisplayName("GC-10 a dependent with blockOwnerDeletion=false does not hold the owner back, and stays until the owner is gone")
    void nonBlocking() {
        ObjectChanged rs = graph.put(replicaSet(deleting(meta("default", "rs"), "foregroundDeletion")));
        ObjectChanged p = graph.put(pod(meta("default", "p", ref("ReplicaSet", "rs", false))));
        assertEquals(List.of(new GcAction.RemoveFinalizer(rs, "foregroundDeletion")), decide(rs));
        assertEquals(List.of(), decide(p), "the owner still exists: a solid reference");
        graph.remove(rs);
        assertEquals(List.of(new GcAction.Delete(p, "Background")), decide(p));
    }

    @Test
    @DisplayName("GC-10 GC-17 a dependent with dependents of its own, whose owner waits for it, is deleted in the foreground")
    void foregroundChain() {
        graph.put(GraphFixture.replicaSet(deleting(meta("default", "deploy"), "foregroundDeletion")));
        // A ReplicaSet owned by a (modelled as ReplicaSet) owner waiting in foreground, with a pod of its own.
        ObjectChanged rs = graph.put(replicaSet(meta("default", "rs", ref("ReplicaSet", "deploy", true))));
        graph.put(pod(meta("default", "p", ref("ReplicaSet", "rs", true))));
        assertEquals(List.of(new GcAction.Delete(rs, "Foreground")), decide(rs));
    }

    @Test
    @DisplayName("GC-16 orphan: dependents lose the reference first; the orphan finalizer goes once none is left")
    void orphan() {
        ObjectChanged rs = graph.put(replicaSet(deleting(meta("default", "rs"), "orphan")));
        ObjectChanged p1 = graph.put(pod(meta("default", "p1", ref("ReplicaSet", "rs", true))));
        ObjectChanged p2 = graph.put(pod(meta("default", "p2", ref("ReplicaSet", "rs", true))));
        assertEquals(List.of(new GcAction.RemoveOwnerReferences(p1, Set.of("uid-rs")),
                new GcAction.RemoveOwnerReferences(p2, Set.of("uid-rs"))), decide(rs));
        Pod free = (Pod) GarbageCollectorDecider.updated(new GcAction.RemoveOwnerReferences(p1, Set.of("uid-rs")));
        assertEquals(null, free.getMetadata().getOwnerReferences());
        graph.put(free);
        graph.put((Pod) GarbageCollectorDecider.updated(new GcAction.RemoveOwnerReferences(p2, Set.of("uid-rs"))));
        assertEquals(List.of(new GcAction.RemoveFinalizer(rs, "orphan")), decide(rs));
    }

    @Test
    @DisplayName("GC-05 GC-07 a namespaced owner in another namespace counts as absent: the dependent is deleted and a warning recorded")
    void crossNamespace() {
        graph.put(replicaSet(meta("other", "rs")));
        ObjectChanged p = graph.put(pod(meta("default", "p", ref("ReplicaSet", "rs", true))));
        List<GcAction> actions = decide(p);
        assertEquals(2, actions.size(), actions.toString());
        GcAction.Warn warn = (GcAction.Warn) actions.get(0);
        assertEquals("OwnerRefInvalidNamespace", warn.reason());
        assertEquals("ownerRef [apps/v1/ReplicaSet, namespace: default, name: rs, uid: uid-rs] does not exist in namespace \"default\"",
                warn.message());
        assertEquals(new GcAction.Delete(p, "Background"), actions.get(1));
    }

    @Test
    @DisplayName("GC-05 a namespaced dependent may name a cluster-scoped owner")
    void clusterScopedOwner() {
        graph.put(node(meta(null, "node-1")));
        ObjectChanged p = graph.put(pod(meta("default", "p", ref("Node", "node-1", false))));
        assertEquals(List.of(), decide(p));
    }

    @Test
    @DisplayName("GC-06 GC-07 a cluster-scoped object owned by a namespaced kind is never collected; a warning is recorded")
    void clusterScopedDependentOfNamespacedOwner() {
        ObjectChanged n = graph.put(node(meta(null, "node-1", ref("ReplicaSet", "rs", true))));
        List<GcAction> actions = decide(n);
        assertEquals(1, actions.size());
        assertEquals("OwnerRefInvalidNamespace", ((GcAction.Warn) actions.get(0)).reason());
        assertTrue(actions.stream().noneMatch(a -> a instanceof GcAction.Delete));
    }

    @Test
    @DisplayName("an owner reference to a kind this control plane does not know never leads to a deletion")
    void unknownKind() {
        OwnerReference r = OwnerReference.newBuilder().setApiVersion("example.com/v1").setKind("Widget").setName("w")
                .setUid("uid-w").build();
        ObjectChanged p = graph.put(pod(meta("default", "p", r)));
        assertEquals(List.of(), decide(p));
    }

    @Test
    @DisplayName("an object already being deleted without propagation finalizers is left to its deletion")
    void beingDeleted() {
        ObjectChanged p = graph.put(pod(deleting(meta("default", "p", ref("ReplicaSet", "rs", true)), "example.com/x")));
        assertEquals(List.of(), decide(p));
    }
}
