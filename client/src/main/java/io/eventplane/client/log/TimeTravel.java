package io.eventplane.client.log;

import io.eventplane.client.EventplaneConfig;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The state of the whole cluster as it was at a moment or at a log position: the nearest snapshot at or before it,
 * then the event log folded forward from the snapshot's offsets up to the moment. Each partition is folded up to its
 * first change after the moment, so the result is always a prefix of the log (a state that really existed).
 */
public final class TimeTravel {
    /** Sees each change before it is folded; false stops the fold of that partition (the change is not folded). */
    public interface Visitor {
        boolean visit(RawChange change);
    }

    /**
     * Where to stop: at a time (inclusive) or at a position vector (inclusive), or at the end of the log. A change's
     * time is kept in milliseconds, so a time includes every change of its millisecond, even one asked for a few
     * microseconds after it.
     */
    public record Target(Instant time, long[] position) {
        public static final Target END = new Target(null, null);

        public static Target at(Instant time) {
            return new Target(time, null);
        }

        public static Target atPosition(long[] position) {
            return new Target(null, position);
        }

        boolean includes(RawChange c) {
            if (time != null) {
                return !c.time().isAfter(time);
            }
            if (position != null) {
                int p = io.eventplane.core.ResourceVersions.partition(c.resourceVersion(), position.length);
                return c.resourceVersion() <= position[p];
            }
            return true;
        }
    }

    /** What a rebuild did: the state, and what it cost. */
    public record Result(StateFold fold, String snapshotId, long changesRead, long millis) {
    }

    private final EventplaneConfig config;
    private final SnapshotStore snapshots;

    public TimeTravel(EventplaneConfig config, SnapshotStore snapshots) {
        this.config = config;
        this.snapshots = snapshots;
    }

    /** Rebuilds the state at {@code target}, starting from the nearest usable snapshot. */
    public Result rebuild(Target target, LogReader.Progress progress) {
        long start = System.nanoTime();
        SnapshotStore.Loaded snapshot = target.time() != null ? snapshots.latestBefore(target.time()).orElse(null)
                : target.position() != null ? snapshots.latestAtOrBefore(target.position()).orElse(null)
                : snapshots.latest().orElse(null);
        StateFold fold = snapshot == null ? new StateFold(config.partitions()) : snapshot.fold();
        long read = foldInto(config, fold, target::includes, progress);
        return new Result(fold, snapshot == null ? null : snapshot.manifest().getSnapshotId(), read,
                (System.nanoTime() - start) / 1_000_000);
    }

    /** Rebuilds the state at {@code target} from the start of the log, ignoring snapshots: what a replay does. */
    public static Result fromScratch(EventplaneConfig config, Target target, LogReader.Progress progress) {
        long start = System.nanoTime();
        StateFold fold = new StateFold(config.partitions());
        long read = foldInto(config, fold, target::includes, progress);
        return new Result(fold, null, read, (System.nanoTime() - start) / 1_000_000);
    }

    /** Folds the events topic into {@code fold} from its next offsets to the end of the log, asking {@code visitor}. */
    public static long foldInto(EventplaneConfig config, StateFold fold, Visitor visitor) {
        return foldInto(config, fold, visitor, LogReader.Progress.NONE);
    }

    static long foldInto(EventplaneConfig config, StateFold fold, Visitor visitor, LogReader.Progress progress) {
        long[] next = fold.nextOffsets();
        Map<Integer, Long> from = new HashMap<>();
        for (int p = 0; p < next.length; p++) {
            from.put(p, next[p]);
        }
        LogCodec codec = new LogCodec(config);
        return new LogReader<>(config, config.topics().events(), new ByteArrayDeserializer())
                .progress(progress)
                .readFromOffsets(from, r -> {
                    if (r.value() == null) {
                        return true;
                    }
                    RawChange c = codec.parse(r.value());
                    if (!visitor.visit(c)) {
                        return false;
                    }
                    fold.apply(c, r.partition(), r.offset());
                    return true;
                });
    }
}
