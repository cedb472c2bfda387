package io.eventplane.nodesim;

import static io.eventplane.nodesim.PodRunHarness.T0;
import static io.eventplane.nodesim.PodRunHarness.c;
import static io.eventplane.nodesim.PodRunHarness.pod;
import static io.eventplane.nodesim.PodRunHarness.sim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Pod;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A restarted kubelet (node-sim) picking up the pods it was running. */
class PodRunResumeTest {

    /** The pod as stored at {@code second}, handed to a new kubelet that resumes it then. */
    private static PodRun restartedKubelet(Pod stored, long second) {
        PodRun run = PodRun.start(stored, PodRunHarness.CONFIG, new HashSet<>(), stored.getStatus().getStartTime());
        run.resume(stored, T0.plusSeconds(second));
        return run;
    }

    @Test
    @DisplayName("POD-12.12 a kubelet restart while a deleted pod's processes are terminating restarts the "
            + "termination with the full original grace period")
    void graceStartsOver() {
        // ignores SIGTERM: without a restart it is SIGKILLed at 10 + 30 = 40 s
        PodRunHarness before = new PodRunHarness(pod("Always", sim("ignores-sigterm", "true"), c("c")))
                .until(10).delete(30).until(20);
        assertEquals("Running", before.state("c"));

        PodRun run = restartedKubelet(before.pod, 20);

        assertEquals(Instant.parse("2025-06-01T10:00:50Z"), run.nextChangeAt().orElseThrow(),
                "SIGKILL at 20 + 30 s");
        run.advanceTo(before.pod, T0.plusSeconds(49));
        assertFalse(run.finished());
        run.advanceTo(before.pod, T0.plusSeconds(50));
        assertTrue(run.finished());
        Pod done = Pod.newBuilder(before.pod).setStatus(run.status(before.pod)).build();
        assertEquals("Terminated:Error(137)", PodRunHarness.state(PodRunHarness.find(done, "c")));
        assertEquals(T0.plusSeconds(50), PodRunHarness.find(done, "c").getState().getTerminated().getFinishedAt());
    }

    @Test
    @DisplayName("POD-12.12 a program that exits on SIGTERM gets SIGTERM again from the restarted kubelet and exits")
    void sigtermAgain() {
        PodRunHarness before = new PodRunHarness(pod("Always", sim("shutdown-duration", "25s"), c("c")))
                .until(10).delete(30).until(20);

        PodRun run = restartedKubelet(before.pod, 20);

        assertEquals(T0.plusSeconds(45), run.nextChangeAt().orElseThrow(), "SIGTERM at 20, exit 25 s later");
    }

    @Test
    @DisplayName("a pod stored as finished is not brought back to life by a restarted kubelet")
    void finishedStaysFinished() {
        PodRunHarness before = new PodRunHarness(pod("Always", Map.of(), c("c"))).until(10).delete(30).until(20);
        assertEquals("Succeeded", before.phase());

        PodRun run = restartedKubelet(before.pod, 25);

        assertTrue(run.finished());
        assertEquals("Succeeded", run.status(before.pod).getPhase());
    }

    @Test
    @DisplayName("a running pod that was not deleted resumes where its history says it is")
    void undeleted() {
        PodRunHarness before = new PodRunHarness(pod("Always", sim("run-duration", "100s"), c("c"))).until(10);

        PodRun run = restartedKubelet(before.pod, 30);

        assertEquals(T0.plusSeconds(101), run.nextChangeAt().orElseThrow(), "exits 100 s after its start at 1 s");
    }
}
