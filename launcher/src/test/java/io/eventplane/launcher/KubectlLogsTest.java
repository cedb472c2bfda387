package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl logs} with the real kubectl: the simulated lines the pods declare (sim.eventplane.io/log,
 * log-interval, exit-log) and the containers' lifecycle, computed by the gateway from the pods' status.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlLogsTest {
    /** web crash-loops (exits 1 three seconds after each start); side runs on and ticks every second. */
    private static final String CHATTY = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: chatty
              annotations:
                sim.eventplane.io/log.web: "GET /index.html 200 ({container} #{n}, restart {restart})"
                sim.eventplane.io/log.side: "tick {n}"
                sim.eventplane.io/log-interval: 1s
                sim.eventplane.io/exit-log.web: "stopping"
                sim.eventplane.io/run-duration.web: 3s
                sim.eventplane.io/exit-code.web: "1"
            spec:
              containers:
              - name: web
                image: nginx:1.27
              - name: side
                image: busybox:1.36
            """;
    /** Runs 6 s and stops for good; waits 30 s behind an init container first. */
    private static final String RUNNER = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: runner
              annotations:
                sim.eventplane.io/log: "working {n}"
                sim.eventplane.io/log-interval: 1s
                sim.eventplane.io/run-duration.main: 6s
                sim.eventplane.io/run-duration.setup: 12s
            spec:
              restartPolicy: Never
              initContainers:
              - name: setup
                image: busybox:1.36
              containers:
              - name: main
                image: busybox:1.36
            """;

    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(tmp, "serviceaccount");
        kubectl = cluster.kubectl();
        Files.writeString(kubectl.dir().resolve("chatty.yaml"), CHATTY);
        Files.writeString(kubectl.dir().resolve("runner.yaml"), RUNNER);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("kubectl logs: -c, --tail, --since, --timestamps, --previous after a restart, Kubernetes' refusals")
    void logs() throws Exception {
        kubectl.ok("apply", "-f", kubectl.dir().resolve("chatty.yaml").toString());
        kubectl.until(o -> o.matches("[1-9]\\d*"), 60, "get", "pod", "chatty", "-o",
                "jsonpath={.status.containerStatuses[?(@.name==\"web\")].restartCount}");

        Kubectl.Result noContainer = kubectl.run("get", "--raw", "/api/v1/namespaces/default/pods/chatty/log");
        assertNotEquals(0, noContainer.exit());
        assertTrue(noContainer.out().contains("a container name must be specified for pod chatty, choose one of: [web side]"),
                noContainer.out());
        Kubectl.Result unknown = kubectl.run("logs", "chatty", "-c", "nope");
        assertTrue(unknown.out().contains("container nope is not valid for pod chatty"), unknown.out());

        String previous = kubectl.ok("logs", "chatty", "-c", "web", "--previous");
        List<String> lines = previous.lines().toList();
        assertEquals("Started container web (image nginx:1.27, restart 0)", lines.get(0), previous);
        assertEquals("GET /index.html 200 (web #1, restart 0)", lines.get(1), previous);
        assertEquals(List.of("stopping", "Container web exited with code 1"), lines.subList(lines.size() - 2, lines.size()));

        String side = kubectl.until(o -> o.lines().count() >= 4, 30, "logs", "chatty", "-c", "side");
        assertTrue(side.startsWith("Started container side (image busybox:1.36, restart 0)\ntick 1\ntick 2\n"), side);
        assertEquals(1, kubectl.ok("logs", "chatty", "-c", "side", "--tail=1").lines().count());
        String stamped = kubectl.ok("logs", "chatty", "-c", "side", "--tail=2", "--timestamps");
        assertTrue(stamped.matches("(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z tick \\d+\\n){2}"), stamped);
        long recent = kubectl.ok("logs", "chatty", "-c", "side", "--since=2s").lines().count();
        assertTrue(recent >= 1 && recent <= 3, "--since=2s gave " + recent + " lines");
    }

    @Test
    @DisplayName("kubectl logs -f follows the container until it ends; a waiting container and a missing previous one are refused")
    void follow() throws Exception {
        kubectl.ok("apply", "-f", kubectl.dir().resolve("runner.yaml").toString());
        // ContainerCreating until its kubelet reports statuses, then PodInitializing behind the init container
        kubectl.until(o -> o.contains("container \"main\" in pod \"runner\" is waiting to start: PodInitializing"), 30,
                "logs", "runner", "-c", "main");
        kubectl.until(o -> o.contains("running"), 60, "get", "pod", "runner", "-o",
                "jsonpath={.status.containerStatuses[0].state}");
        Kubectl.Result noPrevious = kubectl.run("logs", "runner", "-c", "main", "--previous");
        assertTrue(noPrevious.out().contains("previous terminated container \"main\" in pod \"runner\" not found"),
                noPrevious.out());

        String followed = kubectl.ok("logs", "-f", "runner", "-c", "main"); // returns when main exits, 6 s after its start
        List<String> lines = followed.lines().toList();
        assertEquals("Started container main (image busybox:1.36, restart 0)", lines.get(0), followed);
        assertEquals("working 5", lines.get(lines.size() - 2), followed);
        assertEquals("Container main exited with code 0", lines.get(lines.size() - 1), followed);
    }
}
