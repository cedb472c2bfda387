package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PodLifecycleTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private static final PodLifecycle.PodHost HOST = new PodLifecycle.PodHost("node-1", "10.1.0.1", "10.244.1.7");

    /** A pod as the writer stores it after BIND: Pending, PodScheduled=True, on node-1. */
    static Pod boundPod(Container... containers) {
        return KubeObjects.pod("web").uid("uid-web").resourceVersion("12").onNode("node-1").containers(containers)
                .pending().qosClass("Burstable").condition(PodCondition.newBuilder().setType("PodScheduled")
                        .setStatus("True").setLastTransitionTime(T0.minusSeconds(1)).build())
                .build();
    }

    static Container nginx() {
        return KubeObjects.container("nginx").build();
    }

    private static PodCondition condition(Pod pod, String type) {
        return pod.getStatus().getConditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElse(null);
    }

    private static void assertCondition(Pod pod, String type, String status) {
        assertEquals(status, condition(pod, type).getStatus(), type);
    }

    @Test
    @DisplayName("POD-1.9 POD-4.5 POD-4.2 POD-6.9 POD-6.10 the sandbox: addresses, startTime, containers Waiting ContainerCreating")
    void createSandbox() {
        Pod pod = PodLifecycle.creating(boundPod(nginx()), HOST, T0);

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

    @ParameterizedTest(name = "{0} is reported as {1}")
    @CsvSource({"nginx, docker.io/library/nginx:latest", "nginx:1.27, docker.io/library/nginx:1.27",
            "bitnami/redis, docker.io/bitnami/redis:latest", "quay.io/org/app:v2, quay.io/org/app:v2",
            "localhost:5000/app, localhost:5000/app:latest"})
    void imageNames(String image, String reported) {
        assertEquals(reported, PodLifecycle.normalizeImage(image));
    }
}
