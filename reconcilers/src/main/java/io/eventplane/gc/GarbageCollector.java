package io.eventplane.gc;

import io.eventplane.client.ClusterView;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * The garbage collector (workloads.md §6) as a {@link Reconciler}: the owner graph is kept from owner references (by
 * owner uid) for every object of every kind, a change queues the object, its owners (old and new) and, when it goes
 * or starts its deletion, its dependents; each key is decided by {@link GarbageCollectorDecider}.
 *
 * <p>Deletion only on positive evidence: before each batch the runtime catches up with the log (quorum reads), so an
 * owner missing from the view is missing from the log (Kubernetes does a live GET), and every command carries the uid
 * and resourceVersion the decision was made on, so the writer rejects a step about an object that changed since. A
 * rejected step puts the key back (with backoff) and it is decided again on fresh state.
 */
public final class GarbageCollector implements Reconciler {
    private final GarbageCollectorDecider decider = new GarbageCollectorDecider();
    private final Map<String, String> keyByUid = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> dependentsByOwner = new ConcurrentHashMap<>();
    /** Warnings already recorded (uid, reason, message): a repeated decision does not repeat them. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    @Override
    public String kind() {
        return "*";
    }

    @Override
    public Options options() {
        return Options.DEFAULTS.withBatch(1024).withQuorumReads().withVerdictTimeout(Duration.ofSeconds(30))
                .withBackoff(Duration.ofMillis(50), Duration.ofSeconds(30));
    }

    // ---- the view's thread: keep the owner graph

    @Override
    public void observe(ObjectChanged change, ObjectChanged previous) {
        String key = key(change);
        boolean gone = change.getType() == ChangeType.DELETED;
        Set<String> before = previous == null ? Set.of() : GarbageCollectorDecider.ownerUids(previous);
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
        String uid = change.getUid();
        if (gone) {
            keyByUid.remove(uid, key);
        } else if (uid != null) {
            keyByUid.put(uid, key);
        }
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        Set<String> keys = new LinkedHashSet<>();
        boolean gone = change.getType() == ChangeType.DELETED;
        Set<String> after = gone ? Set.of() : GarbageCollectorDecider.ownerUids(change);
        ObjectMeta meta = GarbageCollectorDecider.meta(change);
        if (!gone && (!after.isEmpty() || meta.getDeletionTimestamp() != null)) {
            keys.add(key(change));
        }
        // Owners whose foreground or orphan deletion waits on this dependent.
        if (previous != null) {
            GarbageCollectorDecider.ownerUids(previous).forEach(o -> addUid(keys, o));
        }
        after.forEach(o -> addUid(keys, o));
        // Dependents of an owner that went away or started its deletion.
        if (gone || meta.getDeletionTimestamp() != null) {
            keys.addAll(dependentsByOwner.getOrDefault(change.getUid(), Set.of()));
        }
        return keys;
    }

    private void addUid(Set<String> keys, String uid) {
        String k = keyByUid.get(uid);
        if (k != null) {
            keys.add(k);
        }
    }

    /** Everything with owners, and everything being deleted. */
    @Override
    public Collection<String> initialKeys(ClusterView view) {
        Set<String> keys = new LinkedHashSet<>();
        for (Set<String> dependents : dependentsByOwner.values()) {
            keys.addAll(dependents);
        }
        for (String key : keyByUid.values()) {
            view.get(key).filter(c -> GarbageCollectorDecider.meta(c).getDeletionTimestamp() != null)
                    .ifPresent(c -> keys.add(key));
        }
        return keys;
    }

    // ---- the decision

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        Optional<ObjectChanged> item = view.get(key);
        if (item.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        List<Action> actions = new ArrayList<>();
        List<EventNotice> events = new ArrayList<>();
        for (GcAction step : decider.decide(item.get(), graph(view))) {
            if (step instanceof GcAction.Warn w) {
                if (warned.add(w.item().getUid() + "/" + w.reason() + "/" + w.message())) {
                    events.add(EventNotice.warning(ObjectReferences.of((SpecificRecord) w.item().getObject()),
                            w.reason(), w.message()));
                }
            } else {
                actions.add(action(step));
            }
        }
        return new Reconciliation(actions, events, null);
    }

    /** The runtime's command for one of the collector's steps, with the uid and resourceVersion it was decided on. */
    static Action action(GcAction step) {
        ObjectChanged item = step.item();
        if (step instanceof GcAction.Delete d) {
            return new Action.Delete(Kinds.of(item.getKind()), item.getNamespace(), item.getName(), item.getUid(),
                    Long.toString(item.getResourceVersion()), d.propagationPolicy(), null, null, null);
        }
        return new Action.Update(GarbageCollectorDecider.updated(step));
    }

    private OwnerGraph graph(ClusterView view) {
        return new OwnerGraph() {
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
    }

    private static String key(ObjectChanged c) {
        return Keys.of(c.getKind(), c.getNamespace(), c.getName());
    }
}
