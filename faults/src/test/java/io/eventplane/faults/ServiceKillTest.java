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
    static final Duration CONVERGE = Rollout.CONVERGE;
    static final int BACKGROUND_WRITES_PER_SECOND = 20;
    final Rollout rollout = new Rollout(REPLICAS);

    ServiceProcesses services;

    @AfterEach
    void stop() {
        if (services != null) {
            services.close();
        }
    }

    void startAll(Map<String, String> env) throws Exception {
        services = new ServiceProcesses("service-kill", env);
        services.start("writer", "io.eventplane.topology.WriterMain", Map.of());
        // -Pscale: more writer processes in the writer's group, each with its own state (the first one is killed)
        for (int i = 2; i <= EventplaneConfig.configuredWriters(); i++) {
            services.start("writer-" + i, "io.eventplane.topology.WriterMain",
                    Map.of("EVENTPLANE_STATE_DIR", env.get("EVENTPLANE_STATE_DIR") + "-" + i));
        }
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
                "EVENTPLANE_NODES", "2",
                "EVENTPLANE_PARTITIONS", Integer.toString(EventplaneConfig.configuredPartitions())));
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics(prefix), EventplaneConfig.configuredPartitions());
        Api api = new Api("http://127.0.0.1:" + port);
        api.await("/api/v1/nodes", n -> n.path("items").size() == 2, Duration.ofSeconds(120));
        // as a client (Helm's --wait, the chart's probes) would: /readyz says the system objects (namespace default)
        // exist; with several writers still sharing out their partitions the gateway may answer before they do
        api.awaitReady(Duration.ofSeconds(120));

        // acknowledged writes of the test itself, as key@resourceVersion
        List<String> acknowledged = new ArrayList<>();
        HttpResponse<String> created = api.post("/apis/apps/v1/namespaces/default/deployments", rollout.deployment());
        assertEquals(201, created.statusCode(), created.body());
        acknowledged.add(Keys.of("Deployment", "default", "web") + "@" + Rollout.rv(created.body()));
        long t0 = System.nanoTime();
        rollout.awaitRolledOut(api);
        Figures.report(CASE, REPLICAS + " replicas first rolled out in", Figures.seconds(System.nanoTime() - t0));

        LoadGenerator background = new LoadGenerator(api, BACKGROUND_WRITES_PER_SECOND, "bg");
        List<String> failures = new ArrayList<>();
        int round = 0;
        for (String victim : VICTIMS) {
            round++;
            HttpResponse<String> patched = rollout.patchUntilAcknowledged(api, round);
            acknowledged.add(Keys.of("Deployment", "default", "web") + "@" + Rollout.rv(patched.body()));
            long start = System.nanoTime();
            String progress = rollout.awaitMidRollout(api);
            services.kill(victim);
            long killed = System.nanoTime();
            services.restart(victim);
            rollout.awaitRolledOut(api);
            long converged = System.nanoTime();
            Figures.report(CASE, "killed " + victim + " at " + progress + ": converged after the kill in",
                    Figures.seconds(converged - killed) + " (rollout " + Figures.seconds(converged - start) + ")");
            rollout.checkPods(api, failures, victim);
        }
        List<LoadGenerator.Answer> answers = background.stop();

        Promises.check(CASE, config, api, acknowledged, answers, failures);
    }

}
