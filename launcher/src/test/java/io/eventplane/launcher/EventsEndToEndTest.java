package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Event;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
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
 * Events recorded by the scheduler and the simulated kubelets, on a real broker and registry: what
 * {@code kubectl describe} lists (events selected by involvedObject name, namespace and uid).
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EventsEndToEndTest {
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

    private static Pod pod(String name, String image, String cpu) {
        return KubeObjects.pod(name).containers(KubeObjects.container("nginx").image(image).requests(cpu, null)).build();
    }

    private Optional<Pod> pod(String name) {
        return loop.view().get("Pod", "default", name).map(c -> (Pod) c.getObject());
    }

    /**
     * What kubectl describe lists: events with involvedObject name, namespace and uid, in order of first seen (then of
     * writing: a kubelet step records several at the same instant).
     */
    private List<Event> eventsOf(String namespace, String name, String uid) {
        List<ObjectChanged> found = new ArrayList<>();
        for (ObjectChanged c : loop.view().list(Kinds.EVENT.kind(), null)) {
            Event e = (Event) c.getObject();
            if (name.equals(e.getInvolvedObject().getName()) && uid.equals(e.getInvolvedObject().getUid())
                    && namespace.equals(nz(e.getInvolvedObject().getNamespace()))) {
                found.add(c);
            }
        }
        found.sort(Comparator.comparing((ObjectChanged c) -> ((Event) c.getObject()).getFirstTimestamp())
                .thenComparingLong(ObjectChanged::getResourceVersion));
        return found.stream().map(c -> (Event) c.getObject()).toList();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static Map<String, Event> byReason(List<Event> events) {
        Map<String, Event> out = new HashMap<>();
        events.forEach(e -> out.put(e.getReason(), e));
        return out;
    }

    private static String describe(List<Event> events) {
        StringBuilder sb = new StringBuilder();
        events.forEach(e -> sb.append(e.getReason()).append("(x").append(e.getCount()).append(") "));
        return sb.toString();
    }

    @Test
    @DisplayName("POD-4.8 a pod that reaches Running has Scheduled, Pulling, Pulled, Created and Started events about its uid, in that order")
    void runningPodEvents() {
        loop.sender().send(user.create(pod("nginx", "nginx:1.14.2", "100m")));
        loop.sender().flush();
        Pod running = loop.waiter().await(DEADLINE, () -> pod("nginx").filter(p -> p.getStatus() != null
                && "Running".equals(p.getStatus().getPhase())), () -> "nginx: " + pod("nginx"));
        String uid = running.getMetadata().getUid();
        String node = running.getSpec().getNodeName();
        List<String> expected = List.of("Scheduled", "Pulling", "Pulled", "Created", "Started");

        List<Event> events = loop.waiter().await(DEADLINE, () -> Optional.of(eventsOf("default", "nginx", uid))
                .filter(l -> byReason(l).keySet().containsAll(expected)),
                () -> "events of nginx: " + describe(eventsOf("default", "nginx", uid)));

        assertEquals(expected, events.stream().map(Event::getReason).toList(), "one of each, in order of first seen");
        Map<String, Event> e = byReason(events);
        assertEquals("Successfully assigned default/nginx to " + node, e.get("Scheduled").getMessage());
        assertEquals("default-scheduler", e.get("Scheduled").getSource().getComponent());
        assertEquals("Pulling image \"nginx:1.14.2\"", e.get("Pulling").getMessage());
        assertTrue(e.get("Pulled").getMessage().startsWith("Successfully pulled image \"nginx:1.14.2\" in "),
                e.get("Pulled").getMessage());
        assertEquals("Created container: nginx", e.get("Created").getMessage());
        assertEquals("Started container nginx", e.get("Started").getMessage());
        for (String kubelet : List.of("Pulling", "Pulled", "Created", "Started")) {
            Event k = e.get(kubelet);
            assertEquals("kubelet", k.getSource().getComponent(), kubelet);
            assertEquals(node, k.getSource().getHost(), kubelet);
            assertEquals("spec.containers{nginx}", k.getInvolvedObject().getFieldPath(), kubelet);
        }
        for (Event x : events) {
            assertEquals("Normal", x.getType());
            assertEquals(1, x.getCount(), x.getReason() + " recorded once");
            assertEquals("Pod", x.getInvolvedObject().getKind());
            assertTrue(x.getMetadata().getName().startsWith("nginx."), x.getMetadata().getName());
        }

        loop.sender().send(user.delete(Kinds.POD, "default", "nginx", 30L, uid));
        loop.sender().flush();
        Event killing = loop.waiter().await(DEADLINE, () -> Optional.ofNullable(byReason(eventsOf("default", "nginx", uid))
                .get("Killing")), () -> "events of nginx: " + describe(eventsOf("default", "nginx", uid)));
        assertEquals("Stopping container nginx", killing.getMessage());
    }

    @Test
    @DisplayName("POD-6.2 an unschedulable pod has one FailedScheduling event whose count grows as scheduling is retried")
    void unschedulablePodEvents() {
        loop.sender().send(user.create(pod("huge", "nginx", "64")));
        loop.sender().flush();
        Pod huge = loop.waiter().await(DEADLINE, () -> pod("huge").filter(p -> p.getMetadata().getUid() != null),
                () -> "huge: " + pod("huge"));
        String uid = huge.getMetadata().getUid();

        Event failed = loop.waiter().await(DEADLINE, () -> Optional.ofNullable(byReason(eventsOf("default", "huge", uid))
                .get("FailedScheduling")), () -> "events of huge: " + describe(eventsOf("default", "huge", uid)));
        assertEquals("Warning", failed.getType());
        assertEquals("0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: "
                + "3 No preemption victims found for incoming pod.", failed.getMessage());
        assertEquals("default-scheduler", failed.getSource().getComponent());

        // A node changes: the scheduler tries the pod again, fails the same way, and counts it on the same Event.
        ObjectChanged n = loop.view().get("Node", "", "node-1").orElseThrow();
        Node node = (Node) n.getObject();
        Map<String, String> labels = new HashMap<>(node.getMetadata().getLabels());
        labels.put("example.com/touched", "yes");
        loop.sender().send(user.update(Node.newBuilder(node).setMetadata(ObjectMeta.newBuilder(node.getMetadata())
                .setLabels(labels).build()).build()));
        loop.sender().flush();
        loop.waiter().awaitTrue(DEADLINE, () -> {
            Event f = byReason(eventsOf("default", "huge", uid)).get("FailedScheduling");
            return f != null && f.getCount() >= 2;
        }, () -> "events of huge: " + describe(eventsOf("default", "huge", uid)));

        List<Event> events = eventsOf("default", "huge", uid);
        assertEquals(List.of("FailedScheduling"), events.stream().map(Event::getReason).toList(),
                "one FailedScheduling Event and nothing else: " + describe(events));
        assertEquals(events.get(0).getCount(), events.get(0).getSeries().getCount());
        assertFalse(events.get(0).getLastTimestamp().isBefore(events.get(0).getFirstTimestamp()));
    }

    @Test
    @DisplayName("a node that registers has Starting, condition and NodeReady events from its kubelet, in default, about uid = node name")
    void nodeEvents() {
        List<String> expected = List.of("Starting", "NodeHasSufficientMemory", "NodeHasNoDiskPressure",
                "NodeHasSufficientPID", "NodeReady");

        List<Event> events = loop.waiter().await(DEADLINE, () -> Optional.of(eventsOf("", "node-2", "node-2"))
                .filter(l -> byReason(l).keySet().containsAll(expected)),
                () -> "events of node-2: " + describe(eventsOf("", "node-2", "node-2")));

        Map<String, Event> e = byReason(events);
        assertEquals("Starting kubelet.", e.get("Starting").getMessage());
        assertEquals("Node node-2 status is now: NodeReady", e.get("NodeReady").getMessage());
        for (Event x : events) {
            assertEquals("default", x.getMetadata().getNamespace(), "a cluster-scoped object's events live in default");
            assertEquals("Node", x.getInvolvedObject().getKind());
            assertEquals("kubelet", x.getSource().getComponent());
            assertEquals("node-2", x.getSource().getHost());
        }
    }
}
