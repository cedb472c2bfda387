package io.eventplane.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.Keys;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.FreePorts;
import java.io.IOException;
import java.io.Reader;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 item 2: {@code eventplane up} (everything in one process: broker, writer, gateway, scheduler, node-sim,
 * controllers; the registry a child process) is killed with SIGKILL mid-rollout and started again on the same data
 * directory. The rollout converges with the same promises as a single service's kill. Item 7 on the way: at the
 * moment {@code /readyz} first answers 200, the kubeconfig and the connection file the banner names exist.
 *
 * <p>Where a restart's time goes is reported step by step. The writer's store restore after the kill (no checkpoint
 * under exactly-once: TaskCorruptedException, restored whole from the changelog) takes tens of milliseconds for a few
 * hundred objects; the registry's start (a JVM of its own, ~20 s on a loaded 2-core machine) and the broker's
 * re-registration (refused until the killed incarnation's session expires: see LocalCluster) are the rest.
 */
class WholeClusterKillTest {
    static final String CASE = "2 kill -9 of eventplane up";
    static final int REPLICAS = Figures.LONG ? 100 : 30;
    static final Duration START = Duration.ofMinutes(4);

    final Path data = Path.of("target", "up-" + UUID.randomUUID()).toAbsolutePath();
    final List<ProcessHandle> orphans = new ArrayList<>();
    ServiceProcesses up;

    @AfterEach
    void stop() {
        if (up != null) {
            up.close();
        }
        orphans.forEach(ProcessHandle::destroyForcibly);
    }

    /** Polls {@code /readyz} until 200; then the files the banner names must be there already. */
    Duration awaitReadyWithFiles(Api api, List<String> failures, String when) throws InterruptedException {
        long t0 = System.nanoTime();
        try {
            api.awaitReady(START);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the launcher's last lines:\n"
                    + lastLines(up.latestLog("up"), 25), e);
        }
        for (String file : List.of("kubeconfig", "connection.properties")) {
            if (!Files.exists(data.resolve(file))) {
                failures.add(when + ": /readyz answered 200 before " + file + " existed");
            }
        }
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    @Test
    @DisplayName("issue 20 items 2 and 7: kill -9 of the single-process cluster mid-rollout, restarted on the same data directory: the rollout converges, nothing acknowledged lost or applied twice; /readyz only once the kubeconfig exists")
    void killWholeClusterMidRollout() throws Exception {
        int port = FreePorts.next();
        up = new ServiceProcesses("eventplane-up", Map.of());
        up.startWithHeap("up", "1g", "io.eventplane.launcher.Eventplane", Map.of(),
                "up", "--data-dir", data.toString(), "--port", Integer.toString(port), "--nodes", "2",
                "--insecure-http");
        Api api = new Api("http://127.0.0.1:" + port);
        List<String> failures = new ArrayList<>();
        Figures.report(CASE, "first start ready in", Figures.seconds(awaitReadyWithFiles(api, failures, "first start")));

        Rollout rollout = new Rollout(REPLICAS);
        List<String> acknowledged = new ArrayList<>();
        HttpResponse<String> created = api.post("/apis/apps/v1/namespaces/default/deployments", rollout.deployment());
        assertEquals(201, created.statusCode(), created.body());
        acknowledged.add(Keys.of("Deployment", "default", "web") + "@" + Rollout.rv(created.body()));
        rollout.awaitRolledOut(api);

        LoadGenerator background = new LoadGenerator(api, 20, "bg");
        HttpResponse<String> patched = rollout.patchUntilAcknowledged(api, 1);
        acknowledged.add(Keys.of("Deployment", "default", "web") + "@" + Rollout.rv(patched.body()));
        String progress = rollout.awaitMidRollout(api);

        // kill -9 of the launcher alone: its registry child lives on as an orphan, as it would
        orphans.addAll(up.killAlone("up"));
        long killed = System.nanoTime();
        Files.deleteIfExists(data.resolve("kubeconfig"));
        Files.deleteIfExists(data.resolve("connection.properties"));
        up.restart("up");
        Duration restart = awaitReadyWithFiles(api, failures, "restart");
        rollout.awaitRolledOut(api);
        long converged = System.nanoTime();
        Figures.report(CASE, "killed at " + progress + ": ready again after", Figures.seconds(restart));
        restartSteps(up.latestLog("up"));
        Figures.report(CASE, "rollout converged after the kill in", Figures.seconds(converged - killed));
        rollout.checkPods(api, failures, "eventplane up");
        long orphansLeft = orphans.stream().filter(ProcessHandle::isAlive).count();
        Figures.report(CASE, "processes of the killed launcher still running after the restart", orphansLeft);
        List<LoadGenerator.Answer> answers = background.stop();

        Promises.check(CASE, connection(), api, acknowledged, answers, failures);
        assertEquals(0, orphansLeft, "the restart stopped the registry the killed launcher left behind");
        assertTrue(restart.compareTo(START) < 0);
    }

    /** The last {@code n} lines of a log that are not stack frames, for a failure message CI shows. */
    static String lastLines(Path log, int n) {
        try {
            List<String> lines = Files.readAllLines(log).stream()
                    .filter(l -> !l.startsWith("\tat ") && !l.startsWith("\t... ")).toList();
            return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
        } catch (IOException e) {
            return "(" + log + " unreadable: " + e + ")";
        }
    }

    /**
     * Where the restart's time went, from {@code up}'s own step lines ({@code [ 14.1s] Kafka ... ready}) and the
     * writer's restore line: broker (log recovery, re-registration), registry, writer (its store restored from the
     * changelog when the kill left no checkpoint), the gateway's view replayed.
     */
    static void restartSteps(Path log) throws IOException {
        Pattern step = Pattern.compile("^\\[\\s*(\\d+\\.\\d)s\\] (Kafka|Apicurio|single writer|writer \\(|API gateway|controllers)");
        Pattern restored = Pattern.compile("restored store (\\S+) from \\S+: (\\d+) records in (\\d+) ms");
        Pattern view = Pattern.compile("view caught up with the event log in (\\d+) ms \\((\\d+) objects\\)");
        List<String> steps = new ArrayList<>();
        for (String line : Files.readAllLines(log)) {
            Matcher s = step.matcher(line);
            Matcher r = restored.matcher(line);
            Matcher v = view.matcher(line);
            if (s.find()) {
                steps.add(s.group(2).replace(" (", "") + " at " + s.group(1) + " s");
            } else if (r.find()) {
                Figures.report(CASE, "restart: writer store " + r.group(1) + " restored from its changelog",
                        r.group(2) + " records in " + r.group(3) + " ms");
            } else if (v.find()) {
                Figures.report(CASE, "restart: gateway view replayed", v.group(2) + " objects in " + v.group(1) + " ms");
            }
        }
        Figures.report(CASE, "restart: steps ready (from the launcher's start)", steps);
    }

    /** How to reach the log, from the file {@code eventplane up} writes. */
    EventplaneConfig connection() throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(data.resolve("connection.properties"))) {
            p.load(r);
        }
        return new EventplaneConfig(p.getProperty("bootstrap"), p.getProperty("registry"),
                new Topics(p.getProperty("topic-prefix")), Integer.parseInt(p.getProperty("partitions")));
    }
}
