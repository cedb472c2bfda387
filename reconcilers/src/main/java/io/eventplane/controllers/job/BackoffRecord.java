package io.eventplane.controllers.job;

import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The pod-failure back-off of one Job (JOB-15, JOB-16), as upstream's backoff_utils keeps it: how many pods failed
 * since the last success and when the last of them finished. A replacement pod is created only once
 * {@code min(10 s * 2^(failures-1), 360 s)} have passed since that last failure. A success resets the count (failures
 * that finished after it still count).
 *
 * <p>Like upstream's store it lives in the controller's memory (lost on a restart); it takes in each finished pod
 * once, when the pod is first seen finished and not yet counted, so a step decided again on the same pods does not
 * count them twice ({@code seen}).
 *
 * @param failuresAfterLastSuccess consecutive failures
 * @param lastFailureTime          when the last of them finished, or null
 * @param seen                     the uids of the finished pods already taken in
 */
record BackoffRecord(int failuresAfterLastSuccess, Instant lastFailureTime, Set<String> seen) {
    static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(10);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(360);
    static final BackoffRecord NONE = new BackoffRecord(0, null, Set.of());

    BackoffRecord {
        seen = Set.copyOf(seen);
    }

    /** This record with the newly finished pods taken in (upstream's newBackoffRecord). */
    BackoffRecord with(List<Pod> newSucceeded, List<Pod> newFailed) {
        List<Pod> succeeded = unseen(newSucceeded);
        List<Pod> failed = unseen(newFailed);
        if (succeeded.isEmpty() && failed.isEmpty()) {
            return this;
        }
        Set<String> nowSeen = new HashSet<>(seen);
        succeeded.forEach(p -> nowSeen.add(p.getMetadata().getUid()));
        failed.forEach(p -> nowSeen.add(p.getMetadata().getUid()));
        failed.sort(Comparator.comparing(BackoffRecord::finishedTime));
        if (succeeded.isEmpty()) {
            return new BackoffRecord(failuresAfterLastSuccess + failed.size(),
                    finishedTime(failed.get(failed.size() - 1)), nowSeen);
        }
        Instant lastSuccess = succeeded.stream().map(BackoffRecord::finishedTime).max(Comparator.naturalOrder()).orElseThrow();
        int failures = 0;
        Instant lastFailure = null;
        for (int i = failed.size() - 1; i >= 0; i--) {
            Instant t = finishedTime(failed.get(i));
            if (!t.isAfter(lastSuccess)) {
                break;
            }
            if (lastFailure == null) {
                lastFailure = t;
            }
            failures++;
        }
        return new BackoffRecord(failures, lastFailure, nowSeen);
    }

    private List<Pod> unseen(List<Pod> pods) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : pods) {
            if (!seen.contains(p.getMetadata().getUid())) {
                out.add(p);
            }
        }
        return out;
    }

    /** How long until a replacement may be created (zero: now). */
    Duration remaining(Instant now) {
        return remaining(now, failuresAfterLastSuccess, lastFailureTime);
    }

    static Duration remaining(Instant now, int failures, Instant lastFailure) {
        if (failures == 0 || lastFailure == null) {
            return Duration.ZERO;
        }
        Duration backoff = DEFAULT_BACKOFF;
        for (int i = 1; i < failures; i++) {
            backoff = backoff.multipliedBy(2);
            if (backoff.compareTo(MAX_BACKOFF) >= 0) {
                backoff = MAX_BACKOFF;
                break;
            }
        }
        Duration elapsed = Duration.between(lastFailure, now);
        return backoff.compareTo(elapsed) < 0 ? Duration.ZERO : backoff.minus(elapsed);
    }

    /**
     * When a pod finished: the latest finish of its containers when all have terminated, else when it became not
     * Ready, else when its deletion began, else its creation.
     */
    static Instant finishedTime(Pod p) {
        Instant fromContainers = null;
        List<ContainerStatus> statuses = p.getStatus() == null ? null : p.getStatus().getContainerStatuses();
        if (statuses != null && !statuses.isEmpty()) {
            for (ContainerStatus s : statuses) {
                if (s.getState() == null || s.getState().getTerminated() == null
                        || s.getState().getTerminated().getFinishedAt() == null) {
                    fromContainers = null;
                    break;
                }
                Instant t = s.getState().getTerminated().getFinishedAt();
                fromContainers = fromContainers == null || fromContainers.isBefore(t) ? t : fromContainers;
            }
        }
        if (fromContainers != null) {
            return fromContainers;
        }
        var ready = PodStates.readyCondition(p);
        if (ready.isPresent() && "False".equals(ready.get().getStatus()) && ready.get().getLastTransitionTime() != null) {
            return ready.get().getLastTransitionTime();
        }
        var meta = p.getMetadata();
        if (meta.getDeletionTimestamp() != null) {
            long grace = meta.getDeletionGracePeriodSeconds() == null ? 0 : meta.getDeletionGracePeriodSeconds();
            return meta.getDeletionTimestamp().minusSeconds(grace);
        }
        return meta.getCreationTimestamp() == null ? Instant.EPOCH : meta.getCreationTimestamp();
    }
}
