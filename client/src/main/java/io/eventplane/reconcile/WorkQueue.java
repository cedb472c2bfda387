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
 * key is never handed out twice at once (an add while it is processed hands it out again after {@link #done}), a
 * delayed add keeps only the earliest time per key, and a failing key comes back after the longer of an exponential
 * per-key backoff and an overall token bucket (client-go's default controller rate limiter: 10 retries/s, burst 100),
 * so a storm of failures cannot turn into a storm of retries.
 */
public final class WorkQueue<K> implements AutoCloseable {
    private final LinkedHashSet<K> ready = new LinkedHashSet<>();
    private final Set<K> processing = new HashSet<>();
    private final Set<K> dirty = new HashSet<>();
    private final Map<K, Integer> failures = new HashMap<>();
    private final ScheduledExecutorService timer;
    /** Keys added with a delay, by the time (nanoTime) they are due; a later add of the same key waits for the earlier. */
    private final Map<K, Long> waiting = new HashMap<>();
    private final Duration baseDelay;
    private final Duration maxDelay;
    private final long retryIntervalNanos;
    private final int retryBurst;
    /** The token bucket as a theoretical arrival time (GCRA): when the bucket would be empty again. */
    private long bucketTat = System.nanoTime();
    private boolean closed;

    public WorkQueue(String name, Duration baseDelay, Duration maxDelay, double retriesPerSecond, int retryBurst) {
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
        this.retryIntervalNanos = (long) (1e9 / retriesPerSecond);
        this.retryBurst = retryBurst;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-delays");
            t.setDaemon(true);
            return t;
        });
    }

    public WorkQueue(String name, Duration baseDelay, Duration maxDelay) {
        this(name, baseDelay, maxDelay, 10, 100);
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
        long due = System.nanoTime() + delay.toNanos();
        synchronized (this) {
            if (closed) {
                return;
            }
            Long earlier = waiting.get(key);
            if (earlier != null && earlier <= due) {
                return;
            }
            waiting.put(key, due);
        }
        timer.schedule(() -> {
            synchronized (this) {
                if (!waiting.remove(key, due)) {
                    return; // an earlier add of the key has been scheduled since
                }
            }
            add(key);
        }, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Adds the key again after a backoff that doubles with each failure since its last {@link #forget}. */
    public void addRateLimited(K key) {
        int n;
        synchronized (this) {
            n = failures.merge(key, 1, Integer::sum);
        }
        Duration wait = backoff(n);
        Duration bucket = Duration.ofNanos(bucketDelay());
        addAfter(key, bucket.compareTo(wait) > 0 ? bucket : wait);
    }

    /** The overall bucket's delay for one more retry now, taking its token. */
    synchronized long bucketDelay() {
        long now = System.nanoTime();
        bucketTat = Math.max(bucketTat, now) + retryIntervalNanos;
        return Math.max(0, bucketTat - now - retryBurst * retryIntervalNanos);
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

    /** Keys waiting to be handed out (not those being processed or waiting for their time). */
    public synchronized int size() {
        return ready.size();
    }

    /** Keys added with a delay that has not passed yet. */
    public synchronized int delayed() {
        return waiting.size();
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
