package io.eventplane.nodesim;

import io.eventplane.core.meta.Conditions;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateRunning;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodReadinessGate;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The pod status a kubelet writes for a {@link PodRun} at the run's current time, built on the stored one: the phase,
 * the conditions PodReadyToStartContainers, Initialized, ContainersReady and Ready with the pod's readiness gates
 * (POD-6), and each init, app and ephemeral container's state, last state, readiness, restart count, image and ids
 * (POD-4). A condition's lastTransitionTime changes only with its status ({@link Conditions#set}). Pure.
 */
final class PodStatusWriter {

    private PodStatusWriter() {
    }

    /** The pod's status as the kubelet reports it now, built on the stored one. */
    static PodStatus status(Pod pod, PodRun run) {
        PodStatus old = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        Instant now = run.now();
        String phase = run.phase();
        List<ContainerRun> init = run.initContainers();
        List<ContainerRun> apps = run.appContainers();
        List<ContainerRun> ephemeral = run.ephemeralContainers();
        boolean initialized = run.initialized();
        boolean done = "Succeeded".equals(phase) || "Failed".equals(phase);
        List<PodCondition> c = old.getConditions();
        c = set(c, "PodReadyToStartContainers", "True", null, null, now);
        List<String> incomplete = new ArrayList<>();
        for (ContainerRun k : init) {
            boolean complete = k.role == ContainerRun.Role.SIDECAR ? k.startedOnce
                    : k.terminated != null && k.terminated.getExitCode() == 0 && k.phase == ContainerRun.Phase.DONE;
            if (!complete && !initialized) {
                incomplete.add(k.name());
            }
        }
        c = initialized || init.isEmpty() ? set(c, "Initialized", "True", null, null, now)
                : set(c, "Initialized", "False", "ContainersNotInitialized",
                "containers with incomplete status: " + names(incomplete), now);
        List<String> unready = new ArrayList<>();
        for (ContainerRun k : init) {
            if (k.role == ContainerRun.Role.SIDECAR && !k.ready) {
                unready.add(k.name());
            }
        }
        for (ContainerRun k : apps) {
            if (!k.ready) {
                unready.add(k.name());
            }
        }
        if (done) {
            c = set(c, "ContainersReady", "False", "PodCompleted", null, now);
            c = set(c, "Ready", "False", "PodCompleted", null, now);
        } else if (!unready.isEmpty()) {
            String message = "containers with unready status: " + names(unready);
            c = set(c, "ContainersReady", "False", "ContainersNotReady", message, now);
            c = set(c, "Ready", "False", "ContainersNotReady", message, now);
        } else {
            c = set(c, "ContainersReady", "True", null, null, now);
            String gate = unmetGate(pod.getSpec(), c);
            c = gate == null ? set(c, "Ready", "True", null, null, now)
                    : set(c, "Ready", "False", "ReadinessGatesNotReady", gate, now);
        }
        List<ContainerStatus> initStatuses = new ArrayList<>();
        init.forEach(k -> initStatuses.add(containerStatus(k, initialized)));
        List<ContainerStatus> appStatuses = new ArrayList<>();
        apps.forEach(k -> appStatuses.add(containerStatus(k, initialized)));
        PodStatus.Builder next = PodStatus.newBuilder(old)
                .setPhase(phase)
                .setConditions(c)
                .setInitContainerStatuses(init.isEmpty() ? null : initStatuses)
                .setContainerStatuses(appStatuses);
        if (!ephemeral.isEmpty()) {
            List<ContainerStatus> ephemeralStatuses = new ArrayList<>();
            ephemeral.forEach(k -> ephemeralStatuses.add(containerStatus(k, initialized)));
            next.setEphemeralContainerStatuses(ephemeralStatuses);
        }
        if (run.deadlineExceeded()) {
            next.setReason("DeadlineExceeded").setMessage("Pod was active on the node longer than the specified deadline");
        }
        return next.build();
    }

    /** A container's status; {@code initialized}: every init container has completed (the app containers' turn). */
    private static ContainerStatus containerStatus(ContainerRun k, boolean initialized) {
        ContainerState state;
        if (k.running()) {
            state = ContainerState.newBuilder().setRunning(ContainerStateRunning.newBuilder().setStartedAt(k.runStart)
                    .build()).build();
        } else if (k.terminated != null && k.phase != ContainerRun.Phase.BACKOFF
                && k.phase != ContainerRun.Phase.CONFIG_ERROR
                && !(k.phase == ContainerRun.Phase.POST_START && k.waitReason != null)) {
            state = ContainerState.newBuilder().setTerminated(k.terminated).build();
        } else {
            String reason = k.waitReason;
            if (reason == null) {
                reason = k.role == ContainerRun.Role.APP && !initialized
                        || k.role != ContainerRun.Role.APP && k.phase == ContainerRun.Phase.IDLE
                        ? "PodInitializing" : "ContainerCreating";
            }
            state = ContainerState.newBuilder().setWaiting(ContainerStateWaiting.newBuilder().setReason(reason)
                    .setMessage(k.waitMessage).build()).build();
        }
        boolean completedInit = k.role == ContainerRun.Role.INIT && k.terminated != null && k.terminated.getExitCode() == 0;
        // a restart that cannot be created yet: the kubelet shows the run that ended as the last state
        ContainerStateTerminated last = k.phase == ContainerRun.Phase.CONFIG_ERROR && k.terminated != null
                ? k.terminated : k.last;
        return ContainerStatus.newBuilder().setName(k.name())
                .setState(state)
                .setLastState(last == null ? new ContainerState()
                        : ContainerState.newBuilder().setTerminated(last).build())
                .setReady(k.ready || completedInit)
                .setStarted(k.role == ContainerRun.Role.INIT ? k.running() : k.started)
                .setRestartCount(k.restartCount)
                .setImage(PodLifecycle.normalizeImage(k.runImage != null ? k.runImage : k.spec.getImage()))
                .setImageID(k.runImage != null ? k.runImageID : k.imageID)
                .setContainerID(k.containerID)
                .build();
    }

    private static String unmetGate(PodSpec spec, List<PodCondition> conditions) {
        for (PodReadinessGate gate : PodRun.list(spec.getReadinessGates())) {
            PodCondition c = null;
            for (PodCondition x : PodRun.list(conditions)) {
                if (gate.getConditionType().equals(x.getType())) {
                    c = x;
                }
            }
            if (c == null) {
                return "corresponding condition of pod readiness gate \"" + gate.getConditionType() + "\" does not exist.";
            }
            if (!"True".equals(c.getStatus())) {
                return "the status of pod readiness gate \"" + gate.getConditionType() + "\" is not \"True\", but "
                        + c.getStatus();
            }
        }
        return null;
    }

    private static List<PodCondition> set(List<PodCondition> conditions, String type, String status, String reason,
                                          String message, Instant now) {
        return Conditions.set(conditions, PodCondition.newBuilder().setType(type).setStatus(status)
                .setReason(reason).setMessage(message).setLastTransitionTime(now).build());
    }

    private static String names(List<String> names) {
        return "[" + String.join(" ", names) + "]";
    }
}
