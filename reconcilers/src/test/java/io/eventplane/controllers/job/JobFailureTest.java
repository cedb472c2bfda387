package io.eventplane.controllers.job;

import static io.eventplane.controllers.job.JobFixtures.condition;
import static io.eventplane.controllers.job.JobFixtures.exitAfter;
import static io.eventplane.controllers.job.JobFixtures.finished;
import static io.eventplane.controllers.job.JobFixtures.n;
import static io.eventplane.controllers.job.JobFixtures.pods;
import static io.eventplane.controllers.job.JobFixtures.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.meta.PodStates;
import io.eventplane.log.CommandOutcome;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodFailurePolicy;
import io.eventplane.model.PodFailurePolicyOnExitCodesRequirement;
import io.eventplane.model.PodFailurePolicyOnPodConditionsPattern;
import io.eventplane.model.PodFailurePolicyRule;
import io.eventplane.model.PodStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Jobs that fail (workloads.md §5.3, §5.4, JOB-X03, JOB-X05) in a simulated cluster on a virtual clock. */
class JobFailureTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    /** When each pod finished (its container's finishedAt), in creation order. */
    private List<Instant> finishTimes(String job) {
        List<Instant> out = new ArrayList<>();
        for (Pod p : pods(cluster, job)) {
            ContainerStatus s = p.getStatus() == null || p.getStatus().getContainerStatuses() == null ? null
                    : p.getStatus().getContainerStatuses().get(0);
            if (s != null && s.getState().getTerminated() != null) {
                out.add(s.getState().getTerminated().getFinishedAt());
            }
        }
        return out;
    }

    /** The seconds from each pod's failure to the next pod's creation. */
    private List<Long> delays(String job) {
        List<Pod> pods = pods(cluster, job);
        List<Instant> finished = finishTimes(job);
        List<Long> out = new ArrayList<>();
        for (int i = 0; i + 1 < pods.size(); i++) {
            out.add(Duration.between(finished.get(i), pods.get(i + 1).getMetadata().getCreationTimestamp()).toSeconds());
        }
        return out;
    }

    private List<String> conditionOrder(String job) {
        List<String> log = new ArrayList<>();
        cluster.invariant(c -> {
            Job j = c.get(Job.class, job);
            if (j != null) {
                for (String type : List.of("FailureTarget", "Failed", "SuccessCriteriaMet", "Complete")) {
                    if (JobConditions.findTrue(j, type).isPresent() && !log.contains(type)) {
                        log.add(type);
                    }
                }
            }
        });
        return log;
    }

    @Test
    @DisplayName("AC-JOB-07, JOB-12, JOB-14, JOB-15, JOB-17, JOB-X05: Never, always exit 1, backoffLimit 4: replacements after 10, 20, 40, 80 s, then FailureTarget and Failed (BackoffLimitExceeded)")
    void backoff() {
        exitAfter(cluster, 1, 1);
        List<String> order = conditionOrder("pi");
        cluster.create(JobFixtures.pi());
        cluster.until(() -> finished(cluster, "pi"), 400);

        assertEquals(5, pods(cluster, "pi").size(), "backoffLimit 4: 5 attempts");
        List<Long> delays = delays("pi");
        long[] expected = {10, 20, 40, 80};
        for (int i = 0; i < expected.length; i++) {
            assertTrue(delays.get(i) >= expected[i] && delays.get(i) <= expected[i] + 1, "delays " + delays);
        }
        JobCondition failed = condition(cluster, "pi", "Failed");
        assertEquals("BackoffLimitExceeded", failed.getReason());
        assertEquals("Job has reached the specified backoff limit", failed.getMessage());
        assertEquals(List.of("FailureTarget", "Failed"), order);
        assertEquals(5, n(status(cluster, "pi").getFailed()));
        assertNull(status(cluster, "pi").getCompletionTime(), "completionTime is set on success only");
        assertEquals(List.of("Job has reached the specified backoff limit"), cluster.eventsWithReason("BackoffLimitExceeded"));

        cluster.clock.advance(Duration.ofHours(1));
        for (int i = 0; i < 10; i++) {
            cluster.step();
        }
        assertEquals(5, pods(cluster, "pi").size(), "AC-JOB-10, JOB-21: a Failed Job is never restarted");
        assertNotNull(condition(cluster, "pi", "Failed"));
    }

    @Test
    @DisplayName("JOB-15: the back-off doubles up to 6 minutes and stays there")
    void backoffCap() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        long[] expected = {0, 10, 20, 40, 80, 160, 320, 360, 360};
        for (int failures = 0; failures < expected.length; failures++) {
            assertEquals(Duration.ofSeconds(expected[failures]), BackoffRecord.remaining(t, failures, t), "failures " + failures);
        }
        assertEquals(Duration.ofSeconds(4), BackoffRecord.remaining(t.plusSeconds(16), 2, t), "20 s after a failure 16 s ago");
    }

    @Test
    @DisplayName("JOB-16: a success between failures resets the back-off to 10 s")
    void successResetsBackoff() {
        // pods in creation order: fail, succeed, fail, succeed, succeed
        Map<String, Integer> ordinal = new HashMap<>();
        int[] codes = {1, 0, 1, 0, 0};
        cluster.exits = p -> new SimulatedCluster.Exit(Duration.ofSeconds(1),
                codes[ordinal.computeIfAbsent(p.getMetadata().getName(), k -> ordinal.size())]);
        cluster.create(JobFixtures.job("reset", "Never", s -> s.setCompletions(3)));
        cluster.until(() -> finished(cluster, "reset"), 200);
        assertNotNull(condition(cluster, "reset", "Complete"));
        List<Long> delays = delays("reset");
        assertEquals(4, delays.size(), "delays " + delays);
        assertTrue(delays.get(0) >= 10 && delays.get(0) <= 11, "after the first failure: " + delays);
        assertTrue(delays.get(1) <= 2, "after a success: at once " + delays);
        assertTrue(delays.get(2) >= 10 && delays.get(2) <= 11, "after a failure that follows a success: 10 s again " + delays);
    }

    @Test
    @DisplayName("AC-JOB-08, JOB-12, JOB-17: OnFailure restarts the container in the same pod; at the backoff limit the pod is stopped and the Job Failed")
    void onFailureRestartsInPlace() {
        exitAfter(cluster, 2, 1);
        cluster.create(JobFixtures.job("retry", "OnFailure", s -> s.setBackoffLimit(3)));
        List<Integer> restarts = new ArrayList<>();
        cluster.invariant(c -> pods(c, "retry").forEach(p -> restarts.add(PodStates.restarts(p))));
        cluster.until(() -> finished(cluster, "retry"), 120);
        assertEquals(1, cluster.eventsWithReason("SuccessfulCreate").size(), "no new pod: the kubelet restarts the container");
        assertEquals(3, restarts.stream().mapToInt(Integer::intValue).max().orElse(0));
        assertEquals("BackoffLimitExceeded", condition(cluster, "retry", "Failed").getReason());
        assertEquals(1, cluster.eventsWithReason("SuccessfulDelete").size(), "the running pod was killed");
        assertEquals(1, n(status(cluster, "retry").getFailed()));
    }

    @Test
    @DisplayName("AC-JOB-09, JOB-06, JOB-19, JOB-20: pi-with-timeout (backoffLimit 5, activeDeadlineSeconds 100): at 100 s running pods stop, Failed DeadlineExceeded, no new pods")
    void activeDeadline() {
        exitAfter(cluster, 30, 1);
        Instant start = cluster.clock.instant();
        cluster.create(JobFixtures.job("pi-with-timeout", "Never", s -> s.setBackoffLimit(5).setActiveDeadlineSeconds(100L)));
        cluster.until(() -> finished(cluster, "pi-with-timeout"), 200);
        JobCondition failed = condition(cluster, "pi-with-timeout", "Failed");
        assertEquals("DeadlineExceeded", failed.getReason());
        assertEquals("Job was active longer than specified deadline", failed.getMessage());
        long at = Duration.between(start, failed.getLastTransitionTime()).toSeconds();
        assertTrue(at >= 100 && at <= 105, "failed at " + at);
        List<Pod> pods = pods(cluster, "pi-with-timeout");
        assertTrue(pods.size() < 6, "retries were left: " + pods.size());
        for (Pod p : pods) {
            assertTrue(Duration.between(start, p.getMetadata().getCreationTimestamp()).toSeconds() < 100,
                    "no pod created after the deadline");
        }
        assertTrue(pods.stream().anyMatch(p -> p.getMetadata().getDeletionTimestamp() != null
                        || cluster.get(Pod.class, p.getMetadata().getName()) == null)
                || pods.stream().allMatch(PodStates::isTerminal), "the running pod was stopped");
        assertTrue(pods.stream().noneMatch(PodStates::isActive));
    }

    @ParameterizedTest(name = "AC-JOB-11, JOB-02: a template with restartPolicy {0} is refused")
    @ValueSource(strings = {"Always", ""})
    void restartPolicyAlwaysRefused(String policy) {
        CommandOutcome o = cluster.create(JobFixtures.job("bad", policy.isEmpty() ? null : policy, s -> { }));
        assertFalse(o.getAccepted());
        assertEquals(422, o.getCode());
    }

    private static PodFailurePolicy policy(PodFailurePolicyRule... rules) {
        return PodFailurePolicy.newBuilder().setRules(List.of(rules)).build();
    }

    static PodFailurePolicyRule onExitCodes(String action, String operator, Integer... codes) {
        return PodFailurePolicyRule.newBuilder().setAction(action).setOnExitCodes(PodFailurePolicyOnExitCodesRequirement
                .newBuilder().setOperator(operator).setValues(List.of(codes)).build()).build();
    }

    static PodFailurePolicyRule onCondition(String action, String type) {
        return PodFailurePolicyRule.newBuilder().setAction(action).setOnPodConditions(List.of(
                PodFailurePolicyOnPodConditionsPattern.newBuilder().setType(type).setStatus("True").build())).build();
    }

    @Test
    @DisplayName("JOB-X03, JOB-X05: a FailJob rule on exit code 42 fails the Job at once (FailureTarget, then Failed, reason PodFailurePolicy)")
    void failJobRule() {
        exitAfter(cluster, 1, 42);
        List<String> order = conditionOrder("policy");
        cluster.create(JobFixtures.job("policy", "Never", s -> s.setBackoffLimit(6)
                .setPodFailurePolicy(policy(onExitCodes("FailJob", "In", 42)))));
        assertEquals("Failed", cluster.get(Job.class, "policy").getSpec().getPodReplacementPolicy(),
                "JOB-X07: Failed is the default with a pod failure policy");
        cluster.until(() -> finished(cluster, "policy"), 60);
        JobCondition failed = condition(cluster, "policy", "Failed");
        String pod = pods(cluster, "policy").get(0).getMetadata().getName();
        assertEquals("PodFailurePolicy", failed.getReason());
        assertEquals("Container pi for pod default/" + pod + " failed with exit code 42 matching FailJob rule at index 0",
                failed.getMessage());
        assertEquals(List.of("FailureTarget", "Failed"), order);
        assertEquals(1, pods(cluster, "policy").size(), "no retry");
    }

    @Test
    @DisplayName("JOB-X03: an Ignore rule on DisruptionTarget does not count an evicted pod; it is replaced and the Job completes with backoffLimit 0")
    void ignoreDisruption() {
        cluster.create(JobFixtures.job("evicted", "Never", s -> s.setBackoffLimit(0)
                .setPodFailurePolicy(policy(onCondition("Ignore", "DisruptionTarget"), onExitCodes("Count", "NotIn", 0)))));
        cluster.step();
        cluster.step();
        Pod first = pods(cluster, "evicted").get(0);
        cluster.submit(new Commands("node-controller", cluster.clock).updateStatus(evicted(cluster.get(Pod.class,
                first.getMetadata().getName()), cluster.clock.instant())));
        exitAfter(cluster, 3, 0);
        cluster.until(() -> finished(cluster, "evicted"), 60);
        assertNotNull(condition(cluster, "evicted", "Complete"));
        assertEquals(0, n(status(cluster, "evicted").getFailed()), "the evicted pod does not count");
        assertEquals(2, pods(cluster, "evicted").size());
    }

    @Test
    @DisplayName("JOB-X03: a Count rule counts as without a policy: backoffLimit 0 fails the Job on the first failure")
    void countRule() {
        exitAfter(cluster, 1, 3);
        cluster.create(JobFixtures.job("counted", "Never", s -> s.setBackoffLimit(0)
                .setPodFailurePolicy(policy(onCondition("Ignore", "DisruptionTarget"), onExitCodes("Count", "NotIn", 0)))));
        cluster.until(() -> finished(cluster, "counted"), 60);
        assertEquals("BackoffLimitExceeded", condition(cluster, "counted", "Failed").getReason());
        assertEquals(1, n(status(cluster, "counted").getFailed()));
    }

    /** What the taint manager's or the kubelet's eviction leaves: Failed, DisruptionTarget, the container killed. */
    static Pod evicted(Pod p, Instant now) {
        List<PodCondition> conditions = new ArrayList<>(p.getStatus().getConditions());
        conditions.add(PodCondition.newBuilder().setType("DisruptionTarget").setStatus("True")
                .setReason("DeletionByTaintManager").setLastTransitionTime(now).build());
        List<ContainerStatus> statuses = new ArrayList<>();
        for (ContainerStatus s : p.getStatus().getContainerStatuses()) {
            statuses.add(ContainerStatus.newBuilder(s).setReady(false).setState(ContainerState.newBuilder()
                    .setTerminated(ContainerStateTerminated.newBuilder().setExitCode(137).setReason("Error")
                            .setFinishedAt(now).build()).build()).build());
        }
        return Pod.newBuilder(p).setStatus(PodStatus.newBuilder(p.getStatus()).setPhase("Failed").setConditions(conditions)
                .setContainerStatuses(statuses).build()).build();
    }
}
