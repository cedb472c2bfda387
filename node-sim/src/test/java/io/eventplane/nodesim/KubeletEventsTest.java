package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodLifecycleTest.boundPod;
import static io.eventplane.nodesim.PodLifecycleTest.nginx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventType;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Events the simulated kubelet's pure decisions return with their steps. */
class KubeletEventsTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private static final Instant T1 = T0.plusMillis(1500);
    private static final PodLifecycle.PodHost HOST = new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1.7");
    private final PodLifecycle lifecycle = new PodLifecycle(Duration.ofMillis(100), Duration.ofMillis(500),
            Duration.ofMillis(200), new Random(1));

    private PodLifecycle.UpdateStatus step(Pod pod, PodLifecycle.PodHost host, Instant now, String stage) {
        PodLifecycle.UpdateStatus u = assertInstanceOf(PodLifecycle.UpdateStatus.class,
                lifecycle.next(pod, host, now).orElseThrow());
        assertEquals(stage, u.stage());
        return u;
    }

    private Pod sandboxed(Pod pod) {
        return step(pod, HOST, T0, PodLifecycle.CREATE_SANDBOX).pod();
    }

    private static List<String> lines(List<EventNotice> events) {
        return events.stream().map(e -> e.reason() + " " + e.involvedObject().getFieldPath() + " " + e.message()).toList();
    }

    private static Container container(String name, String image, String policy) {
        return Container.newBuilder().setName(name).setImage(image).setImagePullPolicy(policy).build();
    }

    private static Pod withInit(Pod pod, Container... init) {
        return Pod.newBuilder(pod).setSpec(PodSpec.newBuilder(pod.getSpec()).setInitContainers(List.of(init)).build())
                .build();
    }

    @Test
    @DisplayName("POD-4.8 a pod with one init container: Pulling, Pulled, Created, Started for spec.initContainers{init-myservice}, then for the app container")
    void podStartEvents() {
        Pod pod = withInit(boundPod(container("myapp-container", "busybox:1.28", "IfNotPresent")),
                container("init-myservice", "busybox:1.28", "IfNotPresent"));

        List<EventNotice> events = step(sandboxed(pod), HOST, T1, PodLifecycle.START_CONTAINERS).events();

        long size = KubeletEvents.imageSize("docker.io/library/busybox:1.28");
        assertEquals(List.of(
                "Pulling spec.initContainers{init-myservice} Pulling image \"busybox:1.28\"",
                "Pulled spec.initContainers{init-myservice} Successfully pulled image \"busybox:1.28\" in 1.5s (1.5s "
                        + "including waiting). Image size: " + size + " bytes.",
                "Created spec.initContainers{init-myservice} Created container: init-myservice",
                "Started spec.initContainers{init-myservice} Started container init-myservice",
                "Pulled spec.containers{myapp-container} Container image \"busybox:1.28\" already present on machine",
                "Created spec.containers{myapp-container} Created container: myapp-container",
                "Started spec.containers{myapp-container} Started container myapp-container"), lines(events));
        for (EventNotice e : events) {
            assertEquals(EventType.Normal, e.type());
            assertEquals("Pod", e.involvedObject().getKind());
            assertEquals("uid-web", e.involvedObject().getUid());
            assertEquals("default", e.involvedObject().getNamespace());
            assertEquals("web", e.involvedObject().getName());
        }
    }

    @Test
    @DisplayName("POD-6.9 no image is pulled before the sandbox exists: create-sandbox records nothing, pulls come with start-containers")
    void noPullBeforeTheSandbox() {
        PodLifecycle.UpdateStatus create = step(boundPod(nginx()), HOST, T0, PodLifecycle.CREATE_SANDBOX);

        assertTrue(create.events().isEmpty());
        PodCondition ready = create.pod().getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("PodReadyToStartContainers")).findFirst().orElseThrow();
        assertEquals("True", ready.getStatus());
        assertEquals("Pulling", step(create.pod(), HOST, T1, PodLifecycle.START_CONTAINERS).events().get(0).reason());
    }

    @Test
    @DisplayName("an IfNotPresent image already on the node is not pulled again; an Always (or untagged) image is")
    void imagesOnTheNode() {
        PodLifecycle.PodHost withNginx = new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1.7",
                Set.of("docker.io/library/nginx:1.14.2", "docker.io/library/nginx:latest"));
        Pod tagged = sandboxed(boundPod(container("nginx", "nginx:1.14.2", "IfNotPresent")));
        Pod untagged = sandboxed(boundPod(container("nginx", "nginx", null)));

        assertEquals(List.of(
                "Pulled spec.containers{nginx} Container image \"nginx:1.14.2\" already present on machine",
                "Created spec.containers{nginx} Created container: nginx",
                "Started spec.containers{nginx} Started container nginx"),
                lines(step(tagged, withNginx, T1, PodLifecycle.START_CONTAINERS).events()));
        assertEquals(List.of("Pulling", "Pulled", "Created", "Started"),
                step(untagged, withNginx, T1, PodLifecycle.START_CONTAINERS).events().stream()
                        .map(EventNotice::reason).toList());
        assertEquals(Set.of("docker.io/library/nginx:1.14.2"), PodLifecycle.images(tagged));
    }

    @Test
    @DisplayName("deleting a running pod records Killing \"Stopping container nginx\"; a pod that never started records none")
    void killing() {
        Pod running = step(sandboxed(boundPod(nginx())), HOST, T1, PodLifecycle.START_CONTAINERS).pod();
        Pod deleted = Pod.newBuilder(running).setMetadata(ObjectMeta.newBuilder(running.getMetadata())
                .setDeletionTimestamp(T1.plusSeconds(30)).setDeletionGracePeriodSeconds(30L).build()).build();
        Pod pending = sandboxed(boundPod(nginx()));
        Pod deletedPending = Pod.newBuilder(pending).setMetadata(ObjectMeta.newBuilder(pending.getMetadata())
                .setDeletionTimestamp(T1.plusSeconds(30)).setDeletionGracePeriodSeconds(30L).build()).build();

        PodLifecycle.Step stop = lifecycle.next(deleted, HOST, T1).orElseThrow();

        assertEquals(PodLifecycle.TERMINATE, stop.stage());
        assertEquals(List.of("Killing spec.containers{nginx} Stopping container nginx"), lines(stop.events()));
        assertTrue(lifecycle.next(deletedPending, HOST, T1).orElseThrow().events().isEmpty());
    }

    @Test
    @DisplayName("a kubelet registering its node records Starting, the node's conditions and NodeReady, about Node node-1 (uid = name)")
    void nodeStarting() {
        List<EventNotice> events = KubeletEvents.nodeStarting("node-1", true);

        assertEquals(List.of("Starting: Starting kubelet.",
                "NodeHasSufficientMemory: Node node-1 status is now: NodeHasSufficientMemory",
                "NodeHasNoDiskPressure: Node node-1 status is now: NodeHasNoDiskPressure",
                "NodeHasSufficientPID: Node node-1 status is now: NodeHasSufficientPID",
                "NodeAllocatableEnforced: Updated Node Allocatable limit across pods",
                "NodeReady: Node node-1 status is now: NodeReady"),
                events.stream().map(e -> e.reason() + ": " + e.message()).toList());
        for (EventNotice e : events) {
            assertEquals("Node", e.involvedObject().getKind());
            assertEquals("node-1", e.involvedObject().getName());
            assertEquals("node-1", e.involvedObject().getUid());
            assertEquals(null, e.involvedObject().getNamespace());
        }
        assertEquals(List.of("Starting"), KubeletEvents.nodeStarting("node-1", false).stream()
                .map(EventNotice::reason).toList(), "a restart that finds its node Ready reports no status change");
    }

    @ParameterizedTest(name = "{0} ms prints as {1}")
    @CsvSource({"0, 0s", "7, 7ms", "512, 512ms", "1000, 1s", "1500, 1.5s", "2466, 2.466s", "123250, 2m3.25s",
            "3723000, 1h2m3s"})
    void goDurations(long millis, String printed) {
        assertEquals(printed, KubeletEvents.go(Duration.ofMillis(millis)));
    }
}
