package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.probe;
import static io.eventplane.nodesim.PodRunHarness.sidecar;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static io.eventplane.nodesim.PodRunHarness.withPreStop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodReadinessGate;
import io.eventplane.model.PodSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodRunTest {

    @Test
    @DisplayName("POD-3.3 defaults: a plain nginx pod pulls, starts, becomes Ready and stays so")
    void plainPod() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(),
                Container.newBuilder().setName("nginx").setImage("nginx").build())).until(3600);

        assertEquals("Running", h.phase());
        assertEquals("Running", h.state("nginx"));
        assertEquals("True", h.condition("Ready"));
        assertEquals(0, h.container("nginx").getRestartCount());
        assertEquals(List.of("Pulling", "Pulled", "Created", "Started"),
                h.events.stream().map(EventNotice::reason).toList());
        assertTrue(h.run.nextChangeAt().isEmpty(), "nothing more happens");
    }

    @Nested
    class RestartAndPhase {
        @ParameterizedTest(name = "W-E1 POD-3.12 POD-3.4 POD-5.1 POD-5.2 one container exits 0 under {0}: {1}")
        @CsvSource({"Always,Running,1", "OnFailure,Succeeded,0", "Never,Succeeded,0"})
        void exitsZero(String policy, String phase, int restarts) {
            PodRunHarness h = new PodRunHarness(pod(policy, sim("run-duration", "5s", "exit-code", "0"), c("c"))).until(8);

            assertEquals(phase, h.phase());
            assertEquals(restarts, h.container("c").getRestartCount());
        }

        @ParameterizedTest(name = "W-E2 POD-3.12 POD-3.5 POD-5.2 one container exits 1 under {0}: {1}")
        @CsvSource({"Always,Running,1", "OnFailure,Running,1", "Never,Failed,0"})
        void exitsNonZero(String policy, String phase, int restarts) {
            PodRunHarness h = new PodRunHarness(pod(policy, sim("run-duration", "5s", "exit-code", "1"), c("c"))).until(8);

            assertEquals(phase, h.phase());
            assertEquals(restarts, h.container("c").getRestartCount());
        }

        @ParameterizedTest(name = "W-E3 W-E4 POD-3.12 POD-3.13 two containers under {0}: c1 fails -> {1}; then c2 exits -> {2}")
        @CsvSource({"Always,Running,Running", "OnFailure,Running,Running", "Never,Running,Failed"})
        void twoContainers(String policy, String afterFirst, String afterSecond) {
            PodRunHarness h = new PodRunHarness(pod(policy, sim("run-duration.c1", "5s", "exit-code.c1", "1",
                    "run-duration.c2", "20s"), c("c1"), c("c2"))).until(8);
            assertEquals(afterFirst, h.phase());
            if (policy.equals("Never")) {
                assertEquals("Terminated:Error(1)", h.state("c1"), "not restarted");
            }

            h.until(22);

            assertEquals(afterSecond, h.phase());
        }

        @ParameterizedTest(name = "W-E5 POD-5.12 OOM under {0}: OOMKilled 137, then {1}")
        @CsvSource({"Always,Running", "OnFailure,Running", "Never,Failed"})
        void oom(String policy, String phase) {
            PodRunHarness h = new PodRunHarness(pod(policy, sim("oom-after", "5s"), c("c"))).until(6);
            assertEquals("Terminated:OOMKilled(137)", h.state("c"));

            h.until(8);

            assertEquals(phase, h.phase());
        }

        @Test
        @DisplayName("W-E8 POD-5.6 POD-5.7 crash loop: restarts after 0 (one sync), 10, 20, 40, 80, 160, 300, 300 s; "
                + "CrashLoopBackOff while waiting; restartCount counts up")
        void crashLoop() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "1s", "exit-code", "1"), c("c")))
                    .until(2000);

            List<Long> exits = h.times("c", "Terminated:Error(1)");
            List<Long> starts = h.times("c", "Running");
            List<Long> gaps = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                gaps.add(starts.get(i + 1) - exits.get(i));
            }
            assertEquals(List.of(1L, 10L, 20L, 40L, 80L, 160L, 300L, 300L), gaps);
            List<Long> backoffs = h.times("c", "Waiting:CrashLoopBackOff");
            assertEquals(exits.get(1) + 1, backoffs.get(0), "CrashLoopBackOff shown one sync after the second crash");
            int before = -1;
            for (PodRunHarness.Snapshot s : h.history) {
                int rc = PodRunHarness.find(s.pod(), "c").getRestartCount();
                assertTrue(rc >= before);
                before = rc;
                assertFalse(List.of("Succeeded", "Failed").contains(s.pod().getStatus().getPhase()));
            }
            assertEquals("Error", h.container("c").getLastState().getTerminated().getReason());
        }

        @Test
        @DisplayName("W-E9 POD-5.6 a container that ran 10 minutes restarts without delay again")
        void backoffReset() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "601s", "exit-code", "1"), c("c")))
                    .until(3000);

            List<Long> exits = h.times("c", "Terminated:Error(1)");
            List<Long> starts = h.times("c", "Running");
            for (int i = 0; i < 3; i++) {
                assertEquals(1L, starts.get(i + 1) - exits.get(i), "restart " + (i + 1));
            }
            assertTrue(h.times("c", "Waiting:CrashLoopBackOff").isEmpty());
        }

        @ParameterizedTest(name = "W-E10 W-E11 POD-5.10 maxContainerRestartPeriod {0}s: gaps {1}")
        @CsvSource(delimiter = ';', value = {"100;1,10,20,40,80,100,100", "2;1,2,2,2,2,2,2"})
        void maxRestartPeriod(long max, String expected) {
            KubeletConfig config = PodRunHarness.CONFIG.withBackoff(Duration.ofSeconds(10), Duration.ofSeconds(max));
            PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "1s", "exit-code", "1"), c("c")), config)
                    .until(1000);

            List<Long> exits = h.times("c", "Terminated:Error(1)");
            List<Long> starts = h.times("c", "Running");
            List<String> gaps = new ArrayList<>();
            for (int i = 0; i < 7; i++) {
                gaps.add(Long.toString(Math.max(starts.get(i + 1) - exits.get(i), 1)));
            }
            assertEquals(expected, String.join(",", gaps));
        }
    }

    @Nested
    class InitContainers {
        private Pod myapp(String policy, Map<String, String> annotations) {
            return pod(policy, annotations, List.of(c("init-myservice"), c("init-mydb")), List.of(c("myapp-container")));
        }

        @Test
        @DisplayName("W-I1 POD-8.1 POD-8.2 POD-8.7 POD-3.8 while the first init container runs: Pending, Initialized=False, "
                + "the rest wait PodInitializing; events Pulling, Pulled, Created, Started for it")
        void firstRuns() {
            PodRunHarness h = new PodRunHarness(myapp("Always", sim("run-duration.init-myservice", "60s"))).until(10);

            assertEquals("Pending", h.phase());
            assertEquals("False", h.condition("Initialized"));
            assertEquals("True", h.condition("PodReadyToStartContainers"));
            assertEquals("Running", h.state("init-myservice"));
            assertEquals("Waiting:PodInitializing", h.state("init-mydb"));
            assertEquals("Waiting:PodInitializing", h.state("myapp-container"));
            assertFalse(h.container("myapp-container").getReady());
            assertEquals(List.of("Pulling", "Pulled", "Created", "Started"),
                    h.events.stream().map(EventNotice::reason).toList());
            assertTrue(h.events.stream().allMatch(e -> e.involvedObject().getFieldPath()
                    .equals("spec.initContainers{init-myservice}")));
        }

        @Test
        @DisplayName("W-I2 POD-8.2 POD-8.4 POD-6.10 init containers complete in order, then the app starts: "
                + "Initialized=True, Ready=True")
        void inOrder() {
            PodRunHarness h = new PodRunHarness(myapp("Always", sim("run-duration.init-myservice", "10s",
                    "run-duration.init-mydb", "10s"))).until(60);

            assertEquals("Running", h.phase());
            assertEquals("True", h.condition("Initialized"));
            assertEquals("True", h.condition("Ready"));
            long firstDone = h.times("init-myservice", "Terminated:Completed(0)").get(0);
            long secondStart = h.times("init-mydb", "Running").get(0);
            long secondDone = h.times("init-mydb", "Terminated:Completed(0)").get(0);
            long appStart = h.times("myapp-container", "Running").get(0);
            assertTrue(firstDone <= secondStart && secondDone <= appStart, firstDone + " " + secondStart + " " + appStart);
            assertEquals(List.of("0s Waiting:PodInitializing", firstDone + "s Running", secondDone + "s Terminated:Completed(0)"),
                    h.changes("init-mydb"));
        }

        @Test
        @DisplayName("W-I3 POD-8.5 an init container exits 1 under Never: the pod is Failed, the app never starts")
        void failsUnderNever() {
            PodRunHarness h = new PodRunHarness(myapp("Never", sim("run-duration.init-myservice", "3s",
                    "exit-code.init-myservice", "1"))).until(100);

            assertEquals("Failed", h.phase());
            assertTrue(h.times("myapp-container", "Running").isEmpty());
            assertTrue(h.times("init-mydb", "Running").isEmpty());
        }

        @ParameterizedTest(name = "W-I4 POD-5.4 an init container exits 1 under {0}: restarted with backoff, Pending")
        @CsvSource({"Always", "OnFailure"})
        void restartedWithBackoff(String policy) {
            PodRunHarness h = new PodRunHarness(myapp(policy, sim("run-duration.init-myservice", "1s",
                    "exit-code.init-myservice", "1"))).until(100);

            assertEquals("Pending", h.phase());
            assertEquals("False", h.condition("Initialized"));
            List<Long> exits = h.times("init-myservice", "Terminated:Error(1)");
            List<Long> starts = h.times("init-myservice", "Running");
            assertEquals(List.of(1L, 10L, 20L), List.of(starts.get(1) - exits.get(0), starts.get(2) - exits.get(1),
                    starts.get(3) - exits.get(2)));
            assertTrue(h.times("myapp-container", "Running").isEmpty());
        }

        @Test
        @DisplayName("W-I5 POD-5.4 init containers that succeeded are not re-run while the app crash-loops")
        void notRerun() {
            PodRunHarness h = new PodRunHarness(myapp("Always", sim("run-duration.init-myservice", "1s",
                    "run-duration.init-mydb", "1s", "run-duration.myapp-container", "2s", "exit-code.myapp-container", "1")))
                    .until(200);

            assertTrue(h.container("myapp-container").getRestartCount() >= 3);
            assertEquals(1, h.times("init-myservice", "Running").size());
            assertEquals(0, h.container("init-mydb").getRestartCount());
        }

        @Test
        @DisplayName("POD-8.11 activeDeadlineSeconds covers init: a hanging init container fails the pod at the deadline")
        void activeDeadline() {
            Pod p = myapp("Always", Map.of());
            p = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setActiveDeadlineSeconds(30L).build()).build();
            PodRunHarness h = new PodRunHarness(p).until(29);
            assertEquals("Pending", h.phase());

            h.until(31);

            assertEquals("Failed", h.phase());
            assertEquals("DeadlineExceeded", h.pod.getStatus().getReason());
            assertEquals("Terminated:Error(137)", h.state("init-myservice"));
        }
    }

    @Nested
    class Sidecars {
        @Test
        @DisplayName("W-S1 POD-9.1 POD-9.3 POD-9.4 the sidecar starts before the app and both keep running")
        void startsFirst() {
            Container myapp = Container.newBuilder().setName("myapp").setImage("alpine:latest").build();
            PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), List.of(sidecar("logshipper")),
                    List.of(myapp))).until(600);

            assertTrue(h.times("logshipper", "Running").get(0) < h.times("myapp", "Running").get(0));
            assertEquals("Running", h.state("logshipper"));
            assertEquals("Running", h.state("myapp"));
            assertEquals("True", h.condition("Ready"));
            assertTrue(h.container("logshipper").getStarted());
        }

        @Test
        @DisplayName("POD-9.3 the next init container waits for the sidecar's startupProbe; the order is "
                + "init-a, sidecar, init-b, app")
        void startupProbeGates() {
            Container sc = Container.newBuilder(sidecar("sc")).setStartupProbe(probe(0, 5, 1, 10)).build();
            PodRunHarness h = new PodRunHarness(pod("Always", sim("startup-after.sc", "12s", "run-duration.init-a", "2s",
                    "run-duration.init-b", "2s"), List.of(c("init-a"), sc, c("init-b")), List.of(c("app")))).until(60);

            long aDone = h.times("init-a", "Terminated:Completed(0)").get(0);
            long scStart = h.times("sc", "Running").get(0);
            long bStart = h.times("init-b", "Running").get(0);
            long appStart = h.times("app", "Running").get(0);
            assertTrue(aDone <= scStart);
            assertTrue(bStart >= scStart + 12, "init-b waits for the startup probe: " + scStart + " -> " + bStart);
            assertTrue(appStart > bStart);
            assertEquals("Running", h.state("sc"));
        }

        @Test
        @DisplayName("W-S2 POD-9.7 a Job-style pod completes when its main container exits 0; the sidecar is stopped")
        void jobCompletes() {
            PodRunHarness h = new PodRunHarness(pod("Never", sim("run-duration.myjob", "5s"),
                    List.of(sidecar("logshipper")), List.of(c("myjob")))).until(60);

            assertEquals("Succeeded", h.phase());
            assertTrue(h.state("logshipper").startsWith("Terminated"));
        }

        @Test
        @DisplayName("POD-9.5 POD-5.3 a sidecar that exits is restarted even under restartPolicy Never; the phase is unaffected")
        void sidecarRestarts() {
            PodRunHarness h = new PodRunHarness(pod("Never", sim("run-duration.sc", "20s", "exit-code.sc", "1"),
                    List.of(sidecar("sc")), List.of(c("app")))).until(60);

            assertTrue(h.container("sc").getRestartCount() >= 1);
            assertEquals("Running", h.phase());
        }

        @Test
        @DisplayName("W-S3 POD-9.8 on delete, the sidecars get SIGTERM only after every main container stopped, "
                + "in reverse order")
        void shutdownOrder() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("shutdown-duration.m1", "4s",
                    "shutdown-duration.m2", "2s", "shutdown-duration", "1s"), List.of(sidecar("s1"), sidecar("s2")),
                    List.of(c("m1"), c("m2")))).until(30);
            h.delete(30).until(100);

            List<String> killing = h.events.stream().filter(e -> e.reason().equals("Killing"))
                    .map(e -> e.involvedObject().getFieldPath()).toList();
            assertEquals(List.of("spec.containers{m1}", "spec.containers{m2}", "spec.initContainers{s2}",
                    "spec.initContainers{s1}"), killing);
            long mainsDone = Math.max(h.times("m1", "Terminated:Completed(0)").get(0),
                    h.times("m2", "Terminated:Completed(0)").get(0));
            long s2Done = h.times("s2", "Terminated:Completed(0)").get(0);
            long s1Done = h.times("s1", "Terminated:Completed(0)").get(0);
            assertTrue(mainsDone < s2Done && s2Done < s1Done, mainsDone + " " + s2Done + " " + s1Done);
            assertTrue(h.run.finished());
        }

        @Test
        @DisplayName("W-S4 POD-9.8 when the grace period runs out, every remaining container is killed at once")
        void graceExpires() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("ignores-sigterm.m1", "true"),
                    List.of(sidecar("s1")), List.of(c("m1")))).until(30);
            h.delete(10).until(100);

            assertEquals(List.of(40L), h.times("m1", "Terminated:Error(137)"));
            assertEquals(List.of(40L), h.times("s1", "Terminated:Error(137)"));
        }
    }

    @Nested
    class Termination {
        @Test
        @DisplayName("W-D1 POD-3.10 POD-12.3 POD-12.4 POD-12.10 POD-6.13 graceful delete: unready at once, SIGTERM, exit, terminal phase, finished")
        void graceful() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("shutdown-duration", "3s"), c("c"))).until(30);
            h.delete(30);

            assertEquals("False", h.condition("Ready"));
            assertEquals("Running", h.phase());
            assertFalse(h.run.finished());
            h.until(100);
            assertEquals(List.of(33L), h.times("c", "Terminated:Completed(0)"));
            assertEquals("Succeeded", h.phase());
            assertTrue(h.run.finished());
            assertEquals(List.of("Killing spec.containers{c} Stopping container c"), h.events.stream()
                    .filter(e -> e.reason().equals("Killing"))
                    .map(e -> e.reason() + " " + e.involvedObject().getFieldPath() + " " + e.message()).toList());
        }

        @Test
        @DisplayName("POD-12.1 POD-12.9 a program that ignores SIGTERM is killed when the grace period ends (137, Failed)")
        void ignoresSigterm() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("ignores-sigterm", "true"), c("c"))).until(30);
            h.delete(30).until(100);

            assertEquals(List.of(60L), h.times("c", "Terminated:Error(137)"));
            assertEquals("Failed", h.phase());
        }

        @Test
        @DisplayName("W-D2 POD-12.5 a preStop hook longer than the grace period gets 2 s more: SIGKILL at 32 s")
        void slowPreStop() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("prestop-duration", "45s"), withPreStop(c("c"))))
                    .until(30);
            h.delete(30).until(100);

            assertEquals(List.of(62L), h.times("c", "Terminated:Error(137)"));
        }

        @Test
        @DisplayName("POD-12.5 POD-12.6 preStop runs first, SIGTERM after it")
        void preStopThenTerm() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("prestop-duration", "5s", "shutdown-duration", "1s"),
                    withPreStop(c("c1")), c("c2"))).until(30);
            h.delete(30).until(100);

            assertEquals(List.of(36L), h.times("c1", "Terminated:Completed(0)"));
            assertEquals(List.of(31L), h.times("c2", "Terminated:Completed(0)"), "c2 does not wait for c1");
        }

        @Test
        @DisplayName("W-D3 W-D4 POD-12.13 grace 0: preStop is not run and everything stops at once")
        void graceZero() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("prestop-duration", "5s"), withPreStop(c("c"))))
                    .until(30);
            h.delete(0);

            assertTrue(h.run.finished());
            assertEquals("Terminated:Error(137)", h.state("c"));
        }

        @Test
        @DisplayName("POD-12.10 a crash-looping pod deleted while backing off stops without another start")
        void deleteDuringBackoff() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "1s", "exit-code", "1"), c("c")))
                    .until(20);
            int restarts = h.container("c").getRestartCount();
            h.delete(30).until(200);

            assertTrue(h.run.finished());
            assertEquals(restarts, h.container("c").getRestartCount());
            assertEquals("Failed", h.phase());
        }
    }

    @Nested
    class ConditionsAndProbes {
        @Test
        @DisplayName("W-R1 W-R2 POD-6.3 POD-6.6 POD-6.7 a missing readiness gate keeps Ready False with ContainersReady True; "
                + "setting it True makes the pod Ready")
        void readinessGate() {
            Pod p = pod("Always", Map.of(), c("c"));
            p = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setReadinessGates(List.of(
                    PodReadinessGate.newBuilder().setConditionType("www.example.com/feature-1").build())).build()).build();
            PodRunHarness h = new PodRunHarness(p).until(10);
            assertEquals("True", h.condition("ContainersReady"));
            assertEquals("False", h.condition("Ready"));

            h.condition("www.example.com/feature-1", "True");

            assertEquals("True", h.condition("Ready"));
        }

        @Test
        @DisplayName("W-R3 W-R4 POD-6.10 POD-8.3 Initialized is True at once without init containers, after them with some")
        void initializedOrder() {
            PodRunHarness plain = new PodRunHarness(pod("Always", Map.of(), c("c")));
            assertEquals("True", plain.condition("Initialized"));
            assertEquals("True", plain.condition("PodReadyToStartContainers"));

            PodRunHarness withInit = new PodRunHarness(pod("Always", sim("run-duration.i", "5s"), List.of(c("i")),
                    List.of(c("c"))));
            assertEquals("False", withInit.condition("Initialized"));
            assertEquals("True", withInit.condition("PodReadyToStartContainers"), "the sandbox before the init containers");
            withInit.until(20);
            assertEquals("True", withInit.condition("Initialized"));
        }

        @Test
        @DisplayName("W-R6 POD-7.7 POD-7.10 POD-7.12 a readiness probe: unready before the initial delay, ready after "
                + "successThreshold successes")
        void readinessProbe() {
            Container k = Container.newBuilder(c("c")).setReadinessProbe(probe(5, 10, 2, 3)).build();
            PodRunHarness h = new PodRunHarness(pod("Always", sim("ready-after", "12s"), k)).until(10);
            assertFalse(h.container("c").getReady());

            h.until(100);

            // started at 1 s; probes at 6, 16, 26: successes from 13 s on, so 16 and 26
            assertEquals(26L, h.history.stream().filter(s -> PodRunHarness.find(s.pod(), "c").getReady())
                    .findFirst().orElseThrow().second());
            assertEquals("True", h.condition("Ready"));
        }

        @Test
        @DisplayName("POD-5.13 POD-7.7 a failing liveness probe kills the container after failureThreshold failures; "
                + "it is restarted")
        void liveness() {
            Container k = Container.newBuilder(c("c")).setLivenessProbe(probe(0, 10, 1, 3)).build();
            PodRunHarness h = new PodRunHarness(pod("Always", sim("liveness-fails-after", "15s"), k)).until(60);

            // started at 1 s; probes at 1, 11, 21, 31, 41: failing from 16 s, the third failure at 41
            assertEquals(List.of(41L), h.times("c", "Terminated:Error(137)"));
            assertEquals(1, h.container("c").getRestartCount());
            assertTrue(h.events.stream().anyMatch(e -> e.reason().equals("Killing")
                    && e.message().contains("failed liveness probe")));
        }

        @Test
        @DisplayName("W-R8 POD-7.7 POD-5.13 a startup probe that never succeeds kills the container; nothing is ready meanwhile")
        void startupFails() {
            Container k = Container.newBuilder(c("c")).setStartupProbe(probe(0, 5, 1, 3))
                    .setReadinessProbe(probe(0, 1, 1, 1)).build();
            PodRunHarness h = new PodRunHarness(pod("Always", sim("startup-after", "1h"), k)).until(13);

            assertFalse(h.history.stream().anyMatch(s -> PodRunHarness.find(s.pod(), "c").getReady()));
            assertEquals(List.of(11L), h.times("c", "Terminated:Error(137)"));
        }

        @Test
        @DisplayName("POD-7.10 a probe whose timeoutSeconds is shorter than the program's answer fails")
        void probeTimeout() {
            Container k = Container.newBuilder(c("c")).setReadinessProbe(probe(0, 10, 1, 3)).build();
            PodRunHarness h = new PodRunHarness(pod("Always", sim("probe-response-time", "2s"), k)).until(100);

            assertFalse(h.container("c").getReady());
            assertEquals("False", h.condition("Ready"));
        }
    }

    @Nested
    class Images {
        @Test
        @DisplayName("POD-4.2 POD-3.2 nginx:1.161 cannot be pulled: ErrImagePull, ImagePullBackOff, retried after 10, 20 s")
        void missingImage() {
            PodRunHarness h = new PodRunHarness(pod("Always", Map.of(),
                    Container.newBuilder().setName("nginx").setImage("nginx:1.161").build())).until(60);

            assertEquals("Pending", h.phase());
            List<Long> errors = h.times("nginx", "Waiting:ErrImagePull");
            List<Long> backoffs = h.times("nginx", "Waiting:ImagePullBackOff");
            assertEquals(List.of(1L, 12L, 33L), errors.subList(0, 3));
            assertEquals(List.of(2L, 13L, 34L), backoffs.subList(0, 3));
            assertTrue(h.events.stream().anyMatch(e -> e.message().equals("Error: ErrImagePull")));
        }

        @Test
        @DisplayName("an IfNotPresent image already on the node is not pulled again; an Always (untagged) image is")
        void imagesOnTheNode() {
            Pod tagged = pod("Always", Map.of(), Container.newBuilder().setName("nginx").setImage("nginx:1.14.2")
                    .setImagePullPolicy("IfNotPresent").build());
            Pod untagged = pod("Always", Map.of(), Container.newBuilder().setName("nginx").setImage("nginx").build());
            java.util.Set<String> node = new java.util.HashSet<>(java.util.Set.of("docker.io/library/nginx:1.14.2",
                    "docker.io/library/nginx:latest"));

            PodRun one = PodRun.start(tagged, PodRunHarness.CONFIG, node, PodRunHarness.T0);
            PodRun two = PodRun.start(untagged, PodRunHarness.CONFIG, node, PodRunHarness.T0);
            two.advanceTo(untagged, PodRunHarness.T0.plusSeconds(5));

            assertEquals(List.of("Pulled spec.containers{nginx} Container image \"nginx:1.14.2\" already present on machine",
                    "Created spec.containers{nginx} Created container: nginx",
                    "Started spec.containers{nginx} Started container nginx"),
                    one.takeEvents().stream().map(e -> e.reason() + " " + e.involvedObject().getFieldPath() + " "
                            + e.message()).toList());
            assertEquals(List.of("Pulling", "Pulled", "Created", "Started"),
                    two.takeEvents().stream().map(EventNotice::reason).toList());
        }

        @Test
        @DisplayName("POD-3.2 POD-4.1 a slow image, declared per pod: Pending, ContainerCreating for the whole pull")
        void slowImage() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("image-pull-duration", "45s"), c("c"))).until(44);
            assertEquals("Waiting:ContainerCreating", h.state("c"));
            assertEquals("Pending", h.phase());

            h.until(46);

            assertEquals("Running", h.state("c"));
        }

        @Test
        @DisplayName("node-sim's image rules: a pattern can make images slow or missing")
        void rules() {
            KubeletConfig config = PodRunHarness.CONFIG.withImages(ImageRules.parse("*big*=40s; registry.local/*=missing"));
            PodRunHarness big = new PodRunHarness(pod("Always", Map.of(),
                    Container.newBuilder().setName("c").setImage("example/bigimage:1").build()), config).until(39);
            assertEquals("Waiting:ContainerCreating", big.state("c"));
            PodRunHarness gone = new PodRunHarness(pod("Always", Map.of(),
                    Container.newBuilder().setName("c").setImage("registry.local/app:1").build()), config).until(5);
            assertEquals("Waiting:ImagePullBackOff", gone.state("c"));
        }

        @Test
        @DisplayName("a bad annotation: the container cannot be created (CreateContainerConfigError, precise message)")
        void badAnnotation() {
            PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "soon"), c("c"))).until(10);

            assertEquals("Waiting:CreateContainerConfigError", h.state("c"));
            assertEquals("annotation sim.eventplane.io/run-duration: \"soon\" is not a duration (like 30s, 1m30s, 500ms or 12)",
                    h.container("c").getState().getWaiting().getMessage());
        }
    }

    @Test
    @DisplayName("POD-11.4 an ephemeral container added to a running pod runs once, is never restarted, and leaves the "
            + "phase alone")
    void ephemeralContainer() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration.debug", "5s", "exit-code.debug", "1"),
                c("app"))).until(10);
        h.pod = Pod.newBuilder(h.pod).setSpec(PodSpec.newBuilder(h.pod.getSpec()).setEphemeralContainers(List.of(
                io.eventplane.model.EphemeralContainer.newBuilder().setName("debug").setImage("busybox:1.36").build()))
                .build()).build();
        h.run.advanceTo(h.pod, h.now); // the spec change, as the shell hands it over

        h.until(100);

        ContainerStatus debug = h.pod.getStatus().getEphemeralContainerStatuses().get(0);
        assertEquals("Terminated:Error(1)", PodRunHarness.state(debug));
        assertEquals(0, debug.getRestartCount());
        assertEquals("Running", h.phase());
        assertEquals("True", h.condition("Ready"));
    }

    @Test
    @DisplayName("seeded: two runs of the same pod and seed give the same history; pulls draw from the seed")
    void deterministic() {
        KubeletConfig config = KubeletConfig.defaults().withPull(Duration.ZERO, Duration.ofSeconds(30)).withSeed(7);
        Pod p = pod("Always", sim("run-duration", "3s", "exit-code", "1"), c("a"), c("b"));
        PodRunHarness one = new PodRunHarness(p, config).until(500);
        PodRunHarness two = new PodRunHarness(p, config).until(500);

        assertEquals(one.history, two.history);
    }
}
