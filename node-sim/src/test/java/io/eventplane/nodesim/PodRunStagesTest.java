package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.probe;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Stages ({@link Stages}) driving {@link PodRun} on a virtual clock; the kubelet's rules still apply. */
class PodRunStagesTest {

    static KubeletConfig config(String yaml) {
        return PodRunHarness.CONFIG.withStages(Stages.parse(yaml, "test.yaml"));
    }

    static Pod named(Pod p, String uid, Map<String, String> labels) {
        return Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setName(uid).setUid(uid)
                .setLabels(new HashMap<>(labels)).build()).build();
    }

    static final String EXIT_AT_30 = """
            stages:
            - name: crash-once
              selector:
                matchExpressions:
                - {key: container.restartCount, operator: In, values: ["0"]}
              delay: {durationMilliseconds: 30000}
              next:
              - {action: exit, exitCode: 1}
            """;

    @Test
    @DisplayName("POD-5.2 a stage makes the program exit 1 30 s after its start; restartPolicy Always restarts it "
            + "and the next run no longer matches")
    void exitRestarts() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), c("c")), config(EXIT_AT_30)).until(600);

        // started at 1 s (pull), exits at 31 s, restarted after one sync
        assertEquals(List.of(31L), h.times("c", "Terminated:Error(1)"));
        assertEquals(List.of(1L, 32L), h.times("c", "Running"));
        assertEquals(1, h.container("c").getRestartCount());
        assertEquals("Running", h.phase());
        assertEquals("True", h.condition("Ready"));
    }

    @Test
    @DisplayName("POD-3.12 under restartPolicy Never the stage's exit 1 fails the pod; exit 0 under OnFailure "
            + "completes it")
    void exitUnderPolicies() {
        assertEquals("Failed", new PodRunHarness(pod("Never", Map.of(), c("c")), config(EXIT_AT_30)).until(60).phase());
        PodRunHarness ok = new PodRunHarness(pod("OnFailure", Map.of(), c("c")),
                config(EXIT_AT_30.replace("exitCode: 1", "exitCode: 0"))).until(60);
        assertEquals("Succeeded", ok.phase());
        assertEquals("Terminated:Completed(0)", ok.state("c"));
    }

    @Test
    @DisplayName("POD-4.8 a stage OOM-kills the program: 137, OOMKilled")
    void oomKill() {
        PodRunHarness h = new PodRunHarness(pod("Never", Map.of(), c("c")), config("""
                stages:
                - name: oom
                  delay: {durationMilliseconds: 5000}
                  next: [{action: oomKill}]
                """)).until(60);

        assertEquals("Terminated:OOMKilled(137)", h.state("c"));
        assertEquals("Failed", h.phase());
    }

    @Test
    @DisplayName("fail 10% after 30 s +- 10 s: the draws follow the weights and the jitter, and the same seed repeats "
            + "them exactly")
    void weightsJitterAndSeed() {
        KubeletConfig config = PodRunHarness.CONFIG.withStages(
                Stages.load(StagesTest.EXAMPLES.resolve("fail-some.yaml")));
        List<String> first = failures(config, 150);
        List<String> again = failures(config, 150);
        List<String> otherSeed = failures(config.withSeed(99), 150);

        assertEquals(first, again, "same seed, same history");
        assertNotEquals(first, otherSeed);
        // 150 pods, weight 1 in 10: about 15 fail (this seed gives a fixed count; the bounds state the intent)
        assertTrue(first.size() >= 5 && first.size() <= 27, "failed: " + first.size());
        List<Long> times = first.stream().map(s -> Long.parseLong(s.substring(s.indexOf('@') + 1))).toList();
        // started at 1 s: the exit comes 20 to 40 s later, spread over that range
        assertTrue(times.stream().allMatch(t -> t >= 21_000 && t <= 41_000), times.toString());
        assertTrue(times.stream().anyMatch(t -> t < 26_000) && times.stream().anyMatch(t -> t > 36_000),
                times.toString());
    }

    /** "pod@millis" for each of {@code n} pods whose container exited 1, in pod order. */
    private static List<String> failures(KubeletConfig config, int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            PodRunHarness h = new PodRunHarness(named(pod("Always", Map.of(), c("c")), "uid-" + i, Map.of()), config)
                    .until(42);
            for (PodRunHarness.Snapshot s : h.history) {
                if (PodRunHarness.state(PodRunHarness.find(s.pod(), "c")).equals("Terminated:Error(1)")) {
                    out.add(i + "@" + java.time.Duration.between(PodRunHarness.T0, s.at()).toMillis());
                    break;
                }
            }
        }
        return out;
    }

    @Test
    @DisplayName("POD-7.7 flaky readiness: the readiness probe fails, failureThreshold probes later the container is "
            + "unready (Ready False), and it becomes ready again at a probe once the probe succeeds")
    void flakyReadiness() {
        Container k = Container.newBuilder(c("c")).setReadinessProbe(probe(0, 5, 1, 2)).build();
        PodRunHarness h = new PodRunHarness(named(pod("Always", Map.of(), k), "uid-f",
                Map.of("sim.eventplane.io/flaky", "true")), config("""
                stages:
                - name: fails
                  selector:
                    matchLabels: {sim.eventplane.io/flaky: "true"}
                    matchExpressions: [{key: container.ready, operator: In, values: ["true"]}]
                  delay: {durationMilliseconds: 20000}
                  next: [{action: unready}]
                - name: recovers
                  selector:
                    matchExpressions:
                    - {key: container.ready, operator: In, values: ["false"]}
                    - {key: container.started, operator: In, values: ["true"]}
                  delay: {durationMilliseconds: 12000}
                  next: [{action: ready}]
                """)).until(100);

        // probes at 1, 6, 11 ... s. Ready at 1. Fails from 21: probes at 26 and 31 fail -> unready at 31.
        // Recovers from 43: probe at 46 -> ready. Fails again from 66: 71, 76 -> unready at 76; ready at 91.
        List<String> ready = new ArrayList<>();
        Boolean before = null;
        for (PodRunHarness.Snapshot s : h.history) {
            boolean r = PodRunHarness.find(s.pod(), "c").getReady();
            if (before == null || r != before) {
                ready.add(s.second() + "s " + (r ? "ready" : "unready"));
            }
            before = r;
        }
        assertEquals(List.of("0s unready", "1s ready", "31s unready", "46s ready", "76s unready", "91s ready"), ready);
        assertEquals(0, h.container("c").getRestartCount(), "readiness never restarts a container");
        assertTrue(h.events.stream().anyMatch(e -> e.reason().equals("Unhealthy")
                && e.message().startsWith("Readiness probe failed")));
    }

    @Test
    @DisplayName("POD-7.7 the flaky-readiness example: a labelled pod's readiness flips again and again, the same "
            + "way with the same seed; an unlabelled pod stays Ready")
    void flakyReadinessExample() {
        KubeletConfig config = PodRunHarness.CONFIG.withStages(
                Stages.load(StagesTest.EXAMPLES.resolve("flaky-readiness.yaml")));
        Container k = Container.newBuilder(c("c")).setReadinessProbe(probe(0, 5, 1, 3)).build();
        Pod flaky = named(pod("Always", Map.of(), k), "uid-flaky", Map.of("sim.eventplane.io/flaky", "true"));
        List<Boolean> one = readiness(new PodRunHarness(flaky, config).until(600));
        List<Boolean> two = readiness(new PodRunHarness(flaky, config).until(600));
        PodRunHarness steady = new PodRunHarness(named(pod("Always", Map.of(), k), "uid-steady", Map.of()), config)
                .until(600);

        assertEquals(one, two);
        assertTrue(one.stream().filter(r -> !r).count() >= 10, "unready again and again: " + one);
        assertEquals(List.of(false, true), readiness(steady));
    }

    /** The container's readiness each time it changed. */
    private static List<Boolean> readiness(PodRunHarness h) {
        List<Boolean> out = new ArrayList<>();
        for (PodRunHarness.Snapshot s : h.history) {
            boolean r = PodRunHarness.find(s.pod(), "c").getReady();
            if (out.isEmpty() || out.get(out.size() - 1) != r) {
                out.add(r);
            }
        }
        return out;
    }

    @Test
    @DisplayName("POD-5.13 a stage makes the liveness probe fail: killed after failureThreshold failures, restarted")
    void livenessFails() {
        Container k = Container.newBuilder(c("c")).setLivenessProbe(probe(0, 10, 1, 3)).build();
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), k), config("""
                stages:
                - name: hangs
                  selector:
                    matchExpressions: [{key: container.restartCount, operator: Lt, values: ["1"]}]
                  delay: {durationMilliseconds: 15000}
                  next: [{action: livenessFails}]
                """)).until(120);

        // started at 1 s; probes at 1, 11, 21, 31, 41: failing from 16 s, the third failure at 41
        assertEquals(List.of(41L), h.times("c", "Terminated:Error(137)"));
        assertEquals(1, h.container("c").getRestartCount());
        assertEquals("Running", h.state("c"));
        assertTrue(h.events.stream().anyMatch(e -> e.message().contains("failed liveness probe")));
    }

    @Test
    @DisplayName("a stage whose probe the container lacks does nothing: without a readiness probe it stays ready")
    void noProbeNoEffect() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), c("c")), config("""
                stages:
                - name: unready
                  next: [{action: unready}]
                """)).until(100);

        assertEquals("True", h.condition("Ready"));
    }

    @Test
    @DisplayName("selectors: pod labels and annotations, container name and type choose which containers a stage acts on")
    void selectors() {
        KubeletConfig config = config("""
                stages:
                - name: web-only
                  selector:
                    matchLabels: {app: web}
                    matchAnnotations: {chaos: "on"}
                    matchExpressions:
                    - {key: container.name, operator: In, values: [main]}
                    - {key: container.type, operator: NotIn, values: [sidecar, init]}
                    - {key: pod.namespace, operator: In, values: [default]}
                  delay: {durationMilliseconds: 5000}
                  next: [{action: exit, exitCode: 3}]
                """);
        Pod two = pod("Never", Map.of("chaos", "on"), c("main"), c("other"));
        PodRunHarness web = new PodRunHarness(named(two, "uid-web", Map.of("app", "web")), config).until(30);
        PodRunHarness db = new PodRunHarness(named(two, "uid-db", Map.of("app", "db")), config).until(30);

        assertEquals("Terminated:Error(3)", web.state("main"));
        assertEquals("Running", web.state("other"));
        assertEquals("Running", db.state("main"));
    }

    @Test
    @DisplayName("POD-12.3 a stage that stops matching before its delay is over does nothing: the pod was deleted, "
            + "its program exits 0 on SIGTERM")
    void stopsMatching() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), c("c")), config("""
                stages:
                - name: crash-while-alive
                  selector:
                    matchExpressions: [{key: pod.deleting, operator: In, values: ["false"]}]
                  delay: {durationMilliseconds: 30000}
                  next: [{action: exit, exitCode: 1}]
                """)).until(10).delete(30).until(60);

        assertEquals("Terminated:Completed(0)", h.state("c"));
        assertTrue(h.run.finished());
        assertTrue(h.times("c", "Terminated:Error(1)").isEmpty());
    }

    @Test
    @DisplayName("a label added to a running pod arms a stage from that moment")
    void labelAddedLater() {
        PodRunHarness h = new PodRunHarness(pod("Never", Map.of(), c("c")), config("""
                stages:
                - name: labelled
                  selector: {matchLabels: {doomed: "yes"}}
                  delay: {durationMilliseconds: 10000}
                  next: [{action: exit, exitCode: 2}]
                """)).until(50);
        assertEquals("Running", h.state("c"));

        h.pod = named(h.pod, "uid-p", Map.of("doomed", "yes"));
        h.until(50); // sees the label at 50 s
        h.run.advanceTo(h.pod, h.now);
        h.until(100);

        assertEquals(List.of(60L), h.times("c", "Terminated:Error(2)"));
    }

    @Test
    @DisplayName("defaults: without stages a plain pod starts, is Ready and nothing more happens")
    void noStages() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), c("c")), PodRunHarness.CONFIG).until(3600);
        assertEquals("True", h.condition("Ready"));
        assertTrue(h.run.nextChangeAt().isEmpty());
        assertFalse(h.history.isEmpty());
    }
}
