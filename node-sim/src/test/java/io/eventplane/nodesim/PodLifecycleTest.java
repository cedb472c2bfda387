package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodReadinessGate;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.core.decide.PodRules;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodLifecycleTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private static final Instant T1 = T0.plusMillis(300);
    private static final PodLifecycle.PodHost HOST = new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1.7");
    private final PodLifecycle lifecycle = new PodLifecycle(Duration.ofMillis(100), Duration.ofMillis(500),
            Duration.ofMillis(200), new Random(1));

    /** A pod as the writer stores it after BIND: Pending, PodScheduled=True, on node-1. */
    static Pod boundPod(Container... containers) {
        return Pod.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("web").setNamespace("default").setUid("uid-web")
                        .setResourceVersion("12").build())
                .setSpec(PodSpec.newBuilder().setNodeName("node-1").setContainers(List.of(containers)).build())
                .setStatus(PodStatus.newBuilder().setPhase("Pending").setQosClass("Burstable")
                        .setConditions(List.of(PodCondition.newBuilder().setType("PodScheduled").setStatus("True")
                                .setLastTransitionTime(T0.minusSeconds(1)).build())).build())
                .build();
    }

    static Container nginx() {
        return Container.newBuilder().setName("nginx").setImage("nginx").build();
    }

    private Pod step(Pod pod, Instant now, String stage) {
        PodLifecycle.UpdateStatus u = assertInstanceOf(PodLifecycle.UpdateStatus.class,
                lifecycle.next(pod, HOST, now).orElseThrow());
        assertEquals(stage, u.stage());
        return u.pod();
    }

    private static PodCondition condition(Pod pod, String type) {
        return pod.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElse(null);
    }

    private static void assertCondition(Pod pod, String type, String status) {
        assertEquals(status, condition(pod, type).getStatus(), type);
    }

    @Test
    @DisplayName("a pod bound to another node, or to none, is not this kubelet's business")
    void otherNodes() {
        Pod elsewhere = Pod.newBuilder(boundPod(nginx())).setSpec(PodSpec.newBuilder(boundPod(nginx()).getSpec())
                .setNodeName("node-2").build()).build();

        assertTrue(lifecycle.next(elsewhere, HOST, T0).isEmpty());
    }

    @Test
    @DisplayName("POD-4.2 POD-6.9 first step at once: sandbox and addresses, containers Waiting ContainerCreating")
    void createSandbox() {
        PodLifecycle.Step s = lifecycle.next(boundPod(nginx()), HOST, T0).orElseThrow();
        assertEquals(Duration.ZERO, s.delay());
        Pod pod = step(boundPod(nginx()), T0, "create-sandbox");

        PodStatus st = pod.getStatus();
        assertEquals("Pending", st.getPhase());
        assertEquals("10.1.0.1", st.getHostIP());
        assertEquals("10.1.0.1", st.getHostIPs().get(0).getIp());
        assertEquals("10.244.1.7", st.getPodIP());
        assertEquals("10.244.1.7", st.getPodIPs().get(0).getIp());
        assertEquals(T0, st.getStartTime());
        assertEquals("Burstable", st.getQosClass());
        ContainerStatus c = st.getContainerStatuses().get(0);
        assertEquals("ContainerCreating", c.getState().getWaiting().getReason());
        assertFalse(c.getReady());
        assertFalse(c.getStarted());
        assertEquals(0, c.getRestartCount());
        assertCondition(pod, "PodScheduled", "True");
        assertCondition(pod, "PodReadyToStartContainers", "True");
        assertCondition(pod, "Initialized", "True");
        assertCondition(pod, "ContainersReady", "False");
        assertCondition(pod, "Ready", "False");
        assertEquals("ContainersNotReady", condition(pod, "Ready").getReason());
        assertEquals("containers with unready status: [nginx]", condition(pod, "Ready").getMessage());
        assertEquals("12", pod.getMetadata().getResourceVersion(), "sent with the version it was decided on");
    }

    @Test
    @DisplayName("POD-3.3 POD-4.3 POD-6.6 second step after the start delay: Running, containers running and ready")
    void startContainers() {
        Pod creating = step(boundPod(nginx()), T0, "create-sandbox");
        PodLifecycle.Step s = lifecycle.next(creating, HOST, T1).orElseThrow();
        assertTrue(s.delay().compareTo(Duration.ofMillis(100)) >= 0 && s.delay().compareTo(Duration.ofMillis(500)) <= 0,
                "delay " + s.delay());
        Pod pod = step(creating, T1, "start-containers");

        assertEquals("Running", pod.getStatus().getPhase());
        ContainerStatus c = pod.getStatus().getContainerStatuses().get(0);
        assertEquals(T1, c.getState().getRunning().getStartedAt());
        assertNull(c.getState().getWaiting());
        assertTrue(c.getReady());
        assertTrue(c.getStarted());
        assertEquals(0, c.getRestartCount());
        assertEquals("docker.io/library/nginx:latest", c.getImage());
        assertTrue(c.getImageID().startsWith("docker.io/library/nginx@sha256:"), c.getImageID());
        assertTrue(c.getContainerID().matches("sim://[0-9a-f]{64}"), c.getContainerID());
        for (String type : List.of("PodScheduled", "PodReadyToStartContainers", "Initialized", "ContainersReady", "Ready")) {
            assertCondition(pod, type, "True");
        }
        assertEquals(T0, condition(pod, "PodReadyToStartContainers").getLastTransitionTime(),
                "an unchanged condition keeps its transition time");
        assertEquals(T1, condition(pod, "Ready").getLastTransitionTime());
        assertEquals(T0, pod.getStatus().getStartTime());
    }

    @Test
    @DisplayName("a running pod needs nothing more")
    void runningIsStable() {
        Pod running = step(step(boundPod(nginx()), T0, "create-sandbox"), T1, "start-containers");

        assertTrue(lifecycle.next(running, HOST, T1.plusSeconds(60)).isEmpty());
    }

    @Test
    @DisplayName("POD-8 init containers: Initialized=False while they wait, then Completed; a sidecar keeps running")
    void initContainers() {
        Pod pod = boundPod(nginx());
        Container init = Container.newBuilder().setName("setup").setImage("busybox:1.36").build();
        Container sidecar = Container.newBuilder().setName("proxy").setImage("envoy").setRestartPolicy("Always").build();
        pod = Pod.newBuilder(pod).setSpec(PodSpec.newBuilder(pod.getSpec()).setInitContainers(List.of(init, sidecar)).build()).build();

        Pod creating = step(pod, T0, "create-sandbox");
        assertCondition(creating, "Initialized", "False");
        assertEquals("containers with incomplete status: [setup proxy]", condition(creating, "Initialized").getMessage());
        assertEquals("PodInitializing", creating.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason());

        Pod running = step(creating, T1, "start-containers");
        assertCondition(running, "Initialized", "True");
        ContainerStatus setup = running.getStatus().getInitContainerStatuses().get(0);
        assertEquals("Completed", setup.getState().getTerminated().getReason());
        assertEquals(0, setup.getState().getTerminated().getExitCode());
        assertEquals("docker.io/library/busybox:1.36", setup.getImage());
        assertTrue(running.getStatus().getInitContainerStatuses().get(1).getState().getRunning() != null);
    }

    @Test
    @DisplayName("POD-6.6 POD-6.7 W-R1 W-R2 a readiness gate without its condition leaves Ready=False; once True, Ready=True")
    void readinessGates() {
        Pod pod = boundPod(nginx());
        pod = Pod.newBuilder(pod).setSpec(PodSpec.newBuilder(pod.getSpec()).setReadinessGates(List.of(
                PodReadinessGate.newBuilder().setConditionType("www.example.com/feature-1").build())).build()).build();

        Pod running = step(step(pod, T0, "create-sandbox"), T1, "start-containers");
        assertCondition(running, "ContainersReady", "True");
        assertCondition(running, "Ready", "False");
        assertEquals("corresponding condition of pod readiness gate \"www.example.com/feature-1\" does not exist.",
                condition(running, "Ready").getMessage());
        assertTrue(lifecycle.next(running, HOST, T1).isEmpty());

        Pod gateTrue = Pod.newBuilder(running).setStatus(PodStatus.newBuilder(running.getStatus()).setConditions(
                PodRules.setCondition(running.getStatus().getConditions(), PodCondition.newBuilder()
                        .setType("www.example.com/feature-1").setStatus("True").build())).build()).build();
        Instant t2 = T1.plusSeconds(3);
        Pod ready = step(gateTrue, t2, "readiness");
        assertCondition(ready, "Ready", "True");
        assertEquals(t2, condition(ready, "Ready").getLastTransitionTime());
    }

    @ParameterizedTest(name = "POD-12.11 grace {0} s, finalizers {1}: delete after {2} ms")
    @CsvSource({"30, false, 200", "0, false, 0", "1, false, 200"})
    void deletedPodIsRemovedWithGraceZero(long grace, boolean finalizers, long delayMillis) {
        Pod running = step(step(boundPod(nginx()), T0, "create-sandbox"), T1, "start-containers");
        Pod deleted = Pod.newBuilder(running).setMetadata(ObjectMeta.newBuilder(running.getMetadata())
                .setDeletionTimestamp(T1.plusSeconds(grace)).setDeletionGracePeriodSeconds(grace).build()).build();

        PodLifecycle.Delete d = assertInstanceOf(PodLifecycle.Delete.class, lifecycle.next(deleted, HOST, T1).orElseThrow());

        assertEquals("uid-web", d.uid());
        assertEquals(Duration.ofMillis(delayMillis), d.delay());
    }

    @Test
    @DisplayName("a stopped pod that waits for its finalizers needs nothing from the kubelet")
    void waitsForFinalizers() {
        Pod pod = boundPod(nginx());
        Pod deleted = Pod.newBuilder(pod).setMetadata(ObjectMeta.newBuilder(pod.getMetadata()).setDeletionTimestamp(T0)
                .setDeletionGracePeriodSeconds(0L).setFinalizers(List.of("example.com/keep")).build()).build();

        assertEquals(Optional.empty(), lifecycle.next(deleted, HOST, T0));
    }

    @Test
    @DisplayName("a finished pod is left alone")
    void terminalIsLeftAlone() {
        Pod pod = boundPod(nginx());
        Pod done = Pod.newBuilder(pod).setStatus(PodStatus.newBuilder(pod.getStatus()).setPhase("Succeeded").build()).build();

        assertTrue(lifecycle.next(done, HOST, T0).isEmpty());
    }

    @Test
    @DisplayName("without a free address the pod stays Pending, as with a failing network plugin")
    void noAddressLeft() {
        assertTrue(lifecycle.next(boundPod(nginx()), new PodLifecycle.PodHost("node-1", "10.1.0.1", null), T0).isEmpty());
    }

    @ParameterizedTest(name = "{0} is reported as {1}")
    @CsvSource({"nginx, docker.io/library/nginx:latest", "nginx:1.27, docker.io/library/nginx:1.27",
            "bitnami/redis, docker.io/bitnami/redis:latest", "quay.io/org/app:v2, quay.io/org/app:v2",
            "localhost:5000/app, localhost:5000/app:latest"})
    void imageNames(String image, String reported) {
        assertEquals(reported, PodLifecycle.normalizeImage(image));
    }
}
