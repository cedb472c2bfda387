package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.sidecar;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.model.Container;
import io.eventplane.model.ExecAction;
import io.eventplane.model.Lifecycle;
import io.eventplane.model.LifecycleHandler;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** postStart hooks (POD-4.3): the container is Running only once its hook has finished; a failing hook kills it. */
class PodRunPostStartTest {

    static Container withPostStart(Container k) {
        Lifecycle old = k.getLifecycle();
        return Container.newBuilder(k).setLifecycle(Lifecycle.newBuilder(old == null ? new Lifecycle() : old)
                .setPostStart(LifecycleHandler.newBuilder().setExec(ExecAction.newBuilder()
                        .setCommand(List.of("sh", "-c", "setup")).build()).build()).build()).build();
    }

    @Test
    @DisplayName("POD-4.3 a postStart hook taking 5 s: Running (started, Ready) is published only after the hook, "
            + "with startedAt the container's start")
    void runningAfterHook() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("poststart-duration", "5s"), withPostStart(c("c"))))
                .until(5);
        // pulled at 1 s, created and started at 1 s, hook until 6 s
        assertEquals("Waiting:ContainerCreating", h.state("c"));
        assertEquals("Pending", h.phase());
        assertFalse(h.container("c").getStarted());
        assertEquals("False", h.condition("Ready"));
        assertTrue(h.events.stream().map(EventNotice::reason).toList().containsAll(List.of("Created", "Started")));

        h.until(60);

        assertEquals(List.of(6L), h.times("c", "Running"));
        assertEquals("Running", h.phase());
        assertEquals("True", h.condition("Ready"));
        assertEquals(PodRunHarness.T0.plusSeconds(1),
                h.container("c").getState().getRunning().getStartedAt(), "the container started before its hook ran");
        assertFalse(h.events.stream().anyMatch(e -> e.reason().equals("FailedPostStartHook")));
    }

    @Test
    @DisplayName("POD-4.3 POD-5.2 a failing postStart hook: FailedPostStartHook, the container is killed (SIGTERM: "
            + "exit 0) and restartPolicy Always restarts it, with CrashLoopBackOff as it keeps failing")
    void failingHookRestarts() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("poststart-duration", "2s", "poststart-fails", "true"),
                withPostStart(c("c")))).until(60);

        // created at 1 s; the hook fails at 3 s; the program exits 1 s after SIGTERM (the harness's shutdown time)
        assertTrue(h.times("c", "Running").isEmpty(), "never Running");
        assertEquals(List.of(4L), h.times("c", "Terminated:Completed(0)").subList(0, 1));
        assertTrue(h.times("c", "Waiting:CrashLoopBackOff").size() >= 1);
        assertTrue(h.container("c").getRestartCount() >= 2);
        EventNotice failed = h.events.stream().filter(e -> e.reason().equals("FailedPostStartHook")).findFirst()
                .orElseThrow();
        assertEquals("Exec lifecycle hook ([sh -c setup]) for Container \"c\" in Pod \"p_default(uid-p)\" failed - "
                + "error: command 'sh -c setup' exited with 1: , message: \"\"", failed.message());
        assertTrue(h.events.stream().anyMatch(e -> e.reason().equals("Killing")
                && e.message().equals("FailedPostStartHook")));
        assertEquals("Running", h.phase(), "a restarting pod is Running (POD-3.13)");
        assertEquals("False", h.condition("Ready"));
    }

    @Test
    @DisplayName("POD-4.3 POD-5.2 a failing postStart hook under restartPolicy Never, in a program that ignores "
            + "SIGTERM: SIGKILL at the end of the grace period (137), the pod fails")
    void failingHookNever() {
        PodRunHarness h = new PodRunHarness(pod("Never", sim("poststart-fails", "true", "ignores-sigterm", "true"),
                withPostStart(c("c")))).until(120);

        // hook fails at 1 s; killed at 1 + 30 s
        assertEquals(List.of(31L), h.times("c", "Terminated:Error(137)"));
        assertEquals(0, h.container("c").getRestartCount());
        assertEquals("Failed", h.phase());
    }

    @Test
    @DisplayName("POD-4.3 POD-9.2 a sidecar's postStart hook holds the next init container until it has finished")
    void sidecarHook() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("poststart-duration.proxy", "4s",
                "run-duration.migrate", "2s"), List.of(withPostStart(sidecar("proxy")), c("migrate")),
                List.of(c("app")))).until(30);

        // proxy created at 1 s, Running at 5 s; migrate starts then (image present: same busybox), exits at 7 s
        assertEquals(List.of(5L), h.times("proxy", "Running"));
        assertEquals(List.of(5L), h.times("migrate", "Running"));
        assertEquals("Running", h.state("app"));
    }

    @Test
    @DisplayName("without a postStart hook the poststart annotations change nothing")
    void noHook() {
        PodRunHarness h = new PodRunHarness(pod("Always", sim("poststart-duration", "5s", "poststart-fails", "true"),
                c("c"))).until(10);
        assertEquals(List.of(1L), h.times("c", "Running"));
    }
}
