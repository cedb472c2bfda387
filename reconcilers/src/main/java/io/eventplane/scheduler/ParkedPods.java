package io.eventplane.scheduler;

import io.eventplane.reconcile.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Unschedulable pods waiting for a cluster change, as kube-scheduler's unschedulable pod pool keeps them: a pod comes
 * back to the queue when something changes that could make it fit, after what is left of its backoff (1 s doubling to
 * 10 s by failed attempts), or after 5 minutes regardless (podMaxInUnschedulablePodsDuration). The view's thread
 * wakes pods; the worker parks them.
 */
final class ParkedPods {
    static final Duration MAX_BACKOFF = Duration.ofSeconds(10);
    static final Duration MAX_UNSCHEDULABLE = Duration.ofMinutes(5);

    private final Clock clock;
    private final WorkQueue<String> queue;
    /** Failed attempts per pod key, for the backoff; cleared when the pod is bound or gone. */
    private final Map<String, Integer> attempts = new ConcurrentHashMap<>();
    /** Parked pods with when they were parked and how often they failed. */
    private final Map<String, Parked> parked = new ConcurrentHashMap<>();
    /** Bumped on every change that could make a parked pod fit; a pod parked after a bump is retried at once. */
    private final AtomicLong clusterGeneration = new AtomicLong();

    record Parked(Instant at, int attempts) {
    }

    ParkedPods(Clock clock, WorkQueue<String> queue) {
        this.clock = clock;
        this.queue = queue;
    }

    long generation() {
        return clusterGeneration.get();
    }

    int size() {
        return parked.size();
    }

    /** Something changed that could make any parked pod fit: every one goes back to the queue. */
    void clusterChanged() {
        clusterGeneration.incrementAndGet();
        if (!parked.isEmpty()) {
            Instant now = clock.instant();
            for (String key : List.copyOf(parked.keySet())) {
                wake(key, now);
            }
        }
    }

    /** Moves {@code key} back to the queue if it is parked; false if it was not. */
    boolean wake(String key, Instant now) {
        Parked p = parked.remove(key);
        if (p == null) {
            return false;
        }
        requeue(key, p, now);
        return true;
    }

    /** The pod was bound or is gone: its parking and its failed attempts are forgotten. */
    void forget(String key) {
        parked.remove(key);
        attempts.remove(key);
    }

    /**
     * Parks {@code key} until a cluster change; if one came since the cycle's snapshot ({@code generation}), or
     * {@code changedSince} says another change that concerns it came, the pod is retried at once instead.
     */
    void park(String key, long generation, BooleanSupplier changedSince) {
        Instant now = clock.instant();
        Parked p = new Parked(now, attempts.merge(key, 1, Integer::sum));
        parked.put(key, p);
        boolean changed = clusterGeneration.get() != generation || changedSince.getAsBoolean();
        if (changed && parked.remove(key, p)) {
            requeue(key, p, now);
        }
    }

    /** Kubernetes' podMaxInUnschedulablePodsDuration: a parked pod is tried again after 5 minutes regardless. */
    void flushLongParked() {
        if (parked.isEmpty()) {
            return;
        }
        Instant now = clock.instant();
        for (Map.Entry<String, Parked> e : List.copyOf(parked.entrySet())) {
            if (e.getValue().at().plus(MAX_UNSCHEDULABLE).isBefore(now) && parked.remove(e.getKey(), e.getValue())) {
                queue.add(e.getKey());
            }
        }
    }

    private void requeue(String key, Parked p, Instant now) {
        Duration left = Duration.between(now, p.at().plus(backoff(p.attempts())));
        if (left.isNegative() || left.isZero()) {
            queue.add(key);
        } else {
            queue.addAfter(key, left);
        }
    }

    static Duration backoff(int attempts) {
        long ms = 1000L << Math.min(Math.max(attempts - 1, 0), 4);
        return Duration.ofMillis(Math.min(ms, MAX_BACKOFF.toMillis()));
    }
}
