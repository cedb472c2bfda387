package io.eventplane.client;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A live watch on a view: a bounded buffer the view fills and the watcher drains. A watcher that falls behind by more
 * than the buffer is closed with a reason instead of slowing the view or other watchers.
 */
public final class Subscription implements AutoCloseable {
    private final BlockingQueue<WatchEvent> queue;
    private final Runnable onClose;
    private volatile String closedReason;

    Subscription(int capacity, Runnable onClose) {
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.onClose = onClose;
    }

    /** Called by the view; never blocks. */
    void offer(WatchEvent event) {
        if (closedReason == null && !queue.offer(event)) {
            closedReason = "the watcher fell more than " + (queue.size()) + " events behind";
            onClose.run();
        }
    }

    /** The next event, or null when none arrived within {@code timeout} or the subscription is closed and drained. */
    public WatchEvent poll(Duration timeout) throws InterruptedException {
        WatchEvent e = queue.poll();
        if (e != null || closedReason != null) {
            return e;
        }
        return queue.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Why the view closed this subscription (overflow, view shut down), or null while open. */
    public String closedReason() {
        return closedReason;
    }

    public boolean isClosed() {
        return closedReason != null;
    }

    void closeWith(String reason) {
        if (closedReason == null) {
            closedReason = reason;
        }
    }

    @Override
    public void close() {
        closeWith("closed by the watcher");
        onClose.run();
    }
}
