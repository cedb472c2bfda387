package io.eventplane.client.log;

import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The reducer every materialized state is: the latest change of each key, a deletion removing it. Deterministic by
 * construction (no clock, no randomness, nothing but the changes in log order), so folding the same log twice gives
 * the same state and the same {@link StateDigest}.
 *
 * <p>Besides the state it tracks where it is: per partition, the resourceVersion of the last change folded (the
 * state's resourceVersion) and the next offset of the events topic to read, so a fold can be saved as a snapshot and
 * continued later. Objects are kept as {@link RawChange}s and decoded only when read.
 */
public final class StateFold {
    private final NavigableMap<String, RawChange> objects = new TreeMap<>();
    private final long[] positions;
    private final long[] nextOffsets;
    private Instant latestTime = Instant.EPOCH;
    private long applied;

    public StateFold(int partitions) {
        this.positions = new long[partitions];
        this.nextOffsets = new long[partitions];
    }

    /** Continues from a snapshot: its objects, at its position. */
    public StateFold(Collection<RawChange> objects, long[] positions, long[] nextOffsets, Instant time) {
        this.positions = ResourceVersions.copy(positions);
        this.nextOffsets = ResourceVersions.copy(nextOffsets);
        this.latestTime = time;
        objects.forEach(c -> this.objects.put(key(c), c));
    }

    /** Folds the change read at {@code offset} of {@code partition} of the events topic. */
    public void apply(RawChange change, int partition, long offset) {
        nextOffsets[partition] = Math.max(nextOffsets[partition], offset + 1);
        int p = ResourceVersions.partition(change.resourceVersion(), positions.length);
        if (change.resourceVersion() <= positions[p]) {
            return; // already folded
        }
        if (change.type() == ChangeType.DELETED) {
            objects.remove(key(change));
        } else {
            objects.put(key(change), change);
        }
        positions[p] = change.resourceVersion();
        if (change.time().isAfter(latestTime)) {
            latestTime = change.time();
        }
        applied++;
    }

    /** Per partition, the resourceVersion of the last change folded: the state's resourceVersion. */
    public long[] positions() {
        return ResourceVersions.copy(positions);
    }

    /** Per partition, the next offset of the events topic to fold. */
    public long[] nextOffsets() {
        return ResourceVersions.copy(nextOffsets);
    }

    /** The latest envelope time of the changes folded (the epoch for an empty fold). */
    public Instant latestTime() {
        return latestTime;
    }

    /** The object under {@code key}, decoded, or null. */
    public ObjectChanged get(String key) {
        RawChange c = objects.get(key);
        return c == null ? null : c.decode();
    }

    /** The objects whose keys start with {@code prefix} (see {@link Keys#prefix}), in key order, decoded. */
    public List<ObjectChanged> range(String prefix) {
        List<ObjectChanged> out = new ArrayList<>();
        for (RawChange c : objects.subMap(prefix, prefix + Character.MAX_VALUE).values()) {
            out.add(c.decode());
        }
        return out;
    }

    /** Every object, undecoded, in key order. */
    public Collection<RawChange> raw() {
        return objects.values();
    }

    public int size() {
        return objects.size();
    }

    /** Changes folded since this fold was created (not counting a snapshot it started from). */
    public long applied() {
        return applied;
    }

    /** The digest of the state (each object decoded for it, not kept). */
    public String digest() {
        StateDigest d = new StateDigest();
        for (Map.Entry<String, RawChange> e : objects.entrySet()) {
            d.add(e.getKey(), e.getValue());
        }
        return d.finish();
    }

    private static String key(RawChange c) {
        return Keys.of(c.kind(), c.namespace(), c.name());
    }
}
