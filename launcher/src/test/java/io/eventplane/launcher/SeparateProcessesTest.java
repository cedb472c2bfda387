package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.testkit.FreePorts;
import io.eventplane.testkit.SharedCluster;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every service as an operating-system process of its own (as the Helm chart runs them), against a shared broker and
 * registry: the loop works, and a writer killed with SIGKILL comes back without losing or repeating anything.
 */
class SeparateProcessesTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    final Map<String, Process> processes = new LinkedHashMap<>();
    final Path logs = Path.of("target", "process-logs");
    Map<String, String> env;

    @AfterEach
    void stopAll() {
        processes.values().forEach(Process::destroyForcibly);
    }

    Process spawn(String name, String mainClass) throws Exception {
        return spawn(name, mainClass, Map.of());
    }

    Process spawn(String name, String mainClass, Map<String, String> extraEnv) throws Exception {
        logs.toFile().mkdirs();
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:TieredStopAtLevel=1",
                "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.eventplane",
                "-Dlog4j2.configurationFile=log4j2-test.xml",
                "-cp", System.getProperty("java.class.path"), mainClass));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(logs.resolve(name + ".log").toFile());
        pb.environment().putAll(env);
        pb.environment().putAll(extraEnv);
        Process p = pb.start();
        processes.put(name, p);
        return p;
    }

    @Test
    @DisplayName("writer, gateway, scheduler, node-sim and the controller manager as separate processes run a pod and a Deployment, and survive kill -9 of the writer")
    void separateProcesses() throws Exception {
        SharedCluster cluster = SharedCluster.get();
        int port = FreePorts.next();
        env = Map.of(
                "EVENTPLANE_KAFKA_BOOTSTRAP", cluster.bootstrapServers(),
                "EVENTPLANE_REGISTRY_URL", cluster.registryUrl(),
                "EVENTPLANE_TOPIC_PREFIX", "proc" + UUID.randomUUID().toString().substring(0, 8),
                "EVENTPLANE_STATE_DIR", new File("target/proc-writer-" + UUID.randomUUID()).getAbsolutePath(),
                "EVENTPLANE_API_PORT", Integer.toString(port),
                "EVENTPLANE_API_HOST", "127.0.0.1",
                "EVENTPLANE_NODES", "2");
        spawn("writer", "io.eventplane.topology.WriterMain");
        spawn("gateway", "io.eventplane.gateway.GatewayMain");
        spawn("scheduler", "io.eventplane.scheduler.SchedulerMain");
        spawn("node-sim", "io.eventplane.nodesim.NodeSimMain");
        // the controller manager as the Helm chart runs it: a selection of controllers, with leader election
        spawn("controllers", "io.eventplane.controllers.ControllerManager",
                Map.of("EVENTPLANE_CONTROLLERS", "replicaset,deployment,serviceaccount"));
        Http http = new Http("http://127.0.0.1:" + port);
        http.await("/api/v1/nodes", n -> n.path("items").size() == 2, WAIT);

        assertEquals(201, http.post("/api/v1/namespaces/default/pods", Http.pod("first")).statusCode());
        JsonNode first = http.await("/api/v1/namespaces/default/pods/first", Http::running, WAIT);
        assertEquals(201, http.post("/apis/apps/v1/namespaces/default/deployments", """
                {"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
                 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
                  "template":{"metadata":{"labels":{"app":"web"}},
                   "spec":{"containers":[{"name":"c","image":"nginx"}]}}}}""").statusCode());
        http.await("/apis/apps/v1/namespaces/default/deployments/web",
                d -> d.path("status").path("readyReplicas").asInt() == 2, WAIT);

        processes.remove("writer").destroyForcibly().waitFor();
        spawn("writer", "io.eventplane.topology.WriterMain");
        // While the new writer takes over (the dead one's session must expire first) a write may answer 504:
        // the command is in the log and takes effect once the writer is back; nothing is lost.
        var created = http.post("/api/v1/namespaces/default/pods", Http.pod("second"));
        assertTrue(created.statusCode() == 201 || created.statusCode() == 504, created.body());
        http.await("/api/v1/namespaces/default/pods/second", Http::running, WAIT);
        JsonNode firstAgain = http.getJson("/api/v1/namespaces/default/pods/first");
        assertEquals(first.path("metadata").path("uid"), firstAgain.path("metadata").path("uid"));
        assertEquals(first.path("metadata").path("resourceVersion"), firstAgain.path("metadata").path("resourceVersion"),
                "nothing was re-applied to the first pod by the restarted writer");
        assertEquals(409, http.post("/api/v1/namespaces/default/pods", Http.pod("first")).statusCode());
    }
}
