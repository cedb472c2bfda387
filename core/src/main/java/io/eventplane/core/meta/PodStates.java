package io.eventplane.core.meta;

import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/** What controllers read off a pod: active, ready, available (COM-08). Pure. */
public final class PodStates {
    private PodStates() {
    }

    public static boolean isTerminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    public static boolean isTerminating(Pod pod) {
        return pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** Counts as a replica: not finished and not being deleted (RS-16, RC-07). */
    public static boolean isActive(Pod pod) {
        return !isTerminal(pod) && !isTerminating(pod);
    }

    public static String phase(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return phase == null ? "Pending" : phase;
    }

    public static Optional<PodCondition> readyCondition(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return pod.getStatus().getConditions().stream().filter(c -> "Ready".equals(c.getType())).findFirst();
    }

    public static boolean isReady(Pod pod) {
        return readyCondition(pod).map(c -> "True".equals(c.getStatus())).orElse(false);
    }

    /** Since when the pod is Ready, or empty when it is not. */
    public static Optional<Instant> readySince(Pod pod) {
        return readyCondition(pod).filter(c -> "True".equals(c.getStatus())).map(c ->
                c.getLastTransitionTime() == null ? Instant.EPOCH : c.getLastTransitionTime());
    }

    /** Ready for at least {@code minReadySeconds} (0: as soon as Ready). */
    public static boolean isAvailable(Pod pod, int minReadySeconds, Instant now) {
        Optional<Instant> since = readySince(pod);
        if (since.isEmpty()) {
            return false;
        }
        return minReadySeconds <= 0 || !since.get().plusSeconds(minReadySeconds).isAfter(now);
    }

    /** How long until a Ready pod becomes available, or empty when it is not Ready or already available. */
    public static Optional<Duration> untilAvailable(Pod pod, int minReadySeconds, Instant now) {
        Optional<Instant> since = readySince(pod);
        if (since.isEmpty() || minReadySeconds <= 0) {
            return Optional.empty();
        }
        Instant at = since.get().plusSeconds(minReadySeconds);
        return at.isAfter(now) ? Optional.of(Duration.between(now, at)) : Optional.empty();
    }

    public static int restarts(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return 0;
        }
        return pod.getStatus().getContainerStatuses().stream()
                .mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).max().orElse(0);
    }
}
