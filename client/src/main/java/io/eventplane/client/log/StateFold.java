package io.eventplane.client.log;

import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import java.time.Instant;
import java.util.Collection;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * The reducer every materialized state is: the latest change of each key, a deletion removing it. Deterministic by
 * construction (no clock, no randomness, nothing but the changes in log order), so folding the same log twice gives
 * the same state and the same {@link StateDigest}.
 *
 * <p>Besides the state it tracks where it is: per partition, the resourceVersion of the last change folded (the
 * state's resourceVersion) and the next offset of the events topic to read, so a fold can be saved as a snapshot and
 * continued later.
 */
public final class StateFold {
    private final NavigableMap<String, ObjectChanged> objects = new TreeMap<>();
    private final long[] positions;
    private final long[] nextOffsets;
    private Instant latestTime = Instant.EPOCH;
    private long applied;

    public StateFold(int partitions) {
        this.positions = new long[partitions];
        this.nextOffsets = new long[partitions];
    }

    /** Continues from a snapshot: its objects, at its position. */
    public StateFold(Collection<ObjectChanged> objects, long[] positions, long[] nextOffsets, Instant time) {
        this.positions = ResourceVersions.copy(positions);
        this.nextOffsets = ResourceVersions.copy(nextOffsets);
        this.latestTime = time;
        objects.forEach(c -> this.objects.put(key(c), c));
    }

    /** Folds the change read at {@code offset} of {@code partition} of the events topic. */
    public void apply(ObjectChanged change, int partition, long offset) {
        nextOffsets[partition] = Math.max(nextOffsets[partition], offset + 1);
        int p = ResourceVersions.partition(change.getResourceVersion(), positions.length);
        if (change.getResourceVersion() <= positions[p]) {
            return; // already folded
        }
        if (change.getType() == ChangeType.DELETED) {
            objects.remove(key(change));
        } else {
            objects.put(key(change), change);
        }
        positions[p] = change.getResourceVersion();
        if (change.getEnvelope().getTime().isAfter(latestTime)) {
            latestTime = change.getEnvelope().getTime();
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

    public NavigableMap<String, ObjectChanged> objects() {
        return objects;
    }

    /** Changes folded since this fold was created (not counting a snapshot it started from). */
    public long applied() {
        return applied;
    }

    public String digest() {
        return StateDigest.of(objects.values());
    }

    private static String key(ObjectChanged c) {
        return Keys.of(c.getKind(), c.getNamespace(), c.getName());
    }
}
