package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.probe;
import static io.eventplane.nodesim.PodRunHarness.sidecar;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.EphemeralContainer;
import io.eventplane.model.PodSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** What the simulated kubelet shows of probes, phases, init containers and sidecars over a pod's life. */
class PodRunProbesAndPhasesTest {
    private static final Set<String> PHASES = Set.of("Pending", "Running", "Succeeded", "Failed", "Unknown");

    static Stream<Arguments> lives() {
        return Stream.of(
                Arguments.of("a crash loop", (Supplier<PodRunHarness>) () -> new PodRunHarness(
                        pod("Always", sim("run-duration", "1s", "exit-code", "1"), c("c"))).until(400)),
                Arguments.of("OOM kills under OnFailure", (Supplier<PodRunHarness>) () -> new PodRunHarness(
                        pod("OnFailure", sim("oom-after", "2s"), c("c"))).until(400)),
                Arguments.of("an init container failing under Never", (Supplier<PodRunHarness>) () -> new PodRunHarness(
                        pod("Never", sim("run-duration.i", "2s", "exit-code.i", "1"), List.of(c("i")), List.of(c("c"))))
                        .until(100)),
                Arguments.of("a graceful deletion of a program that ignores SIGTERM", (Supplier<PodRunHarness>) () ->
                        new PodRunHarness(pod("Always", sim("ignores-sigterm", "true"), c("c"))).until(10).delete(30)
                                .until(100)),
                Arguments.of("a run to completion", (Supplier<PodRunHarness>) () -> new PodRunHarness(
                        pod("Never", sim("run-duration", "5s"), c("c"))).until(100)));
    }

    @ParameterizedTest(name = "POD-3.1 POD-3.9 {0}: every phase written is Pending, Running, Succeeded, Failed or "
            + "Unknown, never Terminating or CrashLoopBackOff")
    @MethodSource("lives")
    void phasesOnly(String life, Supplier<PodRunHarness> run) {
        PodRunHarness h = run.get();
        assertTrue(h.history.size() > 2, "the pod went through several statuses");
        for (PodRunHarness.Snapshot s : h.history) {
            assertTrue(PHASES.contains(s.pod().getStatus().getPhase()), s.second() + "s: " + s.pod().getStatus().getPhase());
        }
    }

    @Test
    @DisplayName("POD-3.9 a crash-looping pod shows CrashLoopBackOff as its container's waiting reason while its phase "
            + "stays Running; a pod being deleted stays Running until its containers stop")
    void displayStringsAreNotPhases() {
        PodRunHarness loop = new PodRunHarness(pod("Always", sim("run-duration", "1s", "exit-code", "1"), c("c"))).until(30);
        List<Long> backoff = loop.times("c", "Waiting:CrashLoopBackOff");
        assertFalse(backoff.isEmpty());
        assertEquals("Running", loop.history.stream().filter(s -> s.second() == backoff.get(0)).findFirst()
                .orElseThrow().pod().getStatus().getPhase());

        PodRunHarness deleting = new PodRunHarness(pod("Always", sim("shutdown-duration", "10s"), c("c"))).until(5)
                .delete(30).until(8);
        assertEquals("Running", deleting.phase(), "still stopping: the phase is not Terminating");
        deleting.until(20);
        assertTrue(Set.of("Succeeded", "Failed").contains(deleting.phase()));
    }

    static Stream<Arguments> crashLoops() {
        Container liveness = Container.newBuilder(c("c")).setLivenessProbe(probe(0, 1, 1, 1)).build();
        Container startup = Container.newBuilder(c("c")).setStartupProbe(probe(0, 1, 1, 2)).build();
        return Stream.of(
                Arguments.of("an application error (exit 1)", sim("run-duration", "1s", "exit-code", "1"), c("c"),
                        "Error(1)"),
                Arguments.of("a resource constraint (OOM)", sim("oom-after", "1s"), c("c"), "OOMKilled(137)"),
                Arguments.of("a failing liveness probe", sim("liveness-fails-after", "1s"), liveness, "Error(137)"),
                Arguments.of("a startup probe that never succeeds", sim("startup-after", "1h"), startup, "Error(137)"));
    }

    @ParameterizedTest(name = "POD-5.8 CrashLoopBackOff caused by {0}")
    @MethodSource("crashLoops")
    void crashLoopCauses(String cause, Map<String, String> program, Container k, String exit) {
        PodRunHarness h = new PodRunHarness(pod("Always", program, k)).until(300);

        assertTrue(h.times("c", "Terminated:" + exit).size() >= 2, h.changes("c").toString());
        assertFalse(h.times("c", "Waiting:CrashLoopBackOff").isEmpty(), h.changes("c").toString());
        assertTrue(h.container("c").getRestartCount() >= 3);
    }

    static Stream<Arguments> reducedDecays() {
        return Stream.of(
                Arguments.of("POD-5.9 the ReduceDefaultCrashLoopBackOffDecay values", 60L, "1,1,2,4,8,16,32,60,60"),
                Arguments.of("POD-5.11 with them a node's maxContainerRestartPeriod of 100 s takes precedence", 100L,
                        "1,1,2,4,8,16,32,64,100"));
    }

    @ParameterizedTest(name = "{0}: a crash loop with initial back-off 1 s and maximum {1} s restarts after {2}")
    @MethodSource("reducedDecays")
    void reducedDecay(String why, long max, String expected) {
        KubeletConfig config = PodRunHarness.CONFIG.withBackoff(java.time.Duration.ofSeconds(1),
                java.time.Duration.ofSeconds(max));
        PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "1s", "exit-code", "1"), c("c")), config)
                .until(1000);

        List<Long> exits = h.times("c", "Terminated:Error(1)");
        List<Long> starts = h.times("c", "Running");
        List<String> gaps = new java.util.ArrayList<>();
        for (int i = 0; i < 9; i++) {
            gaps.add(Long.toString(Math.max(starts.get(i + 1) - exits.get(i), 1)));
        }
        assertEquals(expected, String.join(",", gaps));
    }

    @ParameterizedTest(name = "POD-7.1 a readiness probe run every {0}s sees the program stop answering at 26 s on its "
            + "next run, at {1}s")
    @CsvSource({"10,31", "5,26", "7,29"})
    void periodic(int period, long unreadyAt) {
        Container k = Container.newBuilder(c("c")).setReadinessProbe(probe(0, period, 1, 1)).build();
        PodRunHarness h = new PodRunHarness(pod("Always", sim("unready-after", "25s"), k)).until(60);

        // created at 1 s (a 1 s pull): probes at 1, 1 + period, 1 + 2 * period, ...
        long ready = h.history.stream().filter(s -> PodRunHarness.find(s.pod(), "c").getReady())
                .findFirst().orElseThrow().second();
        assertTrue(ready < 26, "ready while the program answers: " + ready);
        long lost = h.history.stream().filter(s -> s.second() > ready && !PodRunHarness.find(s.pod(), "c").getReady())
                .findFirst().orElseThrow().second();
        assertEquals(unreadyAt, lost);
        assertEquals("False", h.condition("Ready"));
    }

    @ParameterizedTest(name = "POD-7.11 a failing liveness probe under restartPolicy {0}: killed (137), restarts {1}, "
            + "phase {2}")
    @CsvSource({"Never,0,Failed", "OnFailure,1,Running", "Always,1,Running"})
    void livenessAndRestartPolicy(String policy, int restarts, String phase) {
        Container k = Container.newBuilder(c("c")).setLivenessProbe(probe(0, 10, 1, 3)).build();
        PodRunHarness h = new PodRunHarness(pod(policy, sim("liveness-fails-after", "15s"), k)).until(45);

        assertEquals(List.of(41L), h.times("c", "Terminated:Error(137)"));
        assertEquals(restarts, h.container("c").getRestartCount());
        assertEquals(phase, h.phase());
    }

    @ParameterizedTest(name = "POD-7.9 a program that answers after 90 s with a startup probe of failureThreshold {0} "
            + "(period 10 s) and the default liveness probe: started {1}")
    @CsvSource({"30,true", "3,false"})
    void startupBudget(int failureThreshold, boolean starts) {
        Container k = Container.newBuilder(c("c")).setStartupProbe(probe(0, 10, 1, failureThreshold))
                .setLivenessProbe(probe(0, 10, 1, 3)).build();
        PodRunHarness h = new PodRunHarness(pod("Always", sim("startup-after", "90s"), k)).until(200);

        if (starts) {
            assertTrue(h.container("c").getStarted());
            assertEquals(0, h.container("c").getRestartCount(), "the liveness probe only runs once started");
            assertEquals("True", h.condition("Ready"));
        } else {
            // probes at 1, 11, 21: the third failure kills it, long before it would answer
            assertEquals(21L, h.times("c", "Terminated:Error(137)").get(0));
            assertFalse(h.history.stream().anyMatch(s -> Boolean.TRUE.equals(PodRunHarness.find(s.pod(), "c").getStarted())));
        }
    }

    @Test
    @DisplayName("POD-9.6 a sidecar's readiness probe decides the pod's Ready: not ready while the sidecar is not, "
            + "Ready once it is")
    void sidecarReadiness() {
        Container sc = Container.newBuilder(sidecar("logshipper")).setReadinessProbe(probe(0, 10, 1, 3)).build();
        PodRunHarness h = new PodRunHarness(pod("Always", sim("ready-after.logshipper", "40s"), List.of(sc),
                List.of(c("app")))).until(30);

        assertEquals("Running", h.state("app"));
        assertTrue(h.container("app").getReady());
        assertEquals("False", h.condition("Ready"));
        assertEquals("False", h.condition("ContainersReady"));
        assertTrue(h.pod.getStatus().getConditions().stream().anyMatch(x -> x.getType().equals("Ready")
                && x.getMessage().equals("containers with unready status: [logshipper]")));

        h.until(60);

        assertTrue(h.container("logshipper").getReady());
        assertEquals("True", h.condition("Ready"));
    }

    @Test
    @DisplayName("POD-9.9 regular containers get no order: both start in the same sync and both get SIGTERM at once on "
            + "deletion, unlike sidecars")
    void noOrderForRegularContainers() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("shutdown-duration", "5s"), c("a"), c("b"))).until(30);
        assertEquals(h.times("a", "Running"), h.times("b", "Running"));

        h.delete(30).until(60);

        assertEquals(h.times("a", "Terminated:Completed(0)"), h.times("b", "Terminated:Completed(0)"));
        assertEquals(List.of(35L), h.times("a", "Terminated:Completed(0)"));
    }

    @Test
    @DisplayName("POD-8.6 the pod is not Ready until every init container has succeeded")
    void notReadyBeforeInit() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration.a", "10s", "run-duration.b", "10s"),
                List.of(c("a"), c("b")), List.of(c("app")))).until(60);

        long bDone = h.times("b", "Terminated:Completed(0)").get(0);
        for (PodRunHarness.Snapshot s : h.history) {
            String ready = s.pod().getStatus().getConditions().stream().filter(x -> x.getType().equals("Ready"))
                    .findFirst().orElseThrow().getStatus();
            if (s.second() < bDone) {
                assertEquals("False", ready, s.second() + "s");
            }
        }
        assertEquals("True", h.condition("Ready"));
    }

    @Test
    @DisplayName("POD-1.3 init containers run during startup; an ephemeral container is injected into the running pod")
    void initAndEphemeral() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration.setup", "3s"), List.of(c("setup")),
                List.of(c("app")))).until(20);
        assertTrue(h.times("setup", "Terminated:Completed(0)").get(0) <= h.times("app", "Running").get(0));
        assertEquals("Running", h.phase());

        h.update(spec -> PodSpec.newBuilder(spec).setEphemeralContainers(List.of(EphemeralContainer.newBuilder()
                .setName("debugger").setImage("busybox:1.36").setTargetContainerName("app").build())).build());
        h.until(40);

        ContainerStatus debugger = h.pod.getStatus().getEphemeralContainerStatuses().get(0);
        assertEquals("debugger", debugger.getName());
        assertEquals("Running", PodRunHarness.state(debugger));
        assertEquals("Running", h.state("app"), "the app keeps running alongside");
        assertEquals(0, h.container("app").getRestartCount());
    }
}
