package io.eventplane.gateway.console.model;

import io.eventplane.core.Keys;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Event;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;

/**
 * The cluster as the console reads it: rows for pods, nodes, workloads and events, a reference for every object, and
 * the indexes behind owner/dependent links and an object's events. Fed change by change, in any order of keys (a
 * change older than the row it would replace is ignored), by one writer at a time: the live view's listener, or a
 * fold of the log for a moment in the past. Readers run concurrently and see each row whole.
 */
public final class ClusterRows {
    /** The kinds the workloads view shows. */
    public static java.util.Set<String> workloadKinds() {
        return WorkloadRows.KINDS;
    }

    private final NavigableMap<String, PodRow> pods = new ConcurrentSkipListMap<>();
    private final NavigableMap<String, NodeRow> nodes = new ConcurrentSkipListMap<>();
    private final NavigableMap<String, WorkloadRow> workloads = new ConcurrentSkipListMap<>();
    private final NavigableMap<String, EventRow> events = new ConcurrentSkipListMap<>();
    private final Map<String, ObjectRef> refs = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> dependents = new ConcurrentHashMap<>();
    private final Map<String, Set<String>> eventsByObject = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> countsByKind = new ConcurrentHashMap<>();
    private final NavigableSet<String> namespaces = new ConcurrentSkipListSet<>();
    private final AtomicLong applied = new AtomicLong();
    private volatile Instant latestTime = Instant.EPOCH;

    /** Applies one change of the log (or the latest change of an object, when starting from a state). */
    public void apply(ObjectChanged change) {
        String key = Keys.of(change.getKind(), change.getNamespace(), change.getName());
        ObjectRef old = refs.get(key);
        if (old != null && old.resourceVersion() >= change.getResourceVersion()) {
            return;
        }
        noteTime(change.getEnvelope() == null ? null : change.getEnvelope().getTime());
        applied.incrementAndGet();
        if (change.getType() == ChangeType.DELETED) {
            remove(key, old);
            return;
        }
        SpecificRecord object = (SpecificRecord) change.getObject();
        List<String> owners = new ArrayList<>();
        for (OwnerReference o : PodRows.list(meta(object).getOwnerReferences())) {
            owners.add(o.getUid());
        }
        ObjectRef ref = new ObjectRef(key, change.getKind(), change.getNamespace(), change.getName(), change.getUid(),
                change.getResourceVersion(), List.copyOf(owners));
        long rv = change.getResourceVersion();
        Object row = object instanceof Pod pod ? PodRows.pod(pod, rv)
                : object instanceof Node node ? NodeRows.node(node, rv)
                : object instanceof Event event ? event(key, rv, event)
                : WorkloadRows.KINDS.contains(change.getKind()) ? WorkloadRows.of(object, rv) : null;
        put(ref, old, row);
    }

    /**
     * Takes the object under {@code key} from {@code other} if it is there at {@code resourceVersion}: rows are
     * immutable, so a past state shares the rows of every object that has not changed since, instead of decoding it
     * again. False when {@code other} has another version (or none).
     */
    public boolean copy(ClusterRows other, String key, long resourceVersion, Instant time) {
        ObjectRef ref = other.refs.get(key);
        if (ref == null || ref.resourceVersion() != resourceVersion) {
            return false;
        }
        Object row = switch (ref.kind()) {
            case "Pod" -> other.pods.get(key);
            case "Node" -> other.nodes.get(ref.name());
            case "Event" -> other.events.get(key);
            default -> WorkloadRows.KINDS.contains(ref.kind()) ? other.workloads.get(key) : null;
        };
        if (row != null && rowVersion(row) != resourceVersion || row == null && rowKind(ref.kind())) {
            return false; // the other state moved on between the two reads
        }
        ObjectRef old = refs.get(key);
        if (old != null && old.resourceVersion() >= resourceVersion) {
            return true;
        }
        noteTime(time);
        applied.incrementAndGet();
        put(ref, old, row);
        return true;
    }

    private static boolean rowKind(String kind) {
        return kind.equals("Pod") || kind.equals("Node") || kind.equals("Event") || WorkloadRows.KINDS.contains(kind);
    }

    private static long rowVersion(Object row) {
        if (row instanceof PodRow p) {
            return p.resourceVersion();
        } else if (row instanceof NodeRow n) {
            return n.resourceVersion();
        } else if (row instanceof EventRow e) {
            return e.resourceVersion();
        }
        return ((WorkloadRow) row).resourceVersion();
    }

    private void noteTime(Instant time) {
        if (time != null && time.isAfter(latestTime)) {
            latestTime = time;
        }
    }

    /** Puts an object's reference and row (null for kinds without one), replacing {@code old} in every index. */
    private void put(ObjectRef ref, ObjectRef old, Object row) {
        String key = ref.key();
        if (old == null) {
            countsByKind.computeIfAbsent(ref.kind(), k -> new AtomicInteger()).incrementAndGet();
        } else {
            old.ownerUids().forEach(uid -> unindex(dependents, uid, key));
        }
        refs.put(key, ref);
        ref.ownerUids().forEach(uid -> dependents.computeIfAbsent(uid, u -> ConcurrentHashMap.newKeySet()).add(key));
        if (row instanceof PodRow p) {
            pods.put(key, p);
        } else if (row instanceof NodeRow n) {
            nodes.put(ref.name(), n);
        } else if (row instanceof EventRow e) {
            EventRow previous = events.put(key, e);
            if (previous != null && previous.objectUid() != null) {
                unindex(eventsByObject, previous.objectUid(), key);
            }
            if (e.objectUid() != null) {
                eventsByObject.computeIfAbsent(e.objectUid(), u -> ConcurrentHashMap.newKeySet()).add(key);
            }
        } else if (row instanceof WorkloadRow w) {
            workloads.put(key, w);
        } else if (ref.kind().equals("Namespace")) {
            namespaces.add(ref.name());
        }
    }

    private void remove(String key, ObjectRef old) {
        if (old == null) {
            return;
        }
        refs.remove(key);
        countsByKind.computeIfAbsent(old.kind(), k -> new AtomicInteger()).decrementAndGet();
        old.ownerUids().forEach(uid -> unindex(dependents, uid, key));
        switch (old.kind()) {
            case "Pod" -> pods.remove(key);
            case "Node" -> nodes.remove(old.name());
            case "Namespace" -> namespaces.remove(old.name());
            case "Event" -> {
                EventRow row = events.remove(key);
                if (row != null && row.objectUid() != null) {
                    unindex(eventsByObject, row.objectUid(), key);
                }
            }
            default -> workloads.remove(key);
        }
    }

    private static void unindex(Map<String, Set<String>> index, String value, String key) {
        index.computeIfPresent(value, (v, keys) -> {
            keys.remove(key);
            return keys.isEmpty() ? null : keys;
        });
    }

    private static EventRow event(String key, long rv, Event e) {
        ObjectMeta meta = e.getMetadata() == null ? new ObjectMeta() : e.getMetadata();
        ObjectReference o = e.getInvolvedObject() == null ? new ObjectReference() : e.getInvolvedObject();
        long last = e.getLastTimestamp() != null ? e.getLastTimestamp().toEpochMilli()
                : e.getEventTime() != null ? e.getEventTime().toEpochMilli()
                : e.getSeries() != null && e.getSeries().getLastObservedTime() != null
                ? e.getSeries().getLastObservedTime().toEpochMilli() : PodRows.millis(meta.getCreationTimestamp());
        int count = e.getSeries() != null && e.getSeries().getCount() != null ? e.getSeries().getCount()
                : e.getCount() == null ? 1 : e.getCount();
        String source = e.getReportingComponent() != null && !e.getReportingComponent().isEmpty()
                ? e.getReportingComponent() : e.getSource() == null ? null : e.getSource().getComponent();
        return new EventRow(key, rv, meta.getNamespace(), meta.getName(), e.getType(), e.getReason(), e.getMessage(),
                o.getKind(), o.getNamespace(), o.getName(), o.getUid(), count, last, source);
    }

    private static ObjectMeta meta(SpecificRecord object) {
        Object m = object.getSchema().getField("metadata") == null ? null
                : object.get(object.getSchema().getField("metadata").pos());
        return m instanceof ObjectMeta om ? om : new ObjectMeta();
    }

    public Collection<PodRow> pods() {
        return pods.values();
    }

    /** The pods of one namespace, in name order. */
    public Collection<PodRow> pods(String namespace) {
        String prefix = Keys.prefix("Pod", namespace);
        return pods.subMap(prefix, prefix + Character.MAX_VALUE).values();
    }

    public Collection<NodeRow> nodes() {
        return nodes.values();
    }

    public NodeRow node(String name) {
        return nodes.get(name);
    }

    public Collection<WorkloadRow> workloads() {
        return workloads.values();
    }

    public Collection<EventRow> events() {
        return events.values();
    }

    public ObjectRef ref(String key) {
        return refs.get(key);
    }

    /** The objects that name {@code uid} among their owners. */
    public List<ObjectRef> dependentsOf(String uid) {
        List<ObjectRef> out = new ArrayList<>();
        for (String key : dependents.getOrDefault(uid, Set.of())) {
            ObjectRef r = refs.get(key);
            if (r != null) {
                out.add(r);
            }
        }
        out.sort((a, b) -> a.key().compareTo(b.key()));
        return out;
    }

    /** The events about the object with {@code uid}, newest first. */
    public List<EventRow> eventsAbout(String uid) {
        List<EventRow> out = new ArrayList<>();
        for (String key : eventsByObject.getOrDefault(uid, Set.of())) {
            EventRow e = events.get(key);
            if (e != null) {
                out.add(e);
            }
        }
        out.sort((a, b) -> Long.compare(b.lastSeen(), a.lastSeen()));
        return out;
    }

    /** How many objects of each kind there are. */
    public Map<String, Integer> countsByKind() {
        Map<String, Integer> out = new java.util.TreeMap<>();
        countsByKind.forEach((k, v) -> {
            if (v.get() > 0) {
                out.put(k, v.get());
            }
        });
        return out;
    }

    public NavigableSet<String> namespaces() {
        return namespaces;
    }

    /** Changes applied so far: a version number of this state (answers computed from it can be kept until it moves). */
    public long applied() {
        return applied.get();
    }

    /** The latest envelope time among the changes applied. */
    public Instant latestTime() {
        return latestTime;
    }
}
