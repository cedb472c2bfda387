package io.eventplane.controllers.eventttl;

import io.eventplane.client.ClusterView;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Event;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.PeriodicReconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Deletes Events past the event TTL ({@code EVENTPLANE_EVENT_TTL_SECONDS}, 3600 as kube-apiserver's
 * {@code --event-ttl}), up to 2,000 a look and a look every 200 ms while more are due (up to 10,000 a second: the
 * soak's churn at 50 pods a second makes ~800 Events a second). Without it every pod's Scheduled, Pulled, Created, Started and Killing Events stayed in every
 * view for ever: the soak's heap grew by ~5 Events a pod. Each delete carries the Event's resourceVersion, so one
 * written again meanwhile (its count raised) is kept.
 */
public final class EventTtlController implements PeriodicReconciler {
    static final int DELETES_PER_LOOK = 2_000;
    static final Duration SOON = Duration.ofMillis(200);

    private final EventTtlDecider decider = new EventTtlDecider();
    private final Duration ttl;
    private final Duration period;

    public EventTtlController(Duration ttl, Duration period) {
        this.ttl = ttl;
        this.period = period;
    }

    public static EventTtlController fromEnvironment() {
        return new EventTtlController(Duration.ofSeconds(Long.parseLong(
                EventplaneConfig.setting("EVENTPLANE_EVENT_TTL_SECONDS", "3600"))), Duration.ofSeconds(30));
    }

    @Override
    public Duration period() {
        return period;
    }

    @Override
    public Reconciliation tick(ClusterView view, Instant now) {
        List<Event> events = view.objects(Kinds.EVENT.kind(), null);
        List<Action> deletes = decider.expired(events, now, ttl, DELETES_PER_LOOK).stream()
                .<Action>map(e -> new Action.Delete(Kinds.EVENT, e.getMetadata().getNamespace(),
                        e.getMetadata().getName(), e.getMetadata().getUid(), e.getMetadata().getResourceVersion(),
                        null, null, null, null))
                .toList();
        // a full batch means more are due: look again soon, so deletes keep pace with Events created (the soak made
        // ~160 a second at 10 pods a second; one batch every period deleted 17)
        return new Reconciliation(deletes, List.of(), deletes.size() == DELETES_PER_LOOK ? SOON : null);
    }
}
