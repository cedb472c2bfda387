package io.eventplane.controllers.ttlafterfinished;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.job.JobConditions;
import io.eventplane.model.Container;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The TTL-after-finished controller (workloads.md §7): the decision as a table, and Jobs in a simulated cluster. */
class TtlAfterFinishedTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final SimulatedCluster cluster = new SimulatedCluster();

    /** A Job that finished (Complete or Failed) at T0, with the TTL given (null: none). */
    private static Job finishedAt(String condition, Integer ttl, boolean deleting) {
        JobCondition c = JobCondition.newBuilder().setType(condition).setStatus("True").setLastTransitionTime(T0).build();
        return Job.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("pi").setNamespace("default").setUid("u1")
                        .setResourceVersion("42").setDeletionTimestamp(deleting ? T0 : null).build())
                .setSpec(JobSpec.newBuilder().setTtlSecondsAfterFinished(ttl).build())
                .setStatus(JobStatus.newBuilder().setConditions(condition.isEmpty() ? null : List.of(c)).build()).build();
    }

    @ParameterizedTest(name = "{0}: {1} finished at T0 with TTL {2}, at T0+{3}s -> {4}")
    @CsvSource(delimiter = '|', value = {
            "AC-TTL-01, TTL-02 | Complete | 100 | 99 | wake in 1s",
            "AC-TTL-01, TTL-02 | Complete | 100 | 100 | delete",
            "AC-TTL-02, TTL-03 | Complete | 0 | 0 | delete",
            "AC-TTL-03, TTL-03 | Complete |  | 100000 | nothing",
            "AC-TTL-06 | Failed | 10 | 10 | delete",
            "JOB-22: not finished | '' | 10 | 100 | nothing",
            "TTL-04: already being deleted | Complete | 10 | 100 | nothing"})
    void decide(String id, String condition, Integer ttl, long at, String expected) {
        boolean deleting = id.startsWith("TTL-04");
        Reconciliation r = TtlAfterFinishedReconciler.decide(finishedAt(condition, ttl, deleting), T0.plusSeconds(at));
        switch (expected) {
            case "delete" -> {
                assertEquals(1, r.actions().size());
                Action.Delete d = (Action.Delete) r.actions().get(0);
                assertEquals("pi", d.name());
                assertEquals("u1", d.uid());
                assertEquals("42", d.resourceVersion(), "TTL-X01: only the Job the decision saw is deleted");
                assertEquals("Background", d.propagationPolicy(), "TTL-04: its pods go with it");
            }
            case "nothing" -> assertEquals(Reconciliation.NOTHING, r);
            default -> {
                assertTrue(r.actions().isEmpty());
                assertEquals(Duration.ofSeconds(1).plusMillis(10), r.requeueAfter());
            }
        }
    }

    private static Job job(String name, Integer ttl) {
        Container c = Container.newBuilder().setName("pi").setImage("perl:5.34.0").build();
        return Job.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").build())
                .setSpec(JobSpec.newBuilder().setTtlSecondsAfterFinished(ttl).setTemplate(PodTemplateSpec.newBuilder()
                        .setSpec(PodSpec.newBuilder().setContainers(List.of(c)).setRestartPolicy("Never").build()).build())
                        .build()).build();
    }

    private Instant finishTime(String name) {
        return JobConditions.finishTime(cluster.get(Job.class, name)).orElse(null);
    }

    private boolean finished(String name) {
        return cluster.get(Job.class, name) != null && JobConditions.isFinished(cluster.get(Job.class, name));
    }

    @Test
    @DisplayName("AC-TTL-01, TTL-02, TTL-07: pi-with-ttl (100 s) is not deleted before it finished + 100 s and is deleted at once after, timed by its stored finish time")
    void piWithTtl() {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(10), 0);
        cluster.create(job("pi-with-ttl", 100));
        cluster.until(() -> finished("pi-with-ttl"), 60);
        Instant t0 = finishTime("pi-with-ttl");
        cluster.until(() -> cluster.get(Job.class, "pi-with-ttl") == null, 200);
        Instant deletedAt = cluster.clock.instant();
        long after = Duration.between(t0, deletedAt).toSeconds();
        assertTrue(after >= 100 && after <= 102, "deleted " + after + " s after it finished");
        // no GC runs in the simulated cluster: the pods stay, but the job controller took their finalizers off
        for (Pod p : cluster.list(Pod.class)) {
            assertTrue(p.getMetadata().getFinalizers() == null || p.getMetadata().getFinalizers().isEmpty());
        }
    }

    @Test
    @DisplayName("TTL-01: the TTL controller looks only at Jobs")
    void onlyJobs() {
        var reconciler = new TtlAfterFinishedReconciler();
        assertEquals("Job", reconciler.kind());
        Pod pod = Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("p").setNamespace("default").build()).build();
        var change = io.eventplane.log.ObjectChanged.newBuilder().setKind("Pod").setNamespace("default").setName("p")
                .setType(io.eventplane.log.ChangeType.CREATED).setObject(pod).setUid("u").setResourceVersion(1L)
                .setEnvelope(io.eventplane.log.Envelope.newBuilder().setActor("a").setRequestId("r").setTime(T0).build())
                .build();
        assertTrue(reconciler.keysFor(change, null, null).isEmpty());
    }

    @Test
    @DisplayName("AC-TTL-05, TTL-06: a TTL extended after it expired is accepted by the API; the Job may or may not still be deleted")
    void extendedAfterExpiry() {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(1), 0);
        Job j = job("late", null);
        cluster.create(j);
        cluster.until(() -> finished("late"), 60);
        cluster.clock.advance(Duration.ofSeconds(30));
        Job done = cluster.get(Job.class, "late");
        assertTrue(cluster.update(Job.newBuilder(done).setSpec(JobSpec.newBuilder(done.getSpec())
                .setTtlSecondsAfterFinished(10).build()).build()).getAccepted());
        Job expired = cluster.get(Job.class, "late");
        assertTrue(cluster.update(Job.newBuilder(expired).setSpec(JobSpec.newBuilder(expired.getSpec())
                .setTtlSecondsAfterFinished(3600).build()).build()).getAccepted(), "the extension is accepted");
        cluster.step();
        Job after = cluster.get(Job.class, "late");
        assertTrue(after == null || after.getSpec().getTtlSecondsAfterFinished() == 3600, "either outcome is allowed");
    }

    @Test
    @DisplayName("AC-TTL-03: a finished Job without a TTL is never deleted by the TTL controller")
    void noTtl() {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(1), 0);
        cluster.create(job("keep", null));
        cluster.until(() -> finished("keep"), 60);
        cluster.clock.advance(Duration.ofDays(30));
        cluster.step();
        assertNotNull(cluster.get(Job.class, "keep"));
    }

    @Test
    @DisplayName("AC-TTL-04, TTL-05: a TTL set on a Job that finished long ago deletes it at once (it counts from the finish)")
    void ttlSetLater() {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(1), 1);
        Job failing = job("old", null);
        failing.getSpec().setBackoffLimit(0);
        cluster.create(failing);
        cluster.until(() -> finished("old"), 60);
        assertEquals("Failed", JobConditions.findTrue(cluster.get(Job.class, "old"), "Failed").orElseThrow().getType(),
                "AC-TTL-06: a Failed Job too");
        cluster.clock.advance(Duration.ofHours(1));
        Job j = cluster.get(Job.class, "old");
        cluster.update(Job.newBuilder(j).setSpec(JobSpec.newBuilder(j.getSpec()).setTtlSecondsAfterFinished(10).build()).build());
        cluster.step();
        assertNull(cluster.get(Job.class, "old"));
    }

    @Test
    @DisplayName("TTL-05, TTL-06, TTL-X01: a TTL extended before it expires is honoured; a delete decided on the old TTL is refused by the writer")
    void extendedTtl() {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(1), 0);
        cluster.create(job("extend", 30));
        cluster.until(() -> finished("extend"), 60);
        Instant t0 = finishTime("extend");
        cluster.clock.advance(Duration.ofSeconds(20));
        Job seen = cluster.get(Job.class, "extend");
        cluster.update(Job.newBuilder(seen).setSpec(JobSpec.newBuilder(seen.getSpec()).setTtlSecondsAfterFinished(300)
                .build()).build());
        // a decision made on the Job as it was before the extension, once its old TTL expired
        Reconciliation stale = TtlAfterFinishedReconciler.decide(seen, t0.plusSeconds(31));
        Action.Delete d = (Action.Delete) stale.actions().get(0);
        var outcome = cluster.submit(new io.eventplane.client.Commands("ttl-after-finished-controller", cluster.clock)
                .deleteWith(io.eventplane.core.kinds.Kinds.JOB, "default", "extend",
                        io.eventplane.log.Preconditions.newBuilder().setUid(d.uid()).setResourceVersion(d.resourceVersion())
                                .build(),
                        io.eventplane.log.DeleteOptions.newBuilder().setPropagationPolicy(d.propagationPolicy()).build()));
        assertEquals(409, outcome.getCode(), "the extension landed first: the stale delete is refused");
        cluster.until(() -> Duration.between(t0, cluster.clock.instant()).toSeconds() >= 250, 400);
        assertNotNull(cluster.get(Job.class, "extend"), "not deleted at the old expiry");
        cluster.until(() -> cluster.get(Job.class, "extend") == null, 100);
        assertTrue(Duration.between(t0, cluster.clock.instant()).toSeconds() >= 300);
    }
}
