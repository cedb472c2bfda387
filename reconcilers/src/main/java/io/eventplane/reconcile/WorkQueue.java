package io.eventplane.reconcile;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keys waiting to be reconciled, in the manner of client-go's workqueue: repeated adds of a waiting key coalesce, a
 * key is never handed out twice at once (an add while it is processed hands it out again after {@link #done}), and a
 * failing key comes back after an exponential per-key backoff.
 */
public final class WorkQueue<K> implements AutoCloseable {
    private final LinkedHashSet<K> ready = new LinkedHashSet<>();
    private final Set<K> processing = new HashSet<>();
    private final Set<K> dirty = new HashSet<>();
    private final Map<K, Integer> failures = new HashMap<>();
    private final ScheduledExecutorService timer;
    private final Duration baseDelay;
    private final Duration maxDelay;
    private boolean closed;

    public WorkQueue(String name, Duration baseDelay, Duration maxDelay) {
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-delays");
            t.setDaemon(true);
            return t;
        });
    }

    public WorkQueue(String name) {
        this(name, Duration.ofMillis(100), Duration.ofSeconds(30));
    }

    public synchronized void add(K key) {
        if (closed) {
            return;
        }
        if (processing.contains(key)) {
            dirty.add(key);
        } else if (ready.add(key)) {
            notifyAll();
        }
    }

    public void addAfter(K key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        timer.schedule(() -> add(key), delay.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Adds the key again after a backoff that doubles with each failure since its last {@link #forget}. */
    public void addRateLimited(K key) {
        int n;
        synchronized (this) {
            n = failures.merge(key, 1, Integer::sum);
        }
        addAfter(key, backoff(n));
    }

    Duration backoff(int failures) {
        long millis = baseDelay.toMillis() << Math.min(failures - 1, 20);
        return Duration.ofMillis(Math.min(millis, maxDelay.toMillis()));
    }

    /** The key succeeded: its next failure starts the backoff again from the base delay. */
    public synchronized void forget(K key) {
        failures.remove(key);
    }

    /**
     * Up to {@code max} keys, waiting at most {@code timeout} for the first; empty when none came or the queue is
     * closed. Every key handed out must be given back with {@link #done}.
     */
    public synchronized List<K> take(int max, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ready.isEmpty() && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return List.of();
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        List<K> out = new ArrayList<>(Math.min(max, ready.size()));
        Iterator<K> it = ready.iterator();
        while (it.hasNext() && out.size() < max) {
            K key = it.next();
            it.remove();
            processing.add(key);
            out.add(key);
        }
        return out;
    }

    public synchronized void done(K key) {
        processing.remove(key);
        if (dirty.remove(key) && !closed) {
            ready.add(key);
            notifyAll();
        }
    }

    /** Keys waiting to be handed out (not those being processed). */
    public synchronized int size() {
        return ready.size();
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        timer.shutdownNow();
    }
}
