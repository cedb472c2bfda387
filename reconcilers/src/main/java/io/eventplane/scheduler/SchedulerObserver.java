package io.eventplane.scheduler;

/** What the scheduler reports about its own work, for benchmarks and metrics; called on the scheduler's threads. */
public interface SchedulerObserver {
    SchedulerObserver NONE = new SchedulerObserver() {
    };

    /** One cycle: how many pods, how long the snapshot took and how long the decisions took (nanoseconds). */
    default void cycle(int pods, long snapshotNanos, long decideNanos) {
    }

    /** One decision for one pod took {@code nanos}. */
    default void decided(String key, boolean bound, long nanos) {
    }

    /** The view shows this scheduler's binding of {@code key}, {@code nanos} after it was sent. */
    default void bindingVisible(String key, long nanos) {
    }
}
