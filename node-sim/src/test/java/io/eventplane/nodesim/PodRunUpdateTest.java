package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static io.eventplane.nodesim.PodRunHarness.withPreStop;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Pod updates reaching the simulated kubelet: a new image restarts its container, a new deadline is kept. */
class PodRunUpdateTest {

    static PodSpec image(PodSpec spec, String container, String image) {
        List<Container> apps = new ArrayList<>();
        for (Container k : spec.getContainers()) {
            apps.add(k.getName().equals(container) ? Container.newBuilder(k).setImage(image).build() : k);
        }
        List<Container> init = new ArrayList<>();
        for (Container k : PodRun.list(spec.getInitContainers())) {
            init.add(k.getName().equals(container) ? Container.newBuilder(k).setImage(image).build() : k);
        }
        return PodSpec.newBuilder(spec).setContainers(apps).setInitContainers(init.isEmpty() ? null : init).build();
    }

    /** When the container's last run finished, in seconds after T0. */
    static long finishedAt(ContainerStatus s) {
        return s.getLastState().getTerminated().getFinishedAt().getEpochSecond() - PodRunHarness.T0.getEpochSecond();
    }

    static List<String> events(PodRunHarness h, int from) {
        return h.events.subList(from, h.events.size()).stream().map(e -> e.reason() + " " + e.message()).toList();
    }

    @ParameterizedTest(name = "POD-2.13 POD-2.8 POD-1.16 under restartPolicy {0}: a new image kills the container, pulls "
            + "the image and starts it again (restartCount 1, the new image and imageID); the pod keeps running")
    @ValueSource(strings = {"Always", "OnFailure", "Never"})
    void imageChangeRestartsTheContainer(String policy) {
        PodRunHarness h = new PodRunHarness(pod(policy, Map.of(), c("app"), c("other"))).until(10);
        ContainerStatus before = h.container("app");
        assertEquals("Running", h.state("app"));
        int seen = h.events.size();

        h.update(s -> image(s, "app", "busybox:1.37")).until(60);

        assertEquals(List.of(
                "Killing Container app definition changed, will be restarted",
                "Pulling Pulling image \"busybox:1.37\"",
                "Pulled Successfully pulled image \"busybox:1.37\" in 1s (1s including waiting). Image size: "
                        + KubeletEvents.imageSize("docker.io/library/busybox:1.37") + " bytes.",
                "Created Created container: app",
                "Started Started container app"), events(h, seen));
        ContainerStatus after = h.container("app");
        assertEquals("Running", h.state("app"));
        assertEquals(1, after.getRestartCount());
        assertEquals("docker.io/library/busybox:1.37", after.getImage());
        assertEquals(PodLifecycle.imageID("busybox:1.37"), after.getImageID());
        assertNotEquals(before.getContainerID(), after.getContainerID());
        assertEquals(before.getContainerID(), after.getLastState().getTerminated().getContainerID());
        assertEquals("Running", h.phase());
        assertEquals("True", h.condition("Ready"));
        assertEquals(0, h.container("other").getRestartCount(), "only that container restarts");
        assertEquals("uid-p", h.pod.getMetadata().getUid());
        assertEquals(11L, finishedAt(after));
    }

    @Test
    @DisplayName("POD-2.13 POD-12.5 the old container is stopped as a kubelet stops one: preStop, then SIGTERM; the "
            + "status shows the old image until the new container is created")
    void oldContainerStopsGracefully() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("prestop-duration", "5s"), withPreStop(c("app"))))
                .until(10);

        h.update(s -> image(s, "app", "busybox:1.37")).until(14);
        assertEquals("Running", h.state("app"), "the preStop hook (5 s) still runs");
        assertEquals("docker.io/library/busybox:1.36", h.container("app").getImage());

        h.until(60);
        assertEquals(16L, finishedAt(h.container("app")), "preStop 5 s, then SIGTERM and 1 s to exit");
        assertEquals("docker.io/library/busybox:1.37", h.container("app").getImage());
        assertEquals(1, h.container("app").getRestartCount());
    }

    @Test
    @DisplayName("POD-2.13 POD-4.4 a program that ignores SIGTERM is killed at the pod's grace period, then restarted with the "
            + "new image")
    void ignoresSigterm() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("ignores-sigterm", "true"), c("app"))).until(10);

        h.update(s -> image(s, "app", "busybox:1.37")).until(39);
        assertEquals("Running", h.state("app"));

        h.until(60);
        assertEquals(137, h.container("app").getLastState().getTerminated().getExitCode());
        assertEquals("Error", h.container("app").getLastState().getTerminated().getReason());
        assertEquals(PodRunHarness.T0.plusSeconds(1), h.container("app").getLastState().getTerminated().getStartedAt());
        assertEquals(40L, finishedAt(h.container("app")));
        assertEquals("Running", h.state("app"));
        assertEquals("docker.io/library/busybox:1.37", h.container("app").getImage());
    }

    @Test
    @DisplayName("POD-2.13 POD-5.6 a crash-looping container given a new image starts at once with it: its back-off "
            + "belonged to the old definition")
    void crashLoopingContainer() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration", "1s", "exit-code", "1"), c("app"))).until(100);
        assertEquals("Waiting:CrashLoopBackOff", h.state("app"));
        int restarts = h.container("app").getRestartCount();
        int seen = h.events.size();

        h.update(s -> image(s, "app", "busybox:1.37")).until(102);

        assertEquals("Pulling Pulling image \"busybox:1.37\"", events(h, seen).get(0));
        assertTrue(h.times("app", "Running").contains(101L), h.changes("app").toString());
        assertEquals(restarts + 1, h.container("app").getRestartCount());
    }

    @Test
    @DisplayName("POD-2.10 a new init container image is accepted but not run: nothing restarts")
    void initImageDoesNotRestart() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("run-duration.init", "5s"), List.of(PodRunHarness.c("init")),
                List.of(PodRunHarness.c("app")))).until(30);
        assertEquals("Running", h.state("app"));
        int seen = h.events.size();

        h.update(s -> image(s, "init", "busybox:1.37")).until(120);

        assertEquals(List.of(), events(h, seen));
        assertEquals(0, h.container("app").getRestartCount());
        assertEquals("docker.io/library/busybox:1.36", h.container("init").getImage());
    }

    @Test
    @DisplayName("POD-2.9 POD-8.11 activeDeadlineSeconds set on a running pod counts from its start: Failed, reason "
            + "DeadlineExceeded, at the deadline")
    void deadlineSetLater() {
        PodRunHarness h = new PodRunHarness(pod("Always", Map.of(), c("app"))).until(10);

        h.update(s -> PodSpec.newBuilder(s).setActiveDeadlineSeconds(30L).build()).until(29);
        assertEquals("Running", h.phase());

        h.until(31);
        assertEquals("Failed", h.phase());
        assertEquals("DeadlineExceeded", h.pod.getStatus().getReason());
        assertEquals("Pod was active on the node longer than the specified deadline", h.pod.getStatus().getMessage());
        assertEquals("Terminated:Error(137)", h.state("app"));
        assertTrue(h.events.stream().map(EventNotice::reason).anyMatch("DeadlineExceeded"::equals));
    }

    @Test
    @DisplayName("POD-2.9 activeDeadlineSeconds lowered below the pod's age fails it when the kubelet sees the update")
    void deadlineLoweredBelowAge() {
        Pod p = pod("Always", Map.of(), c("app"));
        p = Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setActiveDeadlineSeconds(600L).build()).build();
        PodRunHarness h = new PodRunHarness(p).until(100);
        assertEquals("Running", h.phase());

        h.update(s -> PodSpec.newBuilder(s).setActiveDeadlineSeconds(50L).build());

        assertEquals("Failed", h.phase());
        assertEquals("DeadlineExceeded", h.pod.getStatus().getReason());
        assertEquals(100L, h.history.get(h.history.size() - 1).second());
    }
}
