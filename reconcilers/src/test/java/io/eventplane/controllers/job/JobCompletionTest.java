package io.eventplane.controllers.job;

import static io.eventplane.controllers.job.JobFixtures.active;
import static io.eventplane.controllers.job.JobFixtures.condition;
import static io.eventplane.controllers.job.JobFixtures.exitAfter;
import static io.eventplane.controllers.job.JobFixtures.finished;
import static io.eventplane.controllers.job.JobFixtures.inPhase;
import static io.eventplane.controllers.job.JobFixtures.n;
import static io.eventplane.controllers.job.JobFixtures.pods;
import static io.eventplane.controllers.job.JobFixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Jobs that run to completion (workloads.md §5.2, §5.4, §5.5, §5.7) in a simulated cluster on a virtual clock. */
class JobCompletionTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    @Test
    @DisplayName("AC-JOB-01, AC-JOB-02, JOB-03, JOB-18, JOB-25, JOB-26, JOB-27, JOB-X09: pi runs one pod that exits 0 after 10 s; the Job is Complete and both stay")
    void pi() {
        exitAfter(cluster, 10, 0);
        cluster.create(JobFixtures.pi());
        Job created = cluster.get(Job.class, "pi");
        assertEquals(1, created.getSpec().getCompletions(), "AC-JOB-02: completions default to 1");
        assertEquals(1, created.getSpec().getParallelism(), "AC-JOB-02: parallelism defaults to 1");
        cluster.until(() -> finished(cluster, "pi"), 60);

        Job job = cluster.get(Job.class, "pi");
        JobStatus s = job.getStatus();
        assertNotNull(condition(cluster, "pi", "Complete"));
        JobCondition complete = condition(cluster, "pi", "Complete");
        assertEquals("CompletionsReached", complete.getReason());
        assertEquals("Reached expected number of succeeded pods", complete.getMessage());
        assertEquals(1, n(s.getSucceeded()));
        assertEquals(0, n(s.getActive()));
        assertEquals(0, n(s.getFailed()));
        assertEquals(0, s.getReady());
        assertEquals(0, s.getTerminating());
        assertNotNull(s.getStartTime());
        assertNotNull(s.getCompletionTime());
        long duration = Duration.between(s.getStartTime(), s.getCompletionTime()).toSeconds();
        assertTrue(duration >= 10 && duration <= 16, "Duration about 10 s: " + duration);
        assertTrue(s.getUncountedTerminatedPods() == null || (s.getUncountedTerminatedPods().getSucceeded() == null
                && s.getUncountedTerminatedPods().getFailed() == null), "the ledger is empty");

        List<Pod> pods = pods(cluster, "pi");
        assertEquals(1, pods.size(), "JOB-18: the finished pod stays");
        Pod pod = pods.get(0);
        assertEquals("Succeeded", PodStates.phase(pod));
        assertTrue(pod.getMetadata().getName().matches("pi-[a-z0-9]{5}"), pod.getMetadata().getName());
        Map<String, String> labels = pod.getMetadata().getLabels();
        String uid = job.getMetadata().getUid();
        assertEquals("pi", labels.get("job-name"));
        assertEquals(uid, labels.get("controller-uid"));
        assertEquals("pi", labels.get("batch.kubernetes.io/job-name"));
        assertEquals(uid, labels.get("batch.kubernetes.io/controller-uid"));
        assertEquals(Map.of("batch.kubernetes.io/controller-uid", uid), job.getSpec().getSelector().getMatchLabels());
        assertEquals(List.of("Created pod: " + pod.getMetadata().getName()), cluster.eventsWithReason("SuccessfulCreate"));
        assertEquals(List.of("Job completed"), cluster.eventsWithReason("Completed"));

        cluster.clock.advance(Duration.ofHours(1));
        cluster.step();
        assertNotNull(cluster.get(Job.class, "pi"), "JOB-18: the Job is not deleted");
        assertEquals(1, pods(cluster, "pi").size());
    }

    @Test
    @DisplayName("AC-JOB-03, JOB-07, JOB-10: completions 5 with parallelism unset run one pod at a time, all alike, and complete after 5 successes")
    void fixedCountOneAtATime() {
        exitAfter(cluster, 3, 0);
        cluster.create(JobFixtures.job("five", "Never", s -> s.setCompletions(5)));
        assertEquals(1, cluster.get(Job.class, "five").getSpec().getParallelism());
        cluster.invariant(c -> {
            if (c.get(Job.class, "five") != null) {
                assertTrue(active(c, "five") <= 1, "one at a time");
            }
        });
        cluster.until(() -> finished(cluster, "five"), 120);
        assertNotNull(condition(cluster, "five", "Complete"));
        assertEquals(5, n(status(cluster, "five").getSucceeded()));
        List<Pod> pods = pods(cluster, "five");
        assertEquals(5, pods.size());
        for (Pod p : pods) {
            assertEquals(PodSpec.newBuilder(pods.get(0).getSpec()).setNodeName(null).build(),
                    PodSpec.newBuilder(p.getSpec()).setNodeName(null).build(), "JOB-10: identical specs");
            assertNull(p.getMetadata().getAnnotations(), "JOB-10: no index");
        }
    }

    @Test
    @DisplayName("JOB-01: a Job needs a template and a DNS subdomain name")
    void templateAndNameRequired() {
        Job noTemplate = JobFixtures.job("empty", "Never", s -> { });
        noTemplate.getSpec().setTemplate(null);
        assertEquals(422, cluster.create(noTemplate).getCode());
        assertEquals(422, cluster.create(JobFixtures.job("Not_A_Name", "Never", s -> { })).getCode());
        assertTrue(cluster.create(JobFixtures.job("a.b-c", "Never", s -> { })).getAccepted());
    }

    @Test
    @DisplayName("AC-JOB-04, JOB-09: completions 5 with parallelism 10 never run more than the completions left")
    void neverMoreThanRemaining() {
        exitAfter(cluster, 3, 0);
        cluster.create(JobFixtures.job("capped", "Never", s -> s.setCompletions(5).setParallelism(10)));
        List<Long> actives = new ArrayList<>();
        cluster.invariant(c -> {
            if (c.get(Job.class, "capped") != null) {
                long left = 5 - inPhase(c, "capped", "Succeeded");
                long running = active(c, "capped");
                actives.add(running);
                assertTrue(running <= left, running + " active with " + left + " completions left");
            }
        });
        cluster.until(() -> finished(cluster, "capped"), 60);
        assertEquals(5, actives.stream().mapToLong(Long::longValue).max().orElse(0), "5 ran at once");
        assertEquals(5, pods(cluster, "capped").size());
        assertEquals(5, n(status(cluster, "capped").getSucceeded()));
    }

    @Test
    @DisplayName("AC-JOB-05, JOB-11: a work queue (completions unset, parallelism 3) starts no pod after the first success and completes when the others ended")
    void workQueue() {
        cluster.create(JobFixtures.job("queue", "Never", s -> s.setParallelism(3)));
        assertNull(cluster.get(Job.class, "queue").getSpec().getCompletions(), "D9: completions stay unset");
        List<String> first = new ArrayList<>();
        cluster.exits = p -> {
            if (first.isEmpty()) {
                first.add(p.getMetadata().getName());
            }
            return new SimulatedCluster.Exit(Duration.ofSeconds(first.get(0).equals(p.getMetadata().getName()) ? 5 : 20), 0);
        };
        cluster.until(() -> inPhase(cluster, "queue", "Succeeded") == 1, 30);
        assertEquals(3, pods(cluster, "queue").size());
        cluster.step();
        cluster.step();
        assertEquals(3, pods(cluster, "queue").size(), "no new pod after the first success");
        assertFalse(finished(cluster, "queue"), "the other two still run");
        assertEquals(2, active(cluster, "queue"));
        cluster.until(() -> finished(cluster, "queue"), 60);
        assertNotNull(condition(cluster, "queue", "Complete"));
        assertEquals(3, pods(cluster, "queue").size());
        assertEquals(3, n(status(cluster, "queue").getSucceeded()));
    }

    @Test
    @DisplayName("AC-JOB-06, JOB-08: parallelism 0 pauses the Job; raising it to 2 starts 2 pods")
    void parallelismZeroPauses() {
        cluster.create(JobFixtures.job("paused", "Never", s -> s.setCompletions(4).setParallelism(0)));
        for (int i = 0; i < 30; i++) {
            cluster.step();
        }
        assertEquals(0, pods(cluster, "paused").size());
        Job job = cluster.get(Job.class, "paused");
        cluster.update(Job.newBuilder(job).setSpec(JobSpec.newBuilder(job.getSpec()).setParallelism(2).build()).build());
        cluster.step();
        assertEquals(2, pods(cluster, "paused").size());
        assertEquals(2, n(status(cluster, "paused").getActive()));
    }

    @Test
    @DisplayName("JOB-X05, JOB-X08: a pod is recorded in uncountedTerminatedPods before its finalizer goes, counted after; SuccessCriteriaMet comes before Complete")
    void trackingWithFinalizers() {
        exitAfter(cluster, 2, 0);
        List<String> log = new ArrayList<>();
        Set<String> recorded = new HashSet<>();
        cluster.invariant(c -> {
            Job job = c.get(Job.class, "tracked");
            if (job == null) {
                return;
            }
            JobStatus s = job.getStatus() == null ? new JobStatus() : job.getStatus();
            if (s.getUncountedTerminatedPods() != null && s.getUncountedTerminatedPods().getSucceeded() != null) {
                recorded.addAll(s.getUncountedTerminatedPods().getSucceeded());
            }
            for (Pod p : pods(c, "tracked")) {
                boolean tracked = p.getMetadata().getFinalizers() != null
                        && p.getMetadata().getFinalizers().contains("batch.kubernetes.io/job-tracking");
                if (!tracked) {
                    assertTrue(recorded.contains(p.getMetadata().getUid()), "finalizer removed before the pod was recorded");
                }
            }
            for (String type : List.of("SuccessCriteriaMet", "Complete")) {
                if (JobConditions.findTrue(job, type).isPresent() && !log.contains(type)) {
                    log.add(type);
                }
            }
        });
        cluster.create(JobFixtures.job("tracked", "Never", s -> s.setCompletions(3).setParallelism(3)));
        cluster.step();
        for (Pod p : pods(cluster, "tracked")) {
            assertTrue(p.getMetadata().getFinalizers().contains("batch.kubernetes.io/job-tracking"), "every pod is tracked");
        }
        cluster.until(() -> finished(cluster, "tracked"), 60);
        assertEquals(List.of("SuccessCriteriaMet", "Complete"), log);
        assertEquals(3, recorded.size());
        for (Pod p : pods(cluster, "tracked")) {
            assertFalse(p.getMetadata().getFinalizers() != null && !p.getMetadata().getFinalizers().isEmpty());
        }
        // the counts survive the pods (Pod GC deletes terminated pods)
        for (Pod p : pods(cluster, "tracked")) {
            cluster.delete(Kinds.POD, p.getMetadata().getName());
        }
        cluster.step();
        assertEquals(0, pods(cluster, "tracked").size());
        assertEquals(3, n(status(cluster, "tracked").getSucceeded()));
    }

    @Test
    @DisplayName("JOB-X08: when a Job is deleted without its pods, the job controller removes their tracking finalizers")
    void orphanedPodsLoseTheirFinalizer() {
        cluster.create(JobFixtures.job("gone", "Never", s -> s.setCompletions(2).setParallelism(2)));
        cluster.step();
        assertEquals(2, pods(cluster, "gone").size());
        List<String> names = pods(cluster, "gone").stream().map(p -> p.getMetadata().getName()).toList();
        cluster.delete(Kinds.JOB, "gone", "Background");
        assertNull(cluster.get(Job.class, "gone"));
        cluster.step();
        for (String name : names) {
            Pod p = cluster.get(Pod.class, name);
            assertTrue(p.getMetadata().getFinalizers() == null || p.getMetadata().getFinalizers().isEmpty(), name);
        }
    }
}
