package io.eventplane.controllers.job;

import static io.eventplane.controllers.job.JobFailureTest.onExitCodes;
import static io.eventplane.controllers.job.JobFixtures.condition;
import static io.eventplane.controllers.job.JobFixtures.finished;
import static io.eventplane.controllers.job.JobFixtures.n;
import static io.eventplane.controllers.job.JobFixtures.pods;
import static io.eventplane.controllers.job.JobFixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.EnvVar;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodFailurePolicy;
import io.eventplane.model.SuccessPolicy;
import io.eventplane.model.SuccessPolicyRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToIntBiFunction;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Indexed Jobs (JOB-X01, JOB-X02, JOB-X04) in a simulated cluster on a virtual clock. */
class JobIndexedTest {
    private final SimulatedCluster cluster = new SimulatedCluster();
    /** Attempts seen per index (a pod's first run is its attempt). */
    private final Map<Integer, Set<String>> attempts = new HashMap<>();

    /** Pods exit after 2 s with the code {@code codes} gives for (index, attempt number from 0). */
    private void exits(ToIntBiFunction<Integer, Integer> codes) {
        cluster.exits = p -> {
            int ix = CompletionIndexes.index(p);
            Set<String> seen = attempts.computeIfAbsent(ix, k -> new java.util.LinkedHashSet<>());
            seen.add(p.getMetadata().getName());
            int attempt = new ArrayList<>(seen).indexOf(p.getMetadata().getName());
            return new SimulatedCluster.Exit(Duration.ofSeconds(2), codes.applyAsInt(ix, attempt));
        };
    }

    @Test
    @DisplayName("JOB-X01: Indexed, 5 completions, parallelism 2: each index once, annotation and label, JOB_COMPLETION_INDEX, hostname; a failed index is retried; completedIndexes 0-4")
    void indexed() {
        exits((ix, attempt) -> ix == 1 && attempt == 0 ? 1 : 0);
        cluster.invariant(c -> {
            if (c.get(Job.class, "idx") == null) {
                return;
            }
            Set<Integer> seen = new HashSet<>();
            for (Pod p : pods(c, "idx")) {
                if (PodStates.isActive(p)) {
                    assertTrue(seen.add(CompletionIndexes.index(p)), "two active pods for one index");
                }
            }
            assertTrue(seen.size() <= 2, "parallelism 2");
        });
        cluster.create(JobFixtures.job("idx", "Never", s -> s.setCompletions(5).setParallelism(2).setCompletionMode("Indexed")));
        cluster.until(() -> finished(cluster, "idx"), 120);

        assertNotNull(condition(cluster, "idx", "Complete"));
        JobStatus s = status(cluster, "idx");
        assertEquals("0-4", s.getCompletedIndexes());
        assertEquals(5, n(s.getSucceeded()));
        assertEquals(1, n(s.getFailed()));
        List<Pod> pods = pods(cluster, "idx");
        assertEquals(6, pods.size(), "index 1 ran twice");
        for (Pod p : pods) {
            String ix = p.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index");
            assertEquals(ix, p.getMetadata().getLabels().get("batch.kubernetes.io/job-completion-index"));
            assertEquals("idx-" + ix, p.getSpec().getHostname());
            assertTrue(p.getMetadata().getName().matches("idx-" + ix + "-[a-z0-9]{5}"), p.getMetadata().getName());
            EnvVar env = p.getSpec().getContainers().get(0).getEnv().stream()
                    .filter(e -> e.getName().equals("JOB_COMPLETION_INDEX")).findFirst().orElseThrow();
            assertEquals("metadata.labels['batch.kubernetes.io/job-completion-index']",
                    env.getValueFrom().getFieldRef().getFieldPath());
        }
    }

    @Test
    @DisplayName("JOB-X02: backoffLimitPerIndex 1: index 2 fails twice and is listed in failedIndexes; the others complete; the Job fails with FailedIndexes")
    void backoffLimitPerIndex() {
        exits((ix, attempt) -> ix == 2 ? 1 : 0);
        cluster.create(JobFixtures.job("per-index", "Never", s -> s.setCompletions(5).setParallelism(5)
                .setCompletionMode("Indexed").setBackoffLimitPerIndex(1)));
        assertEquals(Integer.MAX_VALUE, cluster.get(Job.class, "per-index").getSpec().getBackoffLimit());
        cluster.until(() -> finished(cluster, "per-index"), 120);

        JobCondition failed = condition(cluster, "per-index", "Failed");
        assertEquals("FailedIndexes", failed.getReason());
        assertEquals("Job has failed indexes", failed.getMessage());
        JobStatus s = status(cluster, "per-index");
        assertEquals("2", s.getFailedIndexes());
        assertEquals("0,1,3,4", s.getCompletedIndexes());
        assertEquals(2, n(s.getFailed()));
        List<Pod> index2 = pods(cluster, "per-index").stream().filter(p -> CompletionIndexes.index(p) == 2).toList();
        assertEquals(2, index2.size());
        assertEquals(Set.of("0", "1"), Set.of(index2.get(0).getMetadata().getAnnotations().get(CompletionIndexes.FAILURE_COUNT),
                index2.get(1).getMetadata().getAnnotations().get(CompletionIndexes.FAILURE_COUNT)));
    }

    @Test
    @DisplayName("JOB-X02: more failed indexes than maxFailedIndexes fail the Job with MaxFailedIndexesExceeded")
    void maxFailedIndexes() {
        exits((ix, attempt) -> ix < 2 ? 1 : 0);
        cluster.exits = cluster.exits.andThen(e -> new SimulatedCluster.Exit(e.code() == 0 ? Duration.ofSeconds(60)
                : e.after(), e.code()));
        cluster.create(JobFixtures.job("max", "Never", s -> s.setCompletions(4).setParallelism(4)
                .setCompletionMode("Indexed").setBackoffLimitPerIndex(0).setMaxFailedIndexes(1)));
        cluster.until(() -> finished(cluster, "max"), 120);
        assertEquals("MaxFailedIndexesExceeded", condition(cluster, "max", "Failed").getReason());
        assertEquals("Job has exceeded the specified maximal number of failed indexes",
                condition(cluster, "max", "Failed").getMessage());
        OrderedIntervals failed = OrderedIntervals.parse(status(cluster, "max").getFailedIndexes(), 4);
        assertTrue(failed.has(0) && failed.has(1), "indexes 0 and 1 failed; the pods stopped then count too: " + failed);
    }

    @Test
    @DisplayName("JOB-X03: a FailIndex rule fails the index at its first matching failure, whatever backoffLimitPerIndex allows")
    void failIndexRule() {
        exits((ix, attempt) -> ix == 0 ? 7 : 0);
        cluster.create(JobFixtures.job("fail-index", "Never", s -> s.setCompletions(3).setParallelism(3)
                .setCompletionMode("Indexed").setBackoffLimitPerIndex(3)
                .setPodFailurePolicy(PodFailurePolicy.newBuilder().setRules(List.of(onExitCodes("FailIndex", "In", 7))).build())));
        cluster.until(() -> finished(cluster, "fail-index"), 120);
        assertEquals("0", status(cluster, "fail-index").getFailedIndexes());
        assertEquals(1, pods(cluster, "fail-index").stream().filter(p -> CompletionIndexes.index(p) == 0).count(),
                "no retry of index 0");
        assertEquals("FailedIndexes", condition(cluster, "fail-index", "Failed").getReason());
    }

    @Test
    @DisplayName("JOB-X04, JOB-X05: a success policy on index 0: once it succeeds, SuccessCriteriaMet (SuccessPolicy), the lingering pods are stopped, then Complete")
    void successPolicy() {
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(CompletionIndexes.index(p) == 0 ? 2 : 600), 0);
        List<String> order = new ArrayList<>();
        cluster.invariant(c -> {
            Job j = c.get(Job.class, "leader");
            for (String type : List.of("SuccessCriteriaMet", "Complete")) {
                if (j != null && JobConditions.findTrue(j, type).isPresent() && !order.contains(type)) {
                    order.add(type);
                }
            }
        });
        cluster.create(JobFixtures.job("leader", "Never", s -> s.setCompletions(4).setParallelism(4)
                .setCompletionMode("Indexed").setSuccessPolicy(SuccessPolicy.newBuilder().setRules(List.of(
                        SuccessPolicyRule.newBuilder().setSucceededIndexes("0").build())).build())));
        cluster.until(() -> finished(cluster, "leader"), 60);
        JobCondition complete = condition(cluster, "leader", "Complete");
        assertEquals("SuccessPolicy", complete.getReason());
        assertEquals("Matched rules at index 0", complete.getMessage());
        assertEquals(List.of("SuccessCriteriaMet", "Complete"), order);
        assertEquals("0", status(cluster, "leader").getCompletedIndexes());
        assertEquals(3, cluster.eventsWithReason("SuccessfulDelete").size(), "the 3 lingering pods were stopped");
        assertTrue(pods(cluster, "leader").stream().noneMatch(PodStates::isActive));
    }
}
