package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.testkit.SharedClusterExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The load test against a real control loop: every pod measured, from the log and the watch, into both reports. */
@ExtendWith(SharedClusterExtension.class)
class LoadTestEndToEndTest {

    @Test
    @DisplayName("loadtest: 30 pods on 3 nodes after a warm-up of 6, each pod's phases measured, reports written with their plots")
    void smallRun(@TempDir Path dir) throws Exception {
        try (ControlLoop loop = new ControlLoop().start(dir).startControllers("serviceaccount,namespace");
             GatewayServer gateway = GatewayServer.start(loop.config(), 0, "127.0.0.1")) {
            LoadTestRun.Plan plan = new LoadTestRun.Plan(3, 30, "pods", 10, 0, 0, Duration.ZERO,
                    Duration.ofSeconds(120), 1, 6);
            ByteArrayOutputStream progress = new ByteArrayOutputStream();
            LoadTestRun run = new LoadTestRun(gateway.url(), loop.config(), plan,
                    new PrintStream(progress, true, StandardCharsets.UTF_8));
            run.run();
            LoadTestTimeline timeline = LoadTestTimeline.read(loop.config(), LoadTestRun.NAMESPACE, run.startOffsets,
                    run.endOffsets);
            LoadTestReport report = new LoadTestReport(run, timeline, plan, LoadTestCommand.environment());
            report.write(dir.resolve("report"));

            assertEquals(30, report.podsRunning, progress.toString(StandardCharsets.UTF_8));
            for (String phase : LoadTestReport.PHASES) {
                assertEquals(30, report.phaseStats.get(phase).count(), phase);
                assertTrue(report.phaseStats.get(phase).p50() >= 0, phase);
            }
            assertEquals(30, report.apiStats.get("POST pods").count());
            double bound = 0;
            for (double v : report.scheduledPerSecond) {
                bound += v;
            }
            assertEquals(30, bound, "every binding falls in a second of the throughput series");
            assertTrue(progress.toString(StandardCharsets.UTF_8).contains("created 30/30"),
                    progress.toString(StandardCharsets.UTF_8));
            assertTrue(progress.toString(StandardCharsets.UTF_8).contains("warm-up done"),
                    progress.toString(StandardCharsets.UTF_8));
            assertEquals(404, new Http(gateway.url()).get("/api/v1/namespaces/" + LoadTestWarmup.NAMESPACE).statusCode(),
                    "the warm-up's namespace is gone before the measured phase");

            JsonNode json = Http.JSON.readTree(dir.resolve("report/report.json").toFile());
            assertEquals(30, json.path("summary").path("podsRunning").asInt());
            assertEquals(30, json.path("podStartupLatencyMs").path("end_to_end").path("count").asInt());
            assertEquals(Runtime.getRuntime().availableProcessors(), json.path("environment").path("cores").asInt());
            // 30 pods: at least a create, a binding and a Running status each
            assertTrue(json.path("cpu").path("changes").asLong() >= 90, json.path("cpu").toString());
            assertTrue(json.path("cpu").path("processSeconds").asDouble() > 0, json.path("cpu").toString());
            assertTrue(json.path("cpu").path("processMsPerChange").asDouble() > 0, json.path("cpu").toString());
            assertTrue(json.path("cpu").path("components").path("writer").path("seconds").asDouble() > 0,
                    json.path("cpu").toString());
            assertTrue(report.text().contains("ms per change"), report.text());
            String html = Files.readString(dir.resolve("report/report.html"));
            for (String plot : List.of("CDF of pod startup latency by phase", "End-to-end pod startup latency",
                    "Pods per second", "Writer lag", "CPU by component")) {
                assertTrue(html.contains(plot), plot);
            }
            assertTrue(html.contains("<svg") && !html.contains("<script"), "self-contained, no scripts");
        }
    }

    @Test
    @DisplayName("loadtest: CPU is attributed to components by thread name")
    void cpuComponents() {
        Map<String, String> expected = Map.ofEntries(
                Map.entry("ep-writer-25f4-StreamThread-1", "writer"),
                Map.entry("kafka-producer-network-thread | ep-writer-25f4-StreamThread-1-producer", "writer"),
                Map.entry("scheduler-view-view", "views"),
                Map.entry("node-sim-node--view-view", "views"),
                Map.entry("gateway-bb1d2-view", "views"),
                Map.entry("shared-ep-view", "views"),
                Map.entry("scheduler-worker", "scheduler"),
                Map.entry("event-recorder-default-scheduler", "scheduler"),
                Map.entry("node-sim-node-", "node-sim"),
                Map.entry("event-recorder-kubelet", "node-sim"),
                Map.entry("kafka-producer-network-thread | node-sim-node--membership", "node-sim"),
                Map.entry("deployment-controller-worker", "controllers"),
                Map.entry("gateway-bb1d2-services-3", "gateway"),
                Map.entry("io-executor-thread-7", "gateway"),
                Map.entry("kafka-scheduler-4", "broker"),
                Map.entry("data-plane-kafka-request-handler-2", "broker"),
                Map.entry("HttpClient-3-Worker-1", "loadtest"));
        expected.forEach((thread, component) -> assertEquals(component, CpuUsage.component(thread), thread));
    }

    @Test
    @DisplayName("loadtest: percentiles are nearest-rank, as ClusterLoader2 reports them")
    void percentiles() {
        double[] v = new double[100];
        for (int i = 0; i < 100; i++) {
            v[i] = 100 - i;
        }
        Percentiles p = Percentiles.of(v);
        assertEquals(50, p.p50());
        assertEquals(90, p.p90());
        assertEquals(99, p.p99());
        assertEquals(100, p.max());
        assertEquals(50.5, p.mean());
        assertEquals(0, Percentiles.of(new double[0]).count());
    }
}
