package io.eventplane.gc;

import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Requests;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.model.ObjectMeta;
import io.eventplane.reconcile.ControllerClients;
import io.eventplane.reconcile.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The garbage collector's shell (workloads.md §6): an {@link ObjectView} of every object, the owner graph indexed from
 * owner references (by owner uid), a queue of keys fed by the view, and one worker that decides each key with
 * {@link GarbageCollectorDecider} and sends the steps to the writer.
 *
 * <p>Deletion only on positive evidence: before each batch the worker {@linkplain ControllerClients#catchUp catches
 * up} with the log, so an owner missing from the view is missing from the log (Kubernetes does a live GET), and every
 * command carries the uid and resourceVersion the decision was made on, so the writer rejects a step about an object
 * that changed since. A rejected step puts the key back (with backoff) and it is decided again on fresh state.
 */
public final class GarbageCollectorService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(GarbageCollectorService.class);
    private static final int BATCH = 1024;
    private static final Duration VERDICT_TIMEOUT = Duration.ofSeconds(30);

    private final EventplaneConfig config;
    private final String actor;
    private final Clock clock;
    private final Commands commands;
    private final GarbageCollectorDecider decider = new GarbageCollectorDecider();
    private final WorkQueue<String> queue;
    private final Map<String, String> keyByUid = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> dependentsByOwner = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> ownersByKey = new ConcurrentHashMap<>();
    /** Steps sent and not yet answered, by object key and resourceVersion: the same step is not sent twice. */
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    private final AtomicLong deleted = new AtomicLong();
    private final AtomicLong updated = new AtomicLong();
    private ControllerClients clients;
    private ObjectView view;
    private Thread worker;
    private volatile boolean running;
    private volatile boolean synced;

    public GarbageCollectorService(EventplaneConfig config, String actor, Clock clock) {
        this.config = config;
        this.actor = actor;
        this.clock = clock;
        this.commands = new Commands(actor, clock);
        this.queue = new WorkQueue<>(actor + "-queue", Duration.ofMillis(50), Duration.ofSeconds(30));
    }

    public GarbageCollectorService(EventplaneConfig config, String actor) {
        this(config, actor, Clock.systemUTC());
    }

    public GarbageCollectorService start() {
        running = true;
        clients = ControllerClients.create(config, actor, clock,
                new EventOrigin("garbage-collector-controller", null, "garbage-collector-controller"));
        view = clients.view();
        clients.listen(this::onChange);
        clients.start();
        worker = new Thread(this::run, actor + "-worker");
        worker.setDaemon(true);
        worker.start();
        return this;
    }

    public boolean isReady() {
        return running && synced && view.isReady() && worker.isAlive();
    }

    /** Objects deleted and updated (owner references, finalizers) by accepted steps so far. */
    public long deletions() {
        return deleted.get();
    }

    public long updates() {
        return updated.get();
    }

    // ---- the view's thread: keep the owner graph and note which keys to look at

    private void onChange(ObjectChanged change) {
        String key = Keys.of(change.getKind(), change.getNamespace(), change.getName());
        String uid = change.getUid();
        boolean gone = change.getType() == ChangeType.DELETED;
        Set<String> before = ownersByKey.getOrDefault(key, Set.of());
        Set<String> after = gone ? Set.of() : GarbageCollectorDecider.ownerUids(change);
        if (!before.equals(after)) {
            for (String o : before) {
                if (!after.contains(o)) {
                    dependentsByOwner.computeIfPresent(o, (k, s) -> {
                        s.remove(key);
                        return s.isEmpty() ? null : s;
                    });
                }
            }
            for (String o : after) {
                dependentsByOwner.computeIfAbsent(o, k -> ConcurrentHashMap.newKeySet()).add(key);
            }
        }
        if (after.isEmpty()) {
            ownersByKey.remove(key);
        } else {
            ownersByKey.put(key, after);
        }
        if (gone) {
            keyByUid.remove(uid, key);
        } else if (uid != null) {
            keyByUid.put(uid, key);
        }
        if (!synced) {
            return; // the worker's first pass looks at everything
        }
        ObjectMeta meta = GarbageCollectorDecider.meta(change);
        if (!gone && (!after.isEmpty() || meta.getDeletionTimestamp() != null)) {
            queue.add(key);
        }
        // Owners whose foreground or orphan deletion waits on this dependent.
        for (String o : before) {
            enqueueUid(o);
        }
        for (String o : after) {
            enqueueUid(o);
        }
        // Dependents of an owner that went away or started its deletion.
        if (gone || meta.getDeletionTimestamp() != null) {
            for (String d : dependentsByOwner.getOrDefault(uid, Set.of())) {
                queue.add(d);
            }
        }
    }

    private void enqueueUid(String uid) {
        String k = keyByUid.get(uid);
        if (k != null) {
            queue.add(k);
        }
    }

    // ---- the owner graph the decider reads

    private final OwnerGraph graph = new OwnerGraph() {
        @Override
        public Optional<ObjectChanged> get(String kind, String namespace, String name) {
            return view.get(kind, namespace, name);
        }

        @Override
        public Optional<ObjectChanged> byUid(String uid) {
            String key = keyByUid.get(uid);
            return key == null ? Optional.empty() : view.get(key).filter(c -> uid.equals(c.getUid()));
        }

        @Override
        public Collection<ObjectChanged> dependents(String ownerUid) {
            List<ObjectChanged> out = new ArrayList<>();
            for (String key : dependentsByOwner.getOrDefault(ownerUid, Set.of())) {
                view.get(key).ifPresent(out::add);
            }
            return out;
        }
    };

    // ---- the worker

    private void run() {
        try {
            clients.awaitViewReady(() -> running);
            synced = true;
            int queued = 0;
            for (String key : List.copyOf(ownersByKey.keySet())) {
                queue.add(key);
                queued++;
            }
            for (String key : List.copyOf(keyByUid.values())) {
                Optional<ObjectChanged> c = view.get(key);
                if (c.isPresent() && GarbageCollectorDecider.meta(c.get()).getDeletionTimestamp() != null) {
                    queue.add(key);
                    queued++;
                }
            }
            LOG.info("{}: ready; {} object(s) with owners or being deleted queued", actor, queued);
            while (running) {
                List<String> batch = queue.take(BATCH, Duration.ofSeconds(1));
                if (batch.isEmpty()) {
                    continue;
                }
                try {
                    clients.catchUp(Duration.ofSeconds(30));
                } catch (TimeoutException e) {
                    LOG.warn("{}: {}; trying the batch again later", actor, e.getMessage());
                    batch.forEach(k -> {
                        queue.done(k);
                        queue.addRateLimited(k);
                    });
                    continue;
                }
                for (String key : batch) {
                    try {
                        view.get(key).ifPresent(item -> {
                            for (GcAction action : decider.decide(item, graph)) {
                                execute(key, action);
                            }
                        });
                    } catch (RuntimeException e) {
                        LOG.warn("{}: deciding {} failed: {}", actor, key, e.toString(), e);
                        queue.addRateLimited(key);
                    } finally {
                        queue.done(key);
                    }
                }
            }
        } catch (InterruptedException | org.apache.kafka.common.errors.InterruptException e) {
            Thread.currentThread().interrupt(); // closing
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("{}: garbage collector worker stopped: {}", actor, e.toString(), e);
            }
        }
    }

    private void execute(String decidedKey, GcAction action) {
        if (action instanceof GcAction.Warn w) {
            SpecificRecord object = (SpecificRecord) w.item().getObject();
            if (warned.add(w.item().getUid() + "/" + w.reason() + "/" + w.message())) {
                LOG.info("{}: {} {}: {}", actor, w.reason(), decidedKey, w.message());
                clients.recorder().record(EventNotice.warning(ObjectReferences.of(object), w.reason(), w.message()));
            }
            return;
        }
        ObjectChanged item = action.item();
        String itemKey = Keys.of(item.getKind(), item.getNamespace(), item.getName());
        String flight = itemKey + "@" + item.getResourceVersion();
        if (!inFlight.add(flight)) {
            return;
        }
        Command command;
        if (action instanceof GcAction.Delete d) {
            command = commands.deleteWith(Kinds.of(item.getKind()), item.getNamespace(), item.getName(),
                    Preconditions.newBuilder().setUid(item.getUid())
                            .setResourceVersion(Long.toString(item.getResourceVersion())).build(),
                    DeleteOptions.newBuilder().setPropagationPolicy(d.propagationPolicy()).build());
            LOG.debug("{}: delete {} ({})", actor, itemKey, d.propagationPolicy());
        } else {
            command = commands.update(GarbageCollectorDecider.updated(action));
            LOG.debug("{}: {} on {}", actor, action.getClass().getSimpleName(), itemKey);
        }
        clients.requests().submit(command, VERDICT_TIMEOUT).whenComplete((Requests.Result r, Throwable e) -> {
            inFlight.remove(flight);
            if (e != null) {
                LOG.warn("{}: {} of {} got no verdict: {}", actor, action.getClass().getSimpleName(), itemKey, e.toString());
                queue.addRateLimited(decidedKey);
            } else if (!r.accepted()) {
                if (r.outcome().getCode() != 404) {
                    LOG.debug("{}: {} of {} rejected: {}", actor, action.getClass().getSimpleName(), itemKey,
                            r.outcome().getMessage());
                    queue.addRateLimited(decidedKey);
                }
            } else {
                (action instanceof GcAction.Delete ? deleted : updated).incrementAndGet();
                queue.forget(decidedKey);
            }
        });
    }

    @Override
    public void close() {
        running = false;
        queue.close();
        if (worker != null) {
            worker.interrupt();
            try {
                worker.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (clients != null) {
            clients.close();
        }
        LOG.info("{}: stopped after {} deletion(s) and {} update(s)", actor, deleted.get(), updated.get());
    }
}
