package io.eventplane.client.events;

import io.eventplane.client.CommandSender;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.ChangeType;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Event;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** Events on the log: read from an {@link ObjectView}, written through a {@link CommandSender}, verdicts from {@link Outcomes}. */
public final class KafkaEventStore implements EventStore {
    private final CommandSender sender;
    private final Outcomes outcomes;
    private final ObjectView view;
    private static final Duration VIEW_WAIT = Duration.ofSeconds(5);
    private final Duration timeout;
    private final Map<String, List<Waiter>> waiters = new ConcurrentHashMap<>();

    private record Waiter(long after, CompletableFuture<Void> done) {
    }

    /**
     * @param timeout how long to wait for the writer's verdict on one command
     */
    private final ObjectView.Listener listener = this::onChange;

    public KafkaEventStore(CommandSender sender, Outcomes outcomes, ObjectView view, Duration timeout) {
        this.sender = sender;
        this.outcomes = outcomes;
        this.view = view;
        this.timeout = timeout;
        view.addListener(listener);
    }

    /** Stops following the view (which may be shared and go on). */
    public void close() {
        view.removeListener(listener);
    }

    @Override
    public Optional<Stored> find(String namespace, String name) {
        return view.get(Kinds.EVENT.kind(), namespace, name)
                .map(c -> new Stored((Event) c.getObject(), c.getResourceVersion()));
    }

    @Override
    public CompletableFuture<CommandOutcome> submit(Command command) {
        String id = command.getEnvelope().getRequestId();
        CompletableFuture<CommandOutcome> outcome = outcomes.await(id);
        sender.send(command).whenComplete((md, e) -> {
            if (e != null) {
                outcome.completeExceptionally(e);
            }
        });
        return outcome.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((o, e) -> {
            if (e != null) {
                outcomes.forget(id);
            }
        });
    }

    @Override
    public CompletableFuture<Void> awaitNewer(String namespace, String name, long resourceVersion) {
        String key = Keys.of(Kinds.EVENT.kind(), namespace, name);
        Waiter w = new Waiter(resourceVersion, new CompletableFuture<>());
        waiters.compute(key, (k, list) -> {
            List<Waiter> l = list == null ? new CopyOnWriteArrayList<>() : list;
            l.add(w);
            return l;
        });
        // Registered first, checked second: a change applied in between is not missed.
        Optional<ObjectChanged> now = view.get(key);
        boolean seen = resourceVersion == 0 ? now.isPresent()
                : now.map(c -> c.getResourceVersion() > resourceVersion).orElse(true); // gone counts as changed
        if (seen) {
            w.done().complete(null);
        }
        // The view is normally milliseconds behind; do not hold the Event's writes for long if it is not.
        w.done().orTimeout(Math.min(timeout.toMillis(), VIEW_WAIT.toMillis()), TimeUnit.MILLISECONDS)
                .whenComplete((v, e) -> remove(key, w));
        return w.done();
    }

    private void onChange(ObjectChanged change) {
        if (waiters.isEmpty() || !change.getKind().equals(Kinds.EVENT.kind())) {
            return;
        }
        List<Waiter> list = waiters.get(Keys.of(change.getKind(), change.getNamespace(), change.getName()));
        if (list != null) {
            for (Waiter w : list) {
                if (change.getResourceVersion() > w.after() || change.getType() == ChangeType.DELETED) {
                    w.done().complete(null);
                }
            }
        }
    }

    private void remove(String key, Waiter w) {
        waiters.computeIfPresent(key, (k, list) -> {
            list.remove(w);
            return list.isEmpty() ? null : list;
        });
    }
}
