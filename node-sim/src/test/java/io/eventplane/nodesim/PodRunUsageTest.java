package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.T0;
import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.sidecar;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Container;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the programs of a pod use over time, on a virtual clock: declared use, spreading, loads, OOM kills. */
class PodRunUsageTest {
    private static final double MI = 1024 * 1024;

    private static Map<String, Double> cpu(PodRunHarness h, long second, double cpuShare) {
        Map<String, Double> out = new java.util.TreeMap<>();
        for (RunningUsage.Sample s : RunningUsage.of(h.run, T0.plusSeconds(second), cpuShare, 0)) {
            out.put(s.container(), Math.round(s.cpu() * 1000) / 1000.0);
        }
        return out;
    }

    private static Container limited(String name, String memoryRequest, String memoryLimit) {
        return KubeObjects.container(name).image("busybox:1.36").imagePullPolicy("IfNotPresent")
                .requests("100m", memoryRequest).limits("500m", memoryLimit).build();
    }

    @Test
    @DisplayName("a pod's cpu-usage is spread over its app containers; a container's own declaration wins; a sidecar uses only its own")
    void spreadOverContainers() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("cpu-usage", "ramp(0, 1, 100s)", "cpu-usage.b", "300m"),
                List.of(sidecar("log")), List.of(c("a"), c("b"), c("c")))).until(1);
        assertEquals("Running", h.state("a"));
        Instant started = h.container("a").getState().getRunning().getStartedAt();
        long at = Duration.between(T0, started).toSeconds() + 50;

        Map<String, Double> use = cpu(h.until(at), at, 0);

        assertEquals(Map.of("a", 0.167, "b", 0.3, "c", 0.167, "log", 0.0), use);
    }

    @Test
    @DisplayName("a running pod's share of its workload's load goes to its app containers, evenly")
    void loadShare() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("cpu-usage", "100m"), c("a"), c("b"))).until(5);

        assertEquals(Map.of("a", 0.3, "b", 0.3), cpu(h, 5, 0.5));
    }

    @Test
    @DisplayName("undeclared: no CPU, memory equal to the request; nothing is reported for a container that does not run")
    void defaults() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), limited("a", "64Mi", "128Mi")));
        assertTrue(RunningUsage.of(h.run, T0, 0, 0).isEmpty(), "still pulling");

        h.until(5);
        RunningUsage.Sample s = RunningUsage.of(h.run, T0.plusSeconds(5), 0, 0).get(0);

        assertEquals(0.0, s.cpu());
        assertEquals(64 * MI, s.memory());
        assertEquals(128 * MI, s.memoryLimit(), 0.1);
    }

    @Test
    @DisplayName("POD-4 memory use that grows above the container's limit OOM-kills it (137, OOMKilled), and the restart policy applies")
    void oomAboveLimit() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("memory-usage", "ramp(64Mi, 192Mi, 60s)"),
                limited("a", "64Mi", "128Mi")));
        Instant started = h.until(2).container("a").getState().getRunning().getStartedAt();

        h.until(Duration.between(T0, started).toSeconds() + 33);

        assertEquals(1, h.container("a").getRestartCount());
        var last = h.container("a").getLastState().getTerminated();
        assertEquals("OOMKilled", last.getReason());
        assertEquals(137, last.getExitCode());
        assertEquals(30, Duration.between(started, last.getFinishedAt()).toSeconds());
    }

    @Test
    @DisplayName("a container pushed above its limit by a load is OOM-killed when the sampler sees it")
    void oomFromLoad() {
        PodRunHarness h = new PodRunHarness(pod("Never", Map.of(), limited("a", "64Mi", "128Mi"))).until(5);

        h.run.oomKill("a", h.now);
        h.until(6);

        assertEquals("Terminated:OOMKilled(137)", h.state("a"));
        assertEquals("Failed", h.phase());
    }

    @Test
    @DisplayName("a usage that cannot be read keeps the container in CreateContainerConfigError, naming the annotation")
    void unreadable() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("cpu-usage.a", "wave(1)"), c("a"))).until(5);

        assertEquals("Waiting:CreateContainerConfigError", h.state("a"));
        String message = h.container("a").getState().getWaiting().getMessage();
        assertTrue(message.startsWith("annotation sim.eventplane.io/cpu-usage.a: \"wave(1)\" is not a usage"), message);
    }

    @Test
    @DisplayName("the stage file's usage rules declare what undeclared containers use, first match wins")
    void stageFileRules() {
        Stages stages = Stages.parse("""
                usage:
                  system: {cpu: 250m}
                  pods:
                  - selector:
                      matchExpressions: [{key: container.name, operator: In, values: [b]}]
                    cpu: 700m
                  - cpu: "step(100m, 10s, 200m)"
                    memory: 32Mi
                """, "s.yaml");
        assertEquals(0.25, stages.usage().system().cpu(), 1e-9);
        assertEquals(256 * MI, stages.usage().system().memory(), 1e-3);
        KubeletConfig config = PodRunHarness.CONFIG.withStages(stages);
        PodRunHarness h = new PodRunHarness(pod("Always", sim("cpu-usage.c", "50m"), c("a"), c("b"), c("c")), config)
                .until(30);

        Map<String, Double> use = cpu(h, 30, 0);

        assertEquals(Map.of("a", 0.2, "b", 0.7, "c", 0.05), use);
        assertEquals(32 * MI, RunningUsage.of(h.run, T0.plusSeconds(30), 0, 0).get(0).memory());
    }

    @Test
    @DisplayName("a usage rule may match only on what does not change while a container runs; errors name line and field")
    void stageFileErrors() {
        String dynamic = """
                usage:
                  pods:
                  - selector:
                      matchExpressions: [{key: container.ready, operator: In, values: ["true"]}]
                    cpu: 1
                """;
        var e = org.junit.jupiter.api.Assertions.assertThrows(Stages.InvalidStages.class,
                () -> Stages.parse(dynamic, "s.yaml"));
        assertTrue(e.getMessage().startsWith("s.yaml:4: usage.pods[0].selector.matchExpressions[0].key: "
                + "\"container.ready\" changes while a container runs"), e.getMessage());
        var bad = org.junit.jupiter.api.Assertions.assertThrows(Stages.InvalidStages.class,
                () -> Stages.parse("usage:\n  pods:\n  - cpu: lots\n", "s.yaml"));
        assertTrue(bad.getMessage().startsWith("s.yaml:3: usage.pods[0].cpu: \"lots\" is not a usage"), bad.getMessage());
        var none = org.junit.jupiter.api.Assertions.assertThrows(Stages.InvalidStages.class,
                () -> Stages.parse("usage:\n  pods:\n  - selector: {matchLabels: {a: b}}\n", "s.yaml"));
        assertEquals("s.yaml:3: usage.pods[0]: declares neither cpu nor memory", none.getMessage());
    }

    @Test
    @DisplayName("EVENTPLANE_NODESIM_SYSTEM_USAGE: cpu and memory, each optional")
    void systemSetting() {
        assertEquals(new UsageRules.SystemUse(0.5, 256 * MI), UsageRules.parseSystem("cpu=500m"));
        assertEquals(new UsageRules.SystemUse(0.1, 1024 * MI), UsageRules.parseSystem("memory=1Gi"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> UsageRules.parseSystem("gpu=1"));
    }
}
