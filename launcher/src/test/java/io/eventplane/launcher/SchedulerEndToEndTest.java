package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.client.Subscription;
import io.eventplane.client.WatchEvent;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The whole loop on a real broker and registry: writer, three simulated nodes, the scheduler, pods created by a user. */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchedulerEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(90);

    private final Commands user = new Commands("test-user");
    private final ControlLoop loop = new ControlLoop();

    @BeforeAll
    void startTheCluster(@TempDir Path dir) {
        loop.start(dir);
    }

    @AfterAll
    void stopTheCluster() {
        loop.close();
    }

    static Pod nginx(String name, String cpu) {
        return KubeObjects.pod(name).containers(KubeObjects.container("nginx").requests(cpu, null)).build();
    }

    private Optional<Pod> pod(String name) {
        return loop.view().get("Pod", "default", name).map(c -> (Pod) c.getObject());
    }

    private static Optional<PodCondition> condition(Pod pod, String type) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    private static boolean runningAndReady(Pod p) {
        return "Running".equals(p.getStatus().getPhase())
                && condition(p, "Ready").map(c -> "True".equals(c.getStatus())).orElse(false);
    }

    @Test
    @DisplayName("POD-1.13 POD-3.7 twenty pods are each bound exactly once, spread evenly, and reach Running with Ready=True")
    void twentyPodsRun() throws Exception {
        for (int i = 1; i <= 20; i++) {
            loop.sender().send(user.create(nginx("web-" + i, "100m")));
        }
        loop.sender().flush();

        Map<String, Pod> pods = loop.waiter().await(DEADLINE, () -> {
            Map<String, Pod> found = new TreeMap<>();
            for (int i = 1; i <= 20; i++) {
                Optional<Pod> p = pod("web-" + i);
                if (p.isEmpty() || !runningAndReady(p.get())) {
                    return Optional.empty();
                }
                found.put(p.get().getMetadata().getName(), p.get());
            }
            return Optional.of(found);
        }, () -> "pods not yet Running and Ready: " + describe());

        Map<String, Integer> perNode = new HashMap<>();
        Set<String> podIPs = new HashSet<>();
        for (Pod p : pods.values()) {
            assertTrue(loop.nodes().nodeNames().contains(p.getSpec().getNodeName()), p.getSpec().getNodeName());
            assertEquals("True", condition(p, "PodScheduled").orElseThrow().getStatus());
            assertTrue(podIPs.add(p.getStatus().getPodIP()), "pod IPs are unique: " + p.getStatus().getPodIP());
            perNode.merge(p.getSpec().getNodeName(), 1, Integer::sum);
        }
        assertEquals(3, perNode.size(), "every node got pods: " + perNode);
        assertTrue(Collections.max(perNode.values()) - Collections.min(perNode.values()) <= 1,
                "least-allocated spreads equal pods evenly: " + perNode);

        Map<String, Integer> bindings = new HashMap<>();
        try (Subscription history = loop.view().watch(new long[] {0},
                c -> c.getKind().equals("Pod") && c.getType() == ChangeType.BOUND, 10_000)) {
            for (WatchEvent e = history.poll(Duration.ofMillis(50)); e != null; e = history.poll(Duration.ofMillis(50))) {
                bindings.merge(e.change().getName(), 1, Integer::sum);
            }
        }
        for (String name : pods.keySet()) {
            assertEquals(1, bindings.getOrDefault(name, 0), name + " bound exactly once");
        }
    }

    @Test
    @DisplayName("POD-6.2 a pod too big for any node stays Pending with PodScheduled=False, reason Unschedulable")
    void tooBigPodIsUnschedulable() {
        loop.sender().send(user.create(nginx("huge", "64")));
        loop.sender().flush();

        PodCondition c = loop.waiter().await(DEADLINE, () -> pod("huge").flatMap(p -> condition(p, "PodScheduled"))
                .filter(x -> "False".equals(x.getStatus())), () -> "huge: " + pod("huge"));

        assertEquals("Unschedulable", c.getReason());
        assertEquals("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: "
                + "3 No preemption victims found for incoming pod.", c.getMessage());
        Pod huge = pod("huge").orElseThrow();
        assertNull(huge.getSpec().getNodeName());
        assertEquals("Pending", huge.getStatus().getPhase());
    }

    private String describe() {
        StringBuilder sb = new StringBuilder();
        for (ObjectChanged c : loop.view().list("Pod", "default")) {
            Pod p = (Pod) c.getObject();
            sb.append(c.getName()).append('=').append(p.getSpec().getNodeName()).append('/')
                    .append(p.getStatus() == null ? null : p.getStatus().getPhase()).append(' ');
        }
        return sb.toString();
    }
}
