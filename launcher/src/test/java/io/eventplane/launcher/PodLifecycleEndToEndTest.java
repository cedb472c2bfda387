package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.client.Commands;
import io.eventplane.client.Subscription;
import io.eventplane.client.WatchEvent;
import io.eventplane.gateway.table.KubectlPodRow;
import io.eventplane.model.Container;
import io.eventplane.model.Pod;
import io.eventplane.nodesim.KubeletConfig;
import io.eventplane.nodesim.PodBehavior;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pods through the whole loop on a real broker and registry (writer, scheduler, node-sim), seen as `kubectl get pods
 * -w` sees them: the READY, STATUS and RESTARTS cells of the gateway's Table for every change in the log. The
 * kubelets run on a fast schedule (100 ms pulls, 250 ms syncs, back-off 1 s doubling to 2 s) so a crash loop takes
 * seconds; the real delays are proven on the virtual clock in node-sim's PodRunTest.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PodLifecycleEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final Commands user = new Commands("test-user");
    private final ControlLoop loop = new ControlLoop().withKubelet(KubeletConfig.defaults()
            .withPull(Duration.ofMillis(100), Duration.ofMillis(100)).withSyncDelay(Duration.ofMillis(250))
            .withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(2)).withShutdownDefault(Duration.ofMillis(100)));

    @BeforeAll
    void startTheCluster(@TempDir Path dir) {
        loop.start(dir);
    }

    @AfterAll
    void stopTheCluster() {
        loop.close();
    }

    private static Pod pod(String name, String restartPolicy, Map<String, String> sim, List<Container> init,
                           Container... containers) {
        Map<String, String> annotations = new HashMap<>();
        sim.forEach((k, v) -> annotations.put(PodBehavior.PREFIX + k, v));
        return KubeObjects.pod(name).annotations(annotations).restartPolicy(restartPolicy).containers(containers)
                .initContainers(init.toArray(Container[]::new)).build();
    }

    private static Container container(String name, String image) {
        return KubeObjects.container(name).image(image).build();
    }

    private Optional<Pod> get(String name) {
        return loop.view().get("Pod/default/" + name).map(c -> (Pod) c.getObject());
    }

    /** Every change of the pod in the log, as kubectl -w prints it, repeated lines folded. */
    private List<String> watchLines(String name) throws Exception {
        List<String> out = new ArrayList<>();
        try (Subscription history = loop.view().watch(new long[] {0},
                c -> c.getKind().equals("Pod") && c.getName().equals(name), 10_000)) {
            for (WatchEvent e = history.poll(Duration.ofMillis(50)); e != null; e = history.poll(Duration.ofMillis(50))) {
                String line = KubectlPodRow.of((Pod) e.change().getObject());
                if (out.isEmpty() || !out.get(out.size() - 1).equals(line)) {
                    out.add(line);
                }
            }
        }
        return out;
    }

    @Test
    @DisplayName("W-E8 POD-4.7 POD-5.7 a crash-looping pod: Running, Error, Running 1, Error, CrashLoopBackOff, "
            + "Running 2 ... as kubectl get pods -w shows it")
    void crashLoop() throws Exception {
        loop.sender().send(user.create(pod("crasher", "Always", Map.of("run-duration", "500ms", "exit-code", "1"),
                List.of(), container("app", "busybox:1.36"))));
        loop.sender().flush();
        loop.waiter().await(DEADLINE, () -> get("crasher").filter(p -> p.getStatus().getContainerStatuses() != null
                && p.getStatus().getContainerStatuses().get(0).getRestartCount() >= 3), () -> "crasher: " + get("crasher"));

        List<String> lines = watchLines("crasher");

        assertEquals(List.of("0/1 Pending 0", "0/1 ContainerCreating 0", "1/1 Running 0", "0/1 Error 0",
                "1/1 Running 1", "0/1 Error 1", "0/1 CrashLoopBackOff 1", "1/1 Running 2", "0/1 Error 2",
                "0/1 CrashLoopBackOff 2", "1/1 Running 3"), lines.subList(0, 11), String.join("\n", lines));
    }

    @Test
    @DisplayName("W-E1 W-E2 POD-4.7 run to completion under Never: Completed for exit 0, Error for exit 1")
    void completedAndError() throws Exception {
        loop.sender().send(user.create(pod("done", "Never", Map.of("run-duration", "300ms"), List.of(),
                container("app", "busybox:1.36"))));
        loop.sender().send(user.create(pod("broken", "Never", Map.of("run-duration", "300ms", "exit-code", "2"),
                List.of(), container("app", "busybox:1.36"))));
        loop.sender().flush();
        loop.waiter().await(DEADLINE, () -> get("broken").filter(p -> "Failed".equals(p.getStatus().getPhase())),
                () -> "broken: " + get("broken"));
        loop.waiter().await(DEADLINE, () -> get("done").filter(p -> "Succeeded".equals(p.getStatus().getPhase())),
                () -> "done: " + get("done"));

        assertEquals("0/1 Completed 0", lastLine("done"));
        assertEquals("0/1 Error 0", lastLine("broken"));
    }

    @Test
    @DisplayName("W-I1 W-I2 POD-4.7 an init container: Init:0/1, PodInitializing, Running; deleted: Terminating, gone")
    void initThenDelete() throws Exception {
        loop.sender().send(user.create(pod("initialized", "Always", Map.of("run-duration.setup", "1s"),
                List.of(container("setup", "busybox:1.36")), container("app", "nginx:1.27"))));
        loop.sender().flush();
        Pod running = loop.waiter().await(DEADLINE, () -> get("initialized")
                .filter(p -> "Running".equals(p.getStatus().getPhase())
                        && p.getStatus().getContainerStatuses().get(0).getReady()), () -> "initialized: " + get("initialized"));
        loop.sender().send(user.delete(io.eventplane.core.kinds.Kinds.POD, "default", "initialized", null,
                running.getMetadata().getUid()));
        loop.sender().flush();
        loop.waiter().awaitTrue(DEADLINE, () -> get("initialized").isEmpty(), () -> "initialized was not removed");

        List<String> lines = watchLines("initialized");

        // The stopped container and the terminal phase may reach the API in one status update (a kubelet's status
        // manager sends only its latest status; node-sim sends the next once the writer ruled on the last one), so
        // "0/1 Terminating" between them is seen or not.
        List<String> observed = new java.util.ArrayList<>(lines);
        observed.remove("0/1 Terminating 0");
        assertEquals(List.of("0/1 Pending 0", "0/1 Init:0/1 0", "0/1 PodInitializing 0", "1/1 Running 0",
                "1/1 Terminating 0", "0/1 Completed 0"), observed, String.join("\n", lines));
    }

    private String lastLine(String name) throws Exception {
        List<String> lines = watchLines(name);
        return lines.get(lines.size() - 1);
    }
}
