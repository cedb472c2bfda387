package io.eventplane.client;


import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;


/**
 * Waits, up to a deadline, until a condition over the view holds: it re-checks after every change the view applies
 * (and at least twice a second, for conditions on other things), instead of sleeping. Register it with
 * {@link ObjectView#addListener} first.
 */
public final class ViewWaiter implements ObjectView.Listener {
    private final Object lock = new Object();
    private long changes;

    @Override
    public void onChange(ObjectChanged change) {
        synchronized (lock) {
            changes++;
            lock.notifyAll();
        }
    }

    public <T> T await(Duration timeout, Supplier<Optional<T>> condition, Supplier<String> failure) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long seen;
            synchronized (lock) {
                seen = changes;
            }
            Optional<T> result = condition.get();
            if (result.isPresent()) {
                return result.get();
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new ViewTimeoutException("not within " + timeout + ": " + failure.get());
            }
            synchronized (lock) {
                if (changes == seen) {
                    try {
                        lock.wait(Math.max(1, Math.min(left / 1_000_000, 500)));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new ViewTimeoutException("interrupted");
                    }
                }
            }
        }
    }

    public void awaitTrue(Duration timeout, Supplier<Boolean> condition, Supplier<String> failure) {
        await(timeout, () -> condition.get() ? Optional.of(Boolean.TRUE) : Optional.empty(), failure);
    }

    /** The condition did not hold in time; the message says what was expected and what was seen. */
    public static final class ViewTimeoutException extends RuntimeException {
        public ViewTimeoutException(String message) {
            super(message);
        }
    }
}
