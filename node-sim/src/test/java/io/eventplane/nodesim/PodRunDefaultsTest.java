package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.sidecar;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eventplane.model.ContainerStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** node-sim's run-to-completion defaults (issue 19): work a user expects to finish does finish without annotations. */
class PodRunDefaultsTest {
    /** node-sim as it starts: the built-in defaults (1 s for an init container, 10 s for a Job pod's container). */
    static final KubeletConfig DEFAULTS = KubeletConfig.defaults().withPull(Duration.ofSeconds(1), Duration.ofSeconds(1))
            .withShutdownDefault(Duration.ofSeconds(1));

    private static PodRunHarness run(String policy, Map<String, String> annotations, KubeletConfig config) {
        return new PodRunHarness(pod(policy, annotations, c("main")), config);
    }

    @Test
    @DisplayName("AC-X-07: the seeds' myapp-pod: each init container completes (exit 0) 1 s after its start, Init:0/2 -> Init:1/2 -> Running")
    void initContainersComplete() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), List.of(c("init-myservice"), c("init-mydb")),
                List.of(c("myapp-container"))), DEFAULTS);
        h.until(1);
        assertEquals("Running", h.state("init-myservice"), "Init:0/2 while the first runs");
        h.until(2); // pulled at 1 s, ran 1 s; the second finds the image present and starts at once
        assertEquals("Terminated:Completed(0)", h.state("init-myservice"));
        assertEquals("Running", h.state("init-mydb"), "Init:1/2");
        h.until(60);
        assertEquals("Terminated:Completed(0)", h.state("init-mydb"));
        assertEquals("Running", h.phase());
        assertEquals("Running", h.state("myapp-container"), "restartPolicy Always: the app runs on");
        ContainerStatus init = h.container("init-myservice");
        assertEquals(Duration.ofSeconds(1), Duration.between(init.getState().getTerminated().getStartedAt(),
                init.getState().getTerminated().getFinishedAt()));
    }

    @ParameterizedTest(name = "a container of a {0} pod exits 0 (Completed) 10 s after it started; the pod Succeeded")
    @CsvSource({"Never", "OnFailure"})
    void jobPodsComplete(String policy) {
        PodRunHarness h = run(policy, Map.of(), DEFAULTS).until(10);
        assertEquals("Running", h.phase(), "pulled at 1 s, so still running at 10 s");
        h.until(12);
        assertEquals("Succeeded", h.phase());
        assertEquals("Terminated:Completed(0)", h.state("main"));
        ContainerStatus s = h.container("main");
        assertEquals(Duration.ofSeconds(10), Duration.between(s.getState().getTerminated().getStartedAt(),
                s.getState().getTerminated().getFinishedAt()));
        assertEquals("False", h.condition("Ready"));
    }

    @Test
    @DisplayName("a container of a restartPolicy Always pod runs until it is stopped, as before")
    void alwaysRunsOn() {
        PodRunHarness h = run("Always", Map.of(), DEFAULTS).until(3600);
        assertEquals("Running", h.phase());
        assertEquals("Running", h.state("main"));
        assertEquals(0, h.container("main").getRestartCount());
    }

    @Test
    @DisplayName("annotations keep working: run-duration wins, run-duration: never runs until stopped, exit-code alone fails after the default run")
    void annotationsWin() {
        assertEquals("Succeeded", run("Never", sim("run-duration", "3s"), DEFAULTS).until(5).phase());
        PodRunHarness never = run("Never", sim("run-duration", "never"), DEFAULTS).until(3600);
        assertEquals("Running", never.state("main"));
        PodRunHarness failing = run("Never", sim("exit-code", "1"), DEFAULTS).until(12);
        assertEquals("Failed", failing.phase());
        assertEquals("Terminated:Error(1)", failing.state("main"));
        PodRunHarness crashLoop = run("OnFailure", sim("exit-code", "1"), DEFAULTS).until(12);
        assertEquals("Running", crashLoop.phase(), "OnFailure: restarted in place");
        assertEquals(1, crashLoop.container("main").getRestartCount());
    }

    @Test
    @DisplayName("sidecars run on and are stopped once the Job pod's container completed")
    void sidecarsDoNotKeepThePodAlive() {
        PodRunHarness h = new PodRunHarness(pod("Never", Map.of(), List.of(sidecar("proxy")), List.of(c("main"))),
                DEFAULTS).until(60);
        assertEquals("Succeeded", h.phase());
        assertEquals(0, h.container("proxy").getRestartCount());
    }

    @Test
    @DisplayName("the stage file's runToCompletion block sets the defaults; never turns one off; a pod.restartPolicy stage selects Job pods")
    void stageFile() {
        Stages stages = Stages.parse("""
                runToCompletion:
                  initContainerMilliseconds: never
                  containerMilliseconds: 2000
                stages:
                - name: fail-job-pods
                  selector:
                    matchExpressions:
                    - {key: pod.restartPolicy, operator: In, values: [OnFailure]}
                  delay: {durationMilliseconds: 1000}
                  next: [{action: exit, exitCode: 3}]
                """, "s.yaml");
        KubeletConfig config = DEFAULTS.withStages(stages);
        assertNull(config.runDefaults().initContainer());
        assertEquals(Duration.ofSeconds(2), config.runDefaults().runToCompletion());
        assertEquals("Succeeded", run("Never", Map.of(), config).until(4).phase());
        PodRunHarness onFailure = run("OnFailure", Map.of(), config).until(3);
        assertEquals("Terminated:Error(3)", PodRunHarness.state(onFailure.history.stream()
                .map(s -> PodRunHarness.find(s.pod(), "main")).filter(s -> s.getState().getTerminated() != null)
                .findFirst().orElseThrow()));
        PodRunHarness init = new PodRunHarness(pod("Always", Map.of(), List.of(c("init")), List.of(c("app"))), config)
                .until(600);
        assertEquals("Running", init.state("init"), "never: the init container runs until stopped");
    }

    @Test
    @DisplayName("the environment's settings read durations and never; nonsense is refused with the setting's name")
    void settings() {
        assertEquals(Duration.ofMillis(1500), RunDefaults.parse("1.5s"));
        assertNull(RunDefaults.parse("never"));
        assertThrows(IllegalArgumentException.class, () -> RunDefaults.parse("soon"));
        assertEquals(RunDefaults.BUILT_IN, new RunDefaults(Duration.ofSeconds(1), Duration.ofSeconds(10)));
    }
}
