package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.model.Container;
import io.eventplane.nodesim.ContainerRun.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A container whose definition changed in the pod's spec (its image: the one container field a pod update may change,
 * POD-2.8), as the kubelet's computePodActions treats it: a running container is killed ("Container c definition
 * changed, will be restarted": preStop, SIGTERM, SIGKILL at the pod's grace period) and started again at once with the
 * new definition, whatever the restart policy (POD-2.13); one waiting to start (pulling, backing off, failing to be
 * created) starts over with the new image now; one that never started simply takes it. Regular init containers keep
 * what they ran (POD-2.10: a new init image does not restart the pod); a finished container is not started again.
 */
final class ContainerUpdates {

    private ContainerUpdates() {
    }

    /** Applies the spec's images to the runs of the same names at {@code t}; whether anything changed. */
    static boolean redefine(List<ContainerRun> runs, List<Container> specs, Instant t) {
        boolean changed = false;
        for (Container k : PodRun.list(specs)) {
            for (ContainerRun c : runs) {
                if (c.name().equals(k.getName()) && c.role != Role.INIT
                        && !Objects.equals(c.spec.getImage(), k.getImage())) {
                    changed |= redefine(c, k, t);
                }
            }
        }
        return changed;
    }

    private static boolean redefine(ContainerRun c, Container next, Instant t) {
        if (c.configError != null) {
            c.spec = next; // its annotations cannot be read: it never runs
            return true;
        }
        switch (c.phase) {
            case IDLE -> c.spec = next;
            case RUNNING -> {
                c.spec = next;
                if (!c.redefined) { // else already being killed: the start after it takes the newest definition
                    kill(c, t);
                }
            }
            case PULLING, PULL_ERROR, PULL_BACKOFF, CONFIG_ERROR, EXITED, BACKOFF -> {
                c.spec = next;
                c.crashes = 0;
                c.due = null;
                c.ensureImageOnRestart = false;
                c.waitReason = "ContainerCreating";
                c.waitMessage = null;
                c.ensureImage(t);
            }
            default -> {
                return false; // its postStart hook runs (seen again once it runs), or it finished for good
            }
        }
        return true;
    }

    /** The kubelet's killContainer for a changed definition: graceful, within the pod's terminationGracePeriodSeconds. */
    private static void kill(ContainerRun c, Instant t) {
        PodRun pod = c.pod();
        c.redefined = true;
        c.signalled = true;
        pod.record(EventNotice.normal(c.ref(), "Killing", "Container " + c.name() + " definition changed, will be restarted"));
        PodBehavior b = c.behavior;
        long grace = pod.terminationGraceSeconds();
        Instant termAt = grace > 0 && c.hasPreStop() ? t.plus(b.preStopDuration()) : t;
        Duration shutdown = b.shutdownDuration() != null ? b.shutdownDuration() : pod.config().shutdownDefault();
        Instant exits = b.ignoresSigterm() ? null : termAt.plus(shutdown);
        Instant killAt = t.plusSeconds(grace);
        if (exits == null || exits.isAfter(killAt)) {
            c.end(killAt, ContainerRun.KILLED, "Error", null);
        } else {
            c.end(exits, b.exitCodeOnSigterm(), b.exitCodeOnSigterm() == 0 ? "Completed" : "Error", null);
        }
        c.due = c.runningDue(t);
    }
}
