package io.eventplane.gc;

import io.eventplane.reconcile.Controller;

import static io.eventplane.gc.GcLoop.DEADLINE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Subscription;
import io.eventplane.client.WatchEvent;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.model.Deployment;
import io.eventplane.model.Event;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The garbage collector against the real writer on a real broker: owners and dependents made by hand (workloads.md §6). */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GarbageCollectorEndToEndTest {
    private final GcLoop loop = new GcLoop();

    @BeforeAll
    void start(@TempDir Path dir) {
        loop.start(dir);
        Controller gc = Controller.keyed(loop.config, "garbage-collector", "garbage-collector-controller",
                java.time.Clock.systemUTC(), new GarbageCollector()).start();
        loop.add(gc, gc::isReady);
    }

    @AfterAll
    void stop() {
        loop.close();
    }

    static ReplicaSet replicaSet(String ns, String name, OwnerReference... owners) {
        return KubeObjects.replicaSet(name).namespace(ns).ownedBy(owners).replicas(3).build();
    }

    /** A pod of these owners; finalizers null for none. */
    static Pod pod(String ns, String name, List<String> finalizers, OwnerReference... owners) {
        return KubeObjects.pod(name).namespace(ns).ownedBy(owners).meta(m -> m.setFinalizers(finalizers)).build();
    }

    static OwnerReference ref(SpecificRecord owner, boolean block) {
        return KubeObjects.ownerRef(owner).controller().blockOwnerDeletion(block).build();
    }

    void delete(SpecificRecord object, String policy) {
        ObjectMeta m = io.eventplane.core.meta.ObjectAccess.meta(object);
        loop.send(loop.user.deleteWith(Kinds.of(object), m.getNamespace(), m.getName(), new Preconditions(),
                DeleteOptions.newBuilder().setPropagationPolicy(policy).build()));
    }

    boolean gone(String kind, String ns, String name) {
        return loop.get(kind, ns, name).isEmpty();
    }

    /** The DELETED changes in the namespace, in log order, as "Kind/name". */
    List<String> deletions(String ns) {
        List<String> out = new ArrayList<>();
        try (Subscription history = loop.view.watch(new long[] {0},
                c -> c.getNamespace().equals(ns) && c.getType() == ChangeType.DELETED, 10_000)) {
            for (WatchEvent e = history.poll(java.time.Duration.ofMillis(50)); e != null;
                 e = history.poll(java.time.Duration.ofMillis(50))) {
                out.add(e.change().getKind() + "/" + e.change().getName());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (io.eventplane.client.GoneException e) {
            throw new AssertionError(e);
        }
        return out;
    }

    @Test
    @DisplayName("GC-02 GC-10 foreground: the ReplicaSet stays with deletionTimestamp and foregroundDeletion until its blocking pods are gone, a held pod keeps it, a non-blocking pod does not")
    void foreground() {
        String ns = "fg";
        ReplicaSet rs = loop.create(replicaSet(ns, "my-repset"));
        for (int i = 1; i <= 2; i++) {
            loop.create(pod(ns, "p" + i, null, ref(rs, true)));
        }
        loop.create(pod(ns, "held", List.of("example.com/hold"), ref(rs, true)));
        loop.create(pod(ns, "loose", null, ref(rs, false)));
        delete(rs, "Foreground");

        loop.waiter.awaitTrue(DEADLINE, () -> gone("Pod", ns, "p1") && gone("Pod", ns, "p2")
                && loop.get("Pod", ns, "held").map(c -> meta(c).getDeletionTimestamp() != null).orElse(false),
                () -> "pods: " + loop.view.list("Pod", ns));
        ReplicaSet terminating = (ReplicaSet) loop.get("ReplicaSet", ns, "my-repset").orElseThrow().getObject();
        assertNotNull(terminating.getMetadata().getDeletionTimestamp());
        assertEquals(List.of("foregroundDeletion"), terminating.getMetadata().getFinalizers());
        assertTrue(loop.get("Pod", ns, "loose").isPresent(), "a non-blocking pod is not deleted while its owner lives");

        Pod held = (Pod) loop.get("Pod", ns, "held").orElseThrow().getObject();
        loop.send(loop.user.update(Pod.newBuilder(held).setMetadata(ObjectMeta.newBuilder(held.getMetadata())
                .setFinalizers(List.of()).build()).build()));
        loop.waiter.awaitTrue(DEADLINE, () -> gone("ReplicaSet", ns, "my-repset") && gone("Pod", ns, "loose"),
                () -> "left: " + loop.view.list("ReplicaSet", ns) + loop.view.list("Pod", ns));
        List<String> order = deletions(ns);
        assertTrue(order.containsAll(List.of("Pod/p1", "Pod/p2", "Pod/held", "Pod/loose", "ReplicaSet/my-repset")),
                order.toString());
        int owner = order.indexOf("ReplicaSet/my-repset");
        assertTrue(owner > order.indexOf("Pod/p1") && owner > order.indexOf("Pod/p2") && owner > order.indexOf("Pod/held"),
                "the owner goes after its blocking dependents: " + order);
        assertTrue(order.indexOf("Pod/loose") > owner, "the non-blocking pod goes after its owner: " + order);
    }

    @Test
    @DisplayName("GC-12 background: the ReplicaSet is deleted first, then its pods")
    void background() {
        String ns = "bg";
        ReplicaSet rs = loop.create(replicaSet(ns, "my-repset"));
        for (int i = 1; i <= 3; i++) {
            loop.create(pod(ns, "p" + i, null, ref(rs, true)));
        }
        delete(rs, "Background");
        loop.waiter.awaitTrue(DEADLINE, () -> loop.view.list("Pod", ns).isEmpty(), () -> "pods: " + loop.view.list("Pod", ns));
        List<String> order = deletions(ns);
        assertEquals("ReplicaSet/my-repset", order.get(0), "owner first: " + order);
        assertEquals(4, order.size(), order.toString());
    }

    @Test
    @DisplayName("GC-16 orphan: the ReplicaSet is gone and its pods stay, without the owner reference")
    void orphan() {
        String ns = "orphan";
        ReplicaSet rs = loop.create(replicaSet(ns, "my-repset"));
        for (int i = 1; i <= 3; i++) {
            loop.create(pod(ns, "p" + i, null, ref(rs, true)));
        }
        delete(rs, "Orphan");
        loop.waiter.awaitTrue(DEADLINE, () -> gone("ReplicaSet", ns, "my-repset"), () -> "rs still there");
        for (int i = 1; i <= 3; i++) {
            Pod p = (Pod) loop.get("Pod", ns, "p" + i).orElseThrow().getObject();
            assertEquals(null, p.getMetadata().getOwnerReferences(), "p" + i + " lost its owner reference");
            assertEquals(null, p.getMetadata().getDeletionTimestamp());
        }
    }

    @Test
    @DisplayName("GC-17 a background delete of a Deployment cascades through its ReplicaSets to their pods")
    void transitive() {
        String ns = "chain";
        Deployment d = loop.create(KubeObjects.deployment("web").namespace(ns).build());
        for (String r : List.of("web-1", "web-2")) {
            ReplicaSet rs = loop.create(replicaSet(ns, r, ref(d, true)));
            for (int i = 1; i <= 2; i++) {
                loop.create(pod(ns, r + "-p" + i, null, ref(rs, true)));
            }
        }
        delete(d, null);
        loop.waiter.awaitTrue(DEADLINE, () -> loop.view.list("Pod", ns).isEmpty() && loop.view.list("ReplicaSet", ns).isEmpty()
                && gone("Deployment", ns, "web"), () -> "left: " + loop.view.list("ReplicaSet", ns) + loop.view.list("Pod", ns));
        assertEquals(7, deletions(ns).size());
    }

    @Test
    @DisplayName("GC-05 GC-07 a pod whose owner reference names a ReplicaSet of another namespace is deleted, with an OwnerRefInvalidNamespace warning")
    void crossNamespace() {
        ReplicaSet elsewhere = loop.create(replicaSet("ns-b", "rs"));
        loop.create(pod("ns-a", "stray", null, ref(elsewhere, true)));
        loop.waiter.awaitTrue(DEADLINE, () -> gone("Pod", "ns-a", "stray"), () -> "stray pod still there");
        Event e = warning("stray");
        assertEquals("Warning", e.getType());
        assertEquals("Pod", e.getInvolvedObject().getKind());
        assertTrue(e.getMessage().contains("does not exist in namespace \"ns-a\""), e.getMessage());
        assertTrue(loop.get("ReplicaSet", "ns-b", "rs").isPresent(), "the other namespace's ReplicaSet is untouched");
    }

    @Test
    @DisplayName("GC-06 GC-07 a cluster-scoped Node owned by a namespaced kind is never collected; an OwnerRefInvalidNamespace warning is recorded")
    void clusterScopedDependent() {
        ReplicaSet rs = loop.create(replicaSet("default", "owner-of-node"));
        loop.create(Node.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("odd-node")
                .setOwnerReferences(List.of(ref(rs, false))).build()).build());
        delete(rs, "Background");
        Event e = warning("odd-node");
        assertEquals("Node", e.getInvolvedObject().getKind());
        assertTrue(loop.get("Node", "", "odd-node").isPresent());
    }

    private Event warning(String involved) {
        return loop.waiter.await(DEADLINE, () -> {
            for (ObjectChanged c : loop.view.list("Event", null)) {
                Event ev = (Event) c.getObject();
                if ("OwnerRefInvalidNamespace".equals(ev.getReason()) && involved.equals(ev.getInvolvedObject().getName())) {
                    return Optional.of(ev);
                }
            }
            return Optional.empty();
        }, () -> "no OwnerRefInvalidNamespace event about " + involved);
    }

    static ObjectMeta meta(ObjectChanged c) {
        return io.eventplane.core.meta.ObjectAccess.meta((SpecificRecord) c.getObject());
    }
}
