package io.eventplane.controllers.job;

import static io.eventplane.controllers.job.JobFixtures.active;
import static io.eventplane.controllers.job.JobFixtures.condition;
import static io.eventplane.controllers.job.JobFixtures.exitAfter;
import static io.eventplane.controllers.job.JobFixtures.finished;
import static io.eventplane.controllers.job.JobFixtures.n;
import static io.eventplane.controllers.job.JobFixtures.pods;
import static io.eventplane.controllers.job.JobFixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.CommandOutcome;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Suspending, replacing and adopting (JOB-04, JOB-05, JOB-X06, JOB-X07) in a simulated cluster on a virtual clock. */
class JobLifecycleTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    private void suspend(String name, boolean suspend) {
        Job job = cluster.get(Job.class, name);
        CommandOutcome o = cluster.update(Job.newBuilder(job).setSpec(JobSpec.newBuilder(job.getSpec()).setSuspend(suspend)
                .build()).build());
        assertTrue(o.getAccepted(), o.getMessage());
    }

    @Test
    @DisplayName("JOB-X06: created suspended: no pods, Suspended=True (JobSuspended), no startTime, and the deadline does not run; resumed: pods, Suspended=False (JobResumed)")
    void createdSuspended() {
        cluster.create(JobFixtures.job("later", "Never", s -> s.setCompletions(2).setParallelism(2).setSuspend(true)
                .setActiveDeadlineSeconds(10L)));
        for (int i = 0; i < 30; i++) {
            cluster.step();
        }
        assertEquals(0, pods(cluster, "later").size());
        JobCondition suspended = condition(cluster, "later", "Suspended");
        assertEquals("JobSuspended", suspended.getReason());
        assertEquals("Job suspended", suspended.getMessage());
        assertNull(status(cluster, "later").getStartTime());
        assertFalse(finished(cluster, "later"), "the deadline does not run while suspended");
        assertEquals(List.of("Job suspended"), cluster.eventsWithReason("Suspended"));

        suspend("later", false);
        cluster.step();
        assertEquals(2, pods(cluster, "later").size());
        JobCondition resumed = status(cluster, "later").getConditions().stream()
                .filter(c -> c.getType().equals("Suspended")).findFirst().orElseThrow();
        assertEquals("False", resumed.getStatus());
        assertEquals("JobResumed", resumed.getReason());
        assertEquals("Job resumed", resumed.getMessage());
        assertNotNull(status(cluster, "later").getStartTime());
        assertEquals(List.of("Job resumed"), cluster.eventsWithReason("Resumed"));
    }

    @Test
    @DisplayName("JOB-X06: suspending a running Job stops its pods without counting them as failed; resuming restarts the deadline clock")
    void suspendRunning() {
        exitAfter(cluster, 50, 0);
        cluster.create(JobFixtures.job("pause", "Never", s -> s.setCompletions(3).setParallelism(3).setBackoffLimit(0)
                .setActiveDeadlineSeconds(40L)));
        for (int i = 0; i < 30; i++) {
            cluster.step();
        }
        assertEquals(3, active(cluster, "pause"));
        suspend("pause", true);
        for (int i = 0; i < 5; i++) {
            cluster.step();
        }
        assertEquals(0, active(cluster, "pause"));
        assertEquals(0, n(status(cluster, "pause").getFailed()), "stopped pods are not failures");
        assertFalse(finished(cluster, "pause"), "backoffLimit 0 not hit");
        assertEquals(3, cluster.eventsWithReason("SuccessfulDelete").size());
        java.time.Instant before = status(cluster, "pause").getStartTime();
        for (int i = 0; i < 60; i++) {
            cluster.step();
        }
        assertFalse(finished(cluster, "pause"), "no deadline while suspended");
        suspend("pause", false);
        cluster.step();
        assertTrue(status(cluster, "pause").getStartTime().isAfter(before), "startTime starts over on resume");
        assertEquals(3, active(cluster, "pause"));
    }

    @ParameterizedTest(name = "JOB-X07: podReplacementPolicy {0}: a deleted pod is replaced {1}")
    @CsvSource({"TerminatingOrFailed,while it terminates (after the back-off its failure starts)",
            "Failed,only once it has failed"})
    void replacementPolicy(String policy, String when) {
        cluster.create(JobFixtures.job("replace", "Never", s -> s.setCompletions(1).setPodReplacementPolicy(policy)));
        cluster.step();
        cluster.step();
        Pod first = pods(cluster, "replace").get(0);
        // a user deletes the pod; the kubelet has not stopped it yet
        cluster.delete(Kinds.POD, first.getMetadata().getName());
        cluster.stepJobs();
        cluster.stepJobs();
        assertEquals(1, n(status(cluster, "replace").getTerminating()), "status.terminating");
        cluster.clock.advance(Duration.ofSeconds(11));
        cluster.stepJobs();
        cluster.stepJobs();
        assertNotNull(cluster.get(Pod.class, first.getMetadata().getName()).getMetadata().getDeletionTimestamp(),
                "the first pod still terminates");
        if (policy.equals("TerminatingOrFailed")) {
            assertEquals(2, cluster.eventsWithReason("SuccessfulCreate").size(), "replaced while it terminates");
            assertEquals(1, n(status(cluster, "replace").getFailed()), "a deleted pod counts as failed");
        } else {
            assertEquals(1, cluster.eventsWithReason("SuccessfulCreate").size(), "not while it terminates");
            cluster.until(() -> cluster.eventsWithReason("SuccessfulCreate").size() == 2, 30);
            assertTrue(pods(cluster, "replace").stream().noneMatch(p -> p.getMetadata().getUid()
                    .equals(first.getMetadata().getUid())), "replaced after it failed and went");
        }
    }

    @Test
    @DisplayName("AC-JOB-12, AC-JOB-13, JOB-04, JOB-05: after old is deleted with --cascade=orphan, new with manualSelector adopts its running pods; without manualSelector the selector is refused")
    void manualSelectorAdoption() {
        cluster.create(JobFixtures.job("old", "Never", s -> s.setCompletions(2).setParallelism(2)));
        cluster.step();
        cluster.step();
        Job old = cluster.get(Job.class, "old");
        LabelSelector selector = old.getSpec().getSelector();
        List<Pod> running = pods(cluster, "old");
        assertEquals(2, running.size());

        cluster.delete(Kinds.JOB, "old", "Orphan");
        // what the garbage collector does for an orphaning delete: the pods lose the reference, the Job its finalizer
        for (Pod p : running) {
            Pod now = cluster.get(Pod.class, p.getMetadata().getName());
            cluster.update(Pod.newBuilder(now).setMetadata(Owners.release(now.getMetadata(), old.getMetadata().getUid()))
                    .build());
        }
        Job deleting = cluster.get(Job.class, "old");
        cluster.update(Job.newBuilder(deleting).setMetadata(ObjectMeta.newBuilder(deleting.getMetadata())
                .setFinalizers(List.of()).build()).build());
        assertNull(cluster.get(Job.class, "old"));

        Job template = Job.newBuilder(JobFixtures.job("new", "Never", s -> s.setCompletions(2).setParallelism(2)))
                .build();
        template.getSpec().setTemplate(old.getSpec().getTemplate());
        template.getSpec().setSelector(selector);
        CommandOutcome refused = cluster.create(template);
        assertFalse(refused.getAccepted(), "AC-JOB-13: a selector without manualSelector is refused");
        template.getSpec().setManualSelector(true);
        assertTrue(cluster.create(template).getAccepted());
        cluster.step();
        cluster.step();

        Job created = cluster.get(Job.class, "new");
        assertNotEquals(old.getMetadata().getUid(), created.getMetadata().getUid());
        for (Pod p : running) {
            Pod now = cluster.get(Pod.class, p.getMetadata().getName());
            assertNotNull(now, "the old pods keep running");
            assertNull(now.getMetadata().getDeletionTimestamp());
            assertTrue(Owners.isControlledBy(now.getMetadata(), created.getMetadata().getUid()), "controlled by new");
            assertTrue(now.getMetadata().getFinalizers().contains(FinalizerTracking.FINALIZER), "tracked again");
        }
        assertEquals(2, cluster.eventsWithReason("SuccessfulCreate").size(), "new created no pod of its own");
        assertEquals(2, n(status(cluster, "new").getActive()));
        exitAfter(cluster, 1, 0);
        cluster.until(() -> finished(cluster, "new"), 30);
        assertNotNull(condition(cluster, "new", "Complete"), "new counts the adopted pods' completions");
        assertEquals(2, n(status(cluster, "new").getSucceeded()));
    }

    @Test
    @DisplayName("JOB-X07: status.terminating counts deleted pods that have not stopped; the Job is not finished before they stop")
    void terminatingDelaysTheEnd() {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(1), 1);
        cluster.create(JobFixtures.job("stop", "Never", s -> s.setBackoffLimit(0).setCompletions(2).setParallelism(2)));
        cluster.until(() -> condition(cluster, "stop", "FailureTarget") != null, 30);
        cluster.until(() -> finished(cluster, "stop"), 30);
        assertEquals(0, n(status(cluster, "stop").getTerminating()));
        assertEquals("BackoffLimitExceeded", condition(cluster, "stop", "Failed").getReason());
    }
}
