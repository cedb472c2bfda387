package io.eventplane.reconcile;

import io.eventplane.client.events.EventNotice;
import java.time.Duration;
import java.util.List;

/**
 * What one level-triggered step of a controller decided: commands to send, Events to record now, and when to look
 * again even if nothing changes ("wake me at time T": a pod becoming available after minReadySeconds, a progress
 * deadline, a CronJob's next schedule), or null.
 */
public record Reconciliation(List<Action> actions, List<EventNotice> events, Duration requeueAfter) {
    public static final Reconciliation NOTHING = new Reconciliation(List.of(), List.of(), null);

    public Reconciliation {
        actions = List.copyOf(actions);
        events = List.copyOf(events);
    }

    public static Reconciliation of(List<Action> actions) {
        return new Reconciliation(actions, List.of(), null);
    }

    /** Nothing to do now; look again after {@code delay}. */
    public static Reconciliation after(Duration delay) {
        return new Reconciliation(List.of(), List.of(), delay);
    }
}
