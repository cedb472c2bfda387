package io.eventplane.client;

import io.eventplane.core.Keys;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/**
 * The current objects and their secondary indexes, evolved by applying changes in log order (each change carries the
 * whole object after it, so evolving is "keep the latest; forget the deleted"). Readers may read while one writer
 * applies; {@link ObjectView} feeds it from the log, tests and replays feed it directly.
 */
public final class ObjectStore implements ClusterView {
    private final ConcurrentSkipListMap<String, ObjectChanged> objects = new ConcurrentSkipListMap<>();
    /**
     * The same objects by key, for point reads: a skip list's get compares long keys with shared prefixes some 20
     * times, and the scheduler and node-sim read by key for every pod they look at.
     */
    private final ConcurrentHashMap<String, ObjectChanged> byKey = new ConcurrentHashMap<>();
    private final Map<String, Index> indexes = new ConcurrentHashMap<>();

    /** A secondary index: for one kind, the keys of objects by the value a function extracts (null: not indexed). */
    private record Index(String kind, Function<ObjectChanged, String> value, Map<String, NavigableSet<String>> keys) {
        /** Moves the key from the previous change's value to the new one's; most changes (status) keep the value. */
        void update(String key, ObjectChanged previous, ObjectChanged now) {
            String was = previous == null ? null : value.apply(previous);
            String is = now == null ? null : value.apply(now);
            if (was != null && was.equals(is)) {
                return;
            }
            remove(key, was);
            if (is != null) {
                keys.computeIfAbsent(is, x -> new ConcurrentSkipListSet<>()).add(key);
            }
        }

        private void remove(String key, String v) {
            if (v != null) {
                NavigableSet<String> set = keys.get(v);
                if (set != null) {
                    set.remove(key);
                    if (set.isEmpty()) {
                        keys.remove(v);
                    }
                }
            }
        }
    }

    /** Applies one change; answers the object's previous change (null if it did not exist). */
    public synchronized ObjectChanged apply(ObjectChanged change) {
        String key = Keys.of(change.getKind(), change.getNamespace(), change.getName());
        boolean deleted = change.getType() == ChangeType.DELETED;
        ObjectChanged previous = deleted ? objects.remove(key) : objects.put(key, change);
        if (deleted) {
            byKey.remove(key);
        } else {
            byKey.put(key, change);
        }
        for (Index index : indexes.values()) {
            if (index.kind().equals(change.getKind())) {
                index.update(key, previous, deleted ? null : change);
            }
        }
        return previous;
    }

    @Override
    public synchronized ObjectStore addIndex(String name, String kind, Function<ObjectChanged, String> value) {
        if (!indexes.containsKey(name)) {
            Index index = new Index(kind, value, new ConcurrentHashMap<>());
            for (ObjectChanged c : list(kind, null)) { // a store shared by several services may be filled already
                index.update(Keys.of(c.getKind(), c.getNamespace(), c.getName()), null, c);
            }
            indexes.put(name, index);
        }
        return this;
    }

    @Override
    public boolean hasIndex(String name) {
        return indexes.containsKey(name);
    }

    /** The keys an index holds under {@code value}, in key order, and the index's kind; null when there is no index. */
    Map.Entry<String, NavigableSet<String>> indexedKeys(String index, String value) {
        Index idx = indexes.get(index);
        return idx == null ? null : Map.entry(idx.kind(), idx.keys().getOrDefault(value, Collections.emptyNavigableSet()));
    }

    @Override
    public List<ObjectChanged> indexed(String index, String value) {
        Index idx = indexes.get(index);
        if (idx == null) {
            return List.of();
        }
        List<ObjectChanged> out = new ArrayList<>();
        for (String key : idx.keys().getOrDefault(value, Collections.emptyNavigableSet())) {
            ObjectChanged c = byKey.get(key);
            if (c != null) {
                out.add(c);
            }
        }
        return out;
    }

    @Override
    public Optional<ObjectChanged> get(String key) {
        return Optional.ofNullable(byKey.get(key));
    }

    @Override
    public Collection<ObjectChanged> list(String kind, String namespace) {
        String prefix = Keys.prefix(kind, namespace);
        return objects.subMap(prefix, prefix + Character.MAX_VALUE).values();
    }

    @Override
    public Collection<ObjectChanged> listByNamePrefix(String kind, String namespace, String namePrefix) {
        String prefix = Keys.prefix(kind, namespace) + namePrefix;
        return objects.subMap(prefix, prefix + Character.MAX_VALUE).values();
    }

    /**
     * A store holding exactly these objects, as if each had just been created (resourceVersions 1, 2, ... in the order
     * given; an object without uid gets one): what a decision test reads.
     */
    public static ObjectStore of(Collection<? extends SpecificRecord> objects) {
        ObjectStore store = new ObjectStore();
        long position = 0;
        for (SpecificRecord o : objects) {
            position++;
            KindInfo kind = Kinds.of(o);
            ObjectMeta meta = ObjectAccess.meta(o);
            store.apply(ObjectChanged.newBuilder()
                    .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("created-" + position)
                            .setTime(Instant.EPOCH).build())
                    .setType(ChangeType.CREATED).setKind(kind.kind())
                    .setNamespace(kind.namespaced() && meta.getNamespace() != null ? meta.getNamespace() : "")
                    .setName(meta.getName()).setUid(meta.getUid() == null ? "uid-" + position : meta.getUid())
                    .setResourceVersion(position).setObject(o).build());
        }
        return store;
    }

    /** Every object of every kind, in key order. */
    public Collection<ObjectChanged> all() {
        return objects.values();
    }

    public int size() {
        return objects.size();
    }
}
