package io.eventplane.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.Keys;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.FreePorts;
import io.eventplane.testkit.SharedCluster;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 item 1: each service, as a process of its own (as the Helm chart runs them), is killed with SIGKILL in the
 * middle of a Deployment rollout and started again. The rollout converges; no ReplicaSet ever created a pod beyond its
 * replicas (no twins) and none is lost; every write the API acknowledged (the rollouts and a light stream of
 * ConfigMap creates) is in the log exactly once and no command was applied twice; the objects the API serves equal
 * the log folded from the start. The CI mode kills the services that take part in a rollout's every step; the long
 * mode ({@code -Pfaults-long}) every service, with 100 replicas.
 */
class ServiceKillTest {
    static final String CASE = "1 kill -9 mid-rollout";
    static final int REPLICAS = Figures.LONG ? 100 : 30;
    static final List<String> VICTIMS = Figures.LONG
            ? List.of("writer", "gateway", "scheduler", "replicaset", "deployment", "garbagecollector", "node-sim")
            : List.of("writer", "replicaset", "deployment", "scheduler");
    static final Duration CONVERGE = Duration.ofSeconds(180);
    static final int BACKGROUND_WRITES_PER_SECOND = 20;

    ServiceProcesses services;

    @AfterEach
    void stop() {
        if (services != null) {
            services.close();
        }
    }

    static String deployment(int replicas) {
        return "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"web\"},"
                + "\"spec\":{\"replicas\":" + replicas + ",\"selector\":{\"matchLabels\":{\"app\":\"web\"}},"
                + "\"strategy\":{\"rollingUpdate\":{\"maxSurge\":\"25%\",\"maxUnavailable\":\"25%\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"app\":\"web\"}},"
                + "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:1\"}]}}}}";
    }

    /** The rollout is done: every replica updated, available, and nothing of the old ReplicaSets left. */
    static boolean rolledOut(JsonNode d) {
        JsonNode s = d.path("status");
        return s.path("observedGeneration").asLong() == d.path("metadata").path("generation").asLong()
                && s.path("updatedReplicas").asInt() == REPLICAS && s.path("replicas").asInt() == REPLICAS
                && s.path("availableReplicas").asInt() == REPLICAS && s.path("readyReplicas").asInt() == REPLICAS;
    }

    void startAll(Map<String, String> env) throws Exception {
        services = new ServiceProcesses("service-kill", env);
        services.start("writer", "io.eventplane.topology.WriterMain", Map.of());
        services.start("gateway", "io.eventplane.gateway.GatewayMain", Map.of());
        services.start("scheduler", "io.eventplane.scheduler.SchedulerMain", Map.of());
        services.start("node-sim", "io.eventplane.nodesim.NodeSimMain", Map.of());
        // one controller per process, with leader election, as the Helm chart runs them
        for (String c : List.of("replicaset", "deployment", "garbagecollector")) {
            services.start(c, "io.eventplane.controllers.ControllerManager", Map.of("EVENTPLANE_CONTROLLERS", c));
        }
    }

    @Test
    @DisplayName("issue 20 item 1: kill -9 of each service mid-rollout: the rollout converges, no twin or lost pod, every acknowledged write in the log once, the served state equals the log's fold")
    void killEachServiceMidRollout() throws Exception {
        SharedCluster cluster = SharedCluster.get().startAll();
        int port = FreePorts.next();
        String prefix = "kill" + UUID.randomUUID().toString().substring(0, 8);
        startAll(Map.of(
                "EVENTPLANE_KAFKA_BOOTSTRAP", cluster.bootstrapServers(),
                "EVENTPLANE_REGISTRY_URL", cluster.registryUrl(),
                "EVENTPLANE_TOPIC_PREFIX", prefix,
                "EVENTPLANE_STATE_DIR", Path.of("target", "kill-writer-" + prefix).toAbsolutePath().toString(),
                "EVENTPLANE_API_PORT", Integer.toString(port),
                "EVENTPLANE_API_HOST", "127.0.0.1",
                "EVENTPLANE_NODES", "2"));
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics(prefix), 1);
        Api api = new Api("http://127.0.0.1:" + port);
        api.await("/api/v1/nodes", n -> n.path("items").size() == 2, Duration.ofSeconds(120));

        // acknowledged writes of the test itself, as key@resourceVersion
        List<String> acknowledged = new ArrayList<>();
        HttpResponse<String> created = api.post("/apis/apps/v1/namespaces/default/deployments", deployment(REPLICAS));
        assertEquals(201, created.statusCode(), created.body());
        acknowledged.add(Keys.of("Deployment", "default", "web") + "@" + rv(created.body()));
        long t0 = System.nanoTime();
        api.await("/apis/apps/v1/namespaces/default/deployments/web", ServiceKillTest::rolledOut, CONVERGE);
        Figures.report(CASE, REPLICAS + " replicas first rolled out in", Figures.seconds(System.nanoTime() - t0));

        LoadGenerator background = new LoadGenerator(api, BACKGROUND_WRITES_PER_SECOND, "bg");
        List<String> failures = new ArrayList<>();
        int round = 0;
        for (String victim : VICTIMS) {
            round++;
            HttpResponse<String> patched = patchUntilAcknowledged(api, round);
            acknowledged.add(Keys.of("Deployment", "default", "web") + "@" + rv(patched.body()));
            long start = System.nanoTime();
            JsonNode mid = api.await("/apis/apps/v1/namespaces/default/deployments/web",
                    d -> d.path("status").path("updatedReplicas").asInt() >= REPLICAS / 4 || rolledOut(d),
                    CONVERGE);
            String progress = mid.path("status").path("updatedReplicas").asInt() + "/" + REPLICAS + " updated";
            services.kill(victim);
            long killed = System.nanoTime();
            services.restart(victim);
            JsonNode done = api.await("/apis/apps/v1/namespaces/default/deployments/web", ServiceKillTest::rolledOut,
                    CONVERGE);
            long converged = System.nanoTime();
            Figures.report(CASE, "killed " + victim + " at " + progress + ": converged after the kill in",
                    Figures.seconds(converged - killed) + " (rollout " + Figures.seconds(converged - start) + ")");
            checkPods(api, done, failures, victim);
        }
        List<LoadGenerator.Answer> answers = background.stop();

        // The log: every acknowledged write once, nothing applied twice, no ReplicaSet above its replicas.
        LogCheck log = LogCheck.read(config);
        List<String> lost = new ArrayList<>();
        for (String write : acknowledged) {
            int at = write.lastIndexOf('@');
            if (log.count(write.substring(0, at), Long.parseLong(write.substring(at + 1))) != 1) {
                lost.add(write);
            }
        }
        long backgroundAcks = 0;
        for (LoadGenerator.Answer a : answers) {
            if (a.status() == 201) {
                backgroundAcks++;
                if (log.creations(Keys.of("ConfigMap", "default", a.name()), a.uid()) != 1) {
                    lost.add("ConfigMap " + a.name());
                }
            }
        }
        List<LoadGenerator.Answer> errors = answers.stream()
                .filter(a -> a.status() >= 500 && a.status() != 503 && a.status() != 504).toList();
        Map<String, LogCheck.ReplicaSetTally> tallies = new HashMap<>();
        List<String> violations = log.replicaSetViolations(tallies);
        Map<String, Integer> repeated = log.repeatedRequests();
        Figures.report(CASE, "acknowledged writes (rollouts + background creates)",
                acknowledged.size() + " + " + backgroundAcks + " of " + answers.size());
        Figures.report(CASE, "acknowledged writes lost or doubled", lost.size());
        Figures.report(CASE, "commands applied twice", repeated.size());
        Figures.report(CASE, "pods created by a ReplicaSet above its replicas (twins)", violations.size());
        Figures.report(CASE, "background 5xx other than 503/504", errors.size());

        // State rebuilt from the log equals the state served (read again while the gateway's view catches up).
        String difference = "";
        for (int attempt = 0; attempt < 20; attempt++) {
            difference = differences(LogCheck.read(config).liveVersions("default", "Pod", "ConfigMap"),
                    served(api));
            if (difference.equals("0")) {
                break;
            }
            Thread.sleep(500);
        }
        Figures.report(CASE, "served objects differing from the log's fold", difference);

        assertEquals(List.of(), failures);
        assertEquals(List.of(), lost, "every acknowledged write is in the log exactly once");
        assertEquals(Map.of(), repeated, "no command applied twice");
        assertEquals(List.of(), violations, "no ReplicaSet created a pod beyond its replicas");
        assertEquals(List.of(), errors);
        assertEquals("0", difference, "the served state is the log's fold");
        assertTrue(backgroundAcks > 0);
    }

    /** Changes the template (a new ReplicaSet: a rollout); retried while the API is away (its process was killed). */
    static HttpResponse<String> patchUntilAcknowledged(Api api, int round) throws Exception {
        String patch = "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx:"
                + (round + 1) + "\"}]}}}}";
        long deadline = System.nanoTime() + CONVERGE.toNanos();
        HttpResponse<String> r = null;
        while (System.nanoTime() < deadline) {
            r = api.patch("/apis/apps/v1/namespaces/default/deployments/web", "application/strategic-merge-patch+json",
                    patch);
            if (r.statusCode() == 200) {
                return r;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the rollout could not be started: " + (r == null ? "" : r.body()));
    }

    /** After convergence: exactly {@code REPLICAS} pods of the Deployment, all Running, each name once. */
    static void checkPods(Api api, JsonNode deployment, List<String> failures, String victim) throws Exception {
        JsonNode pods = api.getJson("/api/v1/namespaces/default/pods?labelSelector=app%3Dweb");
        List<String> running = new ArrayList<>();
        pods.path("items").forEach(p -> {
            if (p.path("metadata").path("deletionTimestamp").isMissingNode()
                    && "Running".equals(p.path("status").path("phase").asText())) {
                running.add(p.path("metadata").path("name").asText());
            }
        });
        if (running.size() != REPLICAS || running.stream().distinct().count() != REPLICAS) {
            failures.add("after killing " + victim + ": " + running.size() + " running pods for " + REPLICAS
                    + " replicas (" + pods.path("items").size() + " in all)");
        }
    }

    /** The pods and ConfigMaps the API serves, as key@resourceVersion. */
    static List<String> served(Api api) throws Exception {
        List<String> out = new ArrayList<>();
        for (String kind : List.of("Pod", "ConfigMap")) {
            api.getJson("/api/v1/namespaces/default/" + kind.toLowerCase(java.util.Locale.ROOT) + "s").path("items")
                    .forEach(i -> out.add(Keys.of(kind, "default", i.path("metadata").path("name").asText()) + "@"
                            + i.path("metadata").path("resourceVersion").asText()));
        }
        return out;
    }

    static long rv(String body) throws Exception {
        return Long.parseLong(Api.JSON.readTree(body).path("metadata").path("resourceVersion").asText());
    }

    static String differences(List<String> a, List<String> b) {
        a = a.stream().sorted().toList();
        b = b.stream().sorted().toList();
        List<String> onlyA = new ArrayList<>(a);
        onlyA.removeAll(b);
        List<String> onlyB = new ArrayList<>(b);
        onlyB.removeAll(a);
        return (onlyA.size() + onlyB.size()) + (onlyA.isEmpty() && onlyB.isEmpty() ? ""
                : " (only in the log: " + onlyA + ", only served: " + onlyB + ")");
    }
}
