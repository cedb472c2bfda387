package io.eventplane.core.decide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.Job;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import java.time.Instant;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Deletion as the writer decides it: propagation finalizers, preconditions, finalizers in general. */
class DeletionDeciderTest {
    final ObjectDecider decider = new ObjectDecider(RulesRegistry.standard());
    final Decisions decisions = new Decisions();
    long position = 5000;
    static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata: {name: web, namespace: default}
            spec: {containers: [{name: c, image: nginx}]}
            """;
    static final String JOB = """
            apiVersion: batch/v1
            kind: Job
            metadata: {name: pi, namespace: default}
            spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: perl}]}}}
            """;

    ObjectChanged replicaSet(List<String> finalizers) {
        ReplicaSet rs = Decisions.example(ReplicaSet.class, "replicaset-my-repset.yaml");
        rs = ReplicaSet.newBuilder(rs).setMetadata(ObjectMeta.newBuilder(rs.getMetadata()).setFinalizers(finalizers).build()).build();
        return decisions.createdChange(rs);
    }

    Decision delete(ObjectChanged current, String policy, Long grace, Preconditions pre, Instant at) {
        KindInfo kind = Kinds.byKind(current.getKind()).orElseThrow();
        Command c = Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("d-" + position).setTime(at).build())
                .setVerb(Verb.DELETE).setKind(kind.kind()).setNamespace(current.getNamespace()).setName(current.getName())
                .setPreconditions(pre == null ? new Preconditions() : pre)
                .setDeleteOptions(DeleteOptions.newBuilder().setPropagationPolicy(policy).setGracePeriodSeconds(grace).build())
                .build();
        return decider.decide(c, current, ++position);
    }

    Decision delete(ObjectChanged current, String policy) {
        return delete(current, policy, null, null, Decisions.T0.plusSeconds(5));
    }

    Decision update(ObjectChanged current, SpecificRecord object) {
        return decisions.update(current, object);
    }

    static ObjectMeta meta(ObjectChanged c) {
        return ObjectAccess.meta((SpecificRecord) c.getObject());
    }

    static SpecificRecord withFinalizers(ObjectChanged c, List<String> finalizers) {
        SpecificRecord o = (SpecificRecord) c.getObject();
        return ObjectAccess.withMeta(o, ObjectMeta.newBuilder(ObjectAccess.meta(o)).setFinalizers(finalizers).build());
    }

    @Test
    @DisplayName("GC-10 GC-13 a Foreground delete keeps the owner, with deletionTimestamp and the foregroundDeletion finalizer")
    void foreground() {
        ObjectChanged rs = replicaSet(null);
        ObjectChanged c = delete(rs, "Foreground").change().orElseThrow();
        assertEquals(ChangeType.DELETION_STARTED, c.getType());
        assertEquals(List.of("foregroundDeletion"), meta(c).getFinalizers());
        assertEquals(Instant.parse("2026-11-21T10:00:05Z"), meta(c).getDeletionTimestamp());
        assertEquals(0L, meta(c).getDeletionGracePeriodSeconds());
        assertTrue(delete(c, "Foreground").change().isEmpty(), "a second foreground delete changes nothing");
    }

    @Test
    @DisplayName("GC-16 an Orphan delete records the orphan finalizer; GC-12 a Background delete removes the owner at once")
    void orphanAndBackground() {
        ObjectChanged rs = replicaSet(null);
        ObjectChanged orphan = delete(rs, "Orphan").change().orElseThrow();
        assertEquals(List.of("orphan"), meta(orphan).getFinalizers());
        assertEquals(ChangeType.DELETED, delete(rs, "Background").change().orElseThrow().getType());
        assertEquals(ChangeType.DELETED, delete(rs, null).change().orElseThrow().getType(), "GC-15 apps/v1 default is Background");
    }

    @Test
    @DisplayName("GC-15 without propagationPolicy a v1 ReplicationController and a batch/v1 Job orphan their pods")
    void kindDefaults() {
        ObjectChanged rc = decisions.createdChange(Decisions.example(ReplicationController.class, "replicationcontroller-nginx.yaml"));
        assertEquals(List.of("orphan"), meta(delete(rc, null).change().orElseThrow()).getFinalizers());
        assertEquals(ChangeType.DELETED, delete(rc, "Background").change().orElseThrow().getType());
        ObjectChanged job = decisions.createdChange(Decisions.parse(Job.class, JOB));
        assertEquals(List.of("orphan"), meta(delete(job, null).change().orElseThrow()).getFinalizers());
    }

    @Test
    @DisplayName("GC-13 a second delete may switch the propagation of an owner held by finalizers; Background then removes it")
    void switchPolicy() {
        ObjectChanged fg = delete(replicaSet(null), "Foreground").change().orElseThrow();
        ObjectChanged orphan = delete(fg, "Orphan").change().orElseThrow();
        assertEquals(List.of("orphan"), meta(orphan).getFinalizers());
        assertEquals(meta(fg).getDeletionTimestamp(), meta(orphan).getDeletionTimestamp(), "the deletion timestamp stays");
        assertTrue(delete(orphan, null).change().isEmpty(), "no policy: the finalizer the object carries stands");
        assertEquals(ChangeType.DELETED, delete(orphan, "Background").change().orElseThrow().getType());
    }

    @Test
    @DisplayName("finalizers: a delete only marks the object; other finalizers are kept beside the propagation one")
    void otherFinalizersKept() {
        ObjectChanged rs = replicaSet(List.of("example.com/hold"));
        ObjectChanged c = delete(rs, "Background").change().orElseThrow();
        assertEquals(ChangeType.DELETION_STARTED, c.getType());
        assertEquals(List.of("example.com/hold"), meta(c).getFinalizers());
        ObjectChanged fg = delete(rs, "Foreground").change().orElseThrow();
        assertEquals(List.of("example.com/hold", "foregroundDeletion"), meta(fg).getFinalizers());
        Decision add = update(c, withFinalizers(c, List.of("example.com/hold", "example.com/more")));
        assertEquals(422, add.outcome().getCode(), "no new finalizer once deletion started");
        Decision last = update(c, withFinalizers(c, List.of()));
        assertEquals(ChangeType.DELETED, last.change().orElseThrow().getType(), "the last finalizer removed deletes it");
    }

    @Test
    @DisplayName("GC-10 removing foregroundDeletion (the garbage collector's step) deletes the owner")
    void foregroundFinalizerRemoved() {
        ObjectChanged fg = delete(replicaSet(null), "Foreground").change().orElseThrow();
        assertEquals(ChangeType.DELETED, update(fg, withFinalizers(fg, null)).change().orElseThrow().getType());
    }

    @Test
    @DisplayName("delete preconditions: a stale uid or resourceVersion is rejected 409 and changes nothing")
    void preconditions() {
        ObjectChanged rs = replicaSet(null);
        Instant at = Decisions.T0.plusSeconds(1);
        Decision uid = delete(rs, null, null, Preconditions.newBuilder().setUid("not-it").build(), at);
        assertEquals(409, uid.outcome().getCode());
        assertTrue(uid.outcome().getMessage().contains("Precondition failed: UID in precondition"));
        assertTrue(uid.change().isEmpty());
        Decision rv = delete(rs, null, null, Preconditions.newBuilder().setResourceVersion("1").build(), at);
        assertEquals(409, rv.outcome().getCode());
        Decision ok = delete(rs, null, null, Preconditions.newBuilder().setUid(meta(rs).getUid())
                .setResourceVersion(meta(rs).getResourceVersion()).build(), at);
        assertEquals(ChangeType.DELETED, ok.change().orElseThrow().getType());
    }

    @Test
    @DisplayName("GC-X01 at most one owner reference may be the controller; owner references need apiVersion, kind, name and uid")
    void ownerReferenceValidation() {
        ReplicaSet rs = Decisions.example(ReplicaSet.class, "replicaset-my-repset.yaml");
        OwnerReference a = OwnerReference.newBuilder().setApiVersion("apps/v1").setKind("Deployment").setName("a")
                .setUid("u-a").setController(true).build();
        OwnerReference b = OwnerReference.newBuilder(a).setName("b").setUid("u-b").build();
        ReplicaSet two = ReplicaSet.newBuilder(rs).setMetadata(ObjectMeta.newBuilder(rs.getMetadata())
                .setOwnerReferences(List.of(a, b)).build()).build();
        assertTrue(Decisions.rejected(decisions.create(two)).get(0).contains("Only one reference can have Controller set to true"));
        ReplicaSet noUid = ReplicaSet.newBuilder(rs).setMetadata(ObjectMeta.newBuilder(rs.getMetadata())
                .setOwnerReferences(List.of(OwnerReference.newBuilder(a).setUid(null).build())).build()).build();
        assertTrue(Decisions.rejected(decisions.create(noUid)).get(0).endsWith("uid must not be empty"));
        ReplicaSet both = ReplicaSet.newBuilder(rs).setMetadata(ObjectMeta.newBuilder(rs.getMetadata())
                .setFinalizers(List.of("orphan", "foregroundDeletion")).build()).build();
        assertFalse(decisions.create(both).outcome().getAccepted());
    }

    // ---- pods (pods.md 24.6)

    ObjectChanged runningPod(List<String> finalizers) {
        Pod p = Decisions.parse(Pod.class, POD);
        p = Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setFinalizers(finalizers).build()).build();
        ObjectChanged created = decisions.createdChange(p);
        Command bind = Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("scheduler").setRequestId("b").setTime(Decisions.T0).build())
                .setVerb(Verb.BIND).setKind("Pod").setNamespace(created.getNamespace()).setName(created.getName())
                .setPreconditions(new Preconditions()).setNodeName("node-1").build();
        return decider.decide(bind, created, ++position).change().orElseThrow();
    }

    @Test
    @DisplayName("W-D1 POD-12.1 POD-12.2 a graceful delete of a running pod sets deletionTimestamp = now + 30 s; the pod stays (Terminating) until the grace-0 delete")
    void wD1() {
        ObjectChanged pod = runningPod(null);
        ObjectChanged terminating = delete(pod, null, null, null, Decisions.T0.plusSeconds(10)).change().orElseThrow();
        assertEquals(ChangeType.DELETION_STARTED, terminating.getType());
        assertEquals(Instant.parse("2026-11-21T10:00:40Z"), meta(terminating).getDeletionTimestamp());
        assertEquals(30L, meta(terminating).getDeletionGracePeriodSeconds());
        ObjectChanged shorter = delete(terminating, null, 10L, null, Decisions.T0.plusSeconds(15)).change().orElseThrow();
        assertEquals(Instant.parse("2026-11-21T10:00:20Z"), meta(shorter).getDeletionTimestamp(),
                "a shorter grace period counts from when the deletion started");
        assertTrue(delete(shorter, null, 20L, null, Decisions.T0.plusSeconds(16)).change().isEmpty(), "a longer one is ignored");
        assertEquals(ChangeType.DELETED, delete(shorter, null, 0L, null, Decisions.T0.plusSeconds(17)).change().orElseThrow().getType());
    }

    @Test
    @DisplayName("W-D4 a force delete (grace 0) removes the pod at once and a pod of the same name can be created with a new uid")
    void wD4() {
        ObjectChanged pod = runningPod(null);
        ObjectChanged gone = delete(pod, null, 0L, null, Decisions.T0.plusSeconds(1)).change().orElseThrow();
        assertEquals(ChangeType.DELETED, gone.getType());
        ObjectChanged again = decisions.createdChange(Decisions.parse(Pod.class, POD));
        assertNotNull(meta(again).getUid());
        assertFalse(meta(again).getUid().equals(meta(pod).getUid()));
    }

    @Test
    @DisplayName("POD-12.16 a force delete of a pod with a finalizer waits for the finalizer, then it goes at once")
    void forceDeleteWithFinalizer() {
        ObjectChanged pod = runningPod(List.of("example.com/hold"));
        ObjectChanged held = delete(pod, null, 0L, null, Decisions.T0.plusSeconds(1)).change().orElseThrow();
        assertEquals(ChangeType.DELETION_STARTED, held.getType());
        assertEquals(0L, meta(held).getDeletionGracePeriodSeconds());
        assertNull(meta(pod).getDeletionTimestamp());
        assertEquals(ChangeType.DELETED, update(held, withFinalizers(held, List.of())).change().orElseThrow().getType());
    }
}
