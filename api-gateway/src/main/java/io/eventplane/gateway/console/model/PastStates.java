package io.eventplane.gateway.console.model;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.RawChange;
import io.eventplane.client.log.SnapshotStore;
import io.eventplane.client.log.StateFold;
import io.eventplane.client.log.TimeTravel;
import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.SnapshotManifest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster at moments in the past, rebuilt from the log: the nearest snapshot, the log folded forward to the moment,
 * every object decoded once into rows. One state is kept (a 150,000-pod state holds a few hundred MB): asking again for
 * its moment is immediate, and asking for a later moment folds the kept state forward by the changes in between,
 * which is what makes playing back a time range cheap. Moving backwards rebuilds.
 */
public final class PastStates {
    private static final Logger LOG = LoggerFactory.getLogger(PastStates.class);
    private final EventplaneConfig config;
    private final TimeTravel travel;
    private final SnapshotStore snapshots;
    private final ThreadLocal<Deserializer<ObjectChanged>> decoders;
    private final Supplier<ClusterRows> live;
    private PastState kept;

    /**
     * @param live the live rows when they are built (else null): objects unchanged since the moment are taken from
     *             them instead of being decoded again, which is most objects in most clusters
     */
    public PastStates(EventplaneConfig config, Supplier<ClusterRows> live) {
        this.config = config;
        this.live = live;
        this.snapshots = new SnapshotStore(config);
        this.travel = new TimeTravel(config, snapshots);
        this.decoders = ThreadLocal.withInitial(() -> LogSerdes.changes(config).deserializer());
    }

    /** The state as of {@code moment}: every change whose time is at or before it. */
    public synchronized ClusterState at(Instant moment) {
        if (kept != null && kept.moment != null && kept.moment.equals(moment)) {
            return kept;
        }
        if (kept != null && kept.moment != null && kept.moment.isBefore(moment) && !snapshotBetter(kept, moment)) {
            long t0 = System.nanoTime();
            long folded = forward(kept, moment);
            kept = new PastState(moment, null, kept.fold, kept.rows);
            LOG.info("console: state folded forward to {} in {} ms ({} changes)", moment,
                    (System.nanoTime() - t0) / 1_000_000, folded);
            return kept;
        }
        kept = rebuild(TimeTravel.Target.at(moment), moment, null);
        return kept;
    }

    /** The state at a log position (a resourceVersion). */
    public synchronized ClusterState atPosition(long[] position) {
        if (kept != null && kept.position != null && java.util.Arrays.equals(kept.position, position)) {
            return kept;
        }
        kept = rebuild(TimeTravel.Target.atPosition(position), null, position);
        return kept;
    }

    /** Folding forward beats a rebuild unless a snapshot lies after the kept state and before the moment. */
    private boolean snapshotBetter(PastState state, Instant moment) {
        try {
            for (SnapshotManifest m : snapshots.manifests()) {
                if (m.getTime().isAfter(state.fold.latestTime()) && !m.getTime().isAfter(moment)
                        && positionAhead(m, state.fold.positions())) {
                    return true;
                }
            }
        } catch (RuntimeException e) {
            LOG.debug("console: cannot list snapshots: {}", e.toString());
        }
        return false;
    }

    /** A snapshot worth loading instead of folding: more than 100,000 changes ahead in total. */
    private static boolean positionAhead(SnapshotManifest m, long[] positions) {
        long ahead = 0;
        for (int p = 0; p < positions.length && p < m.getPositions().size(); p++) {
            ahead += Math.max(0, m.getPositions().get(p) - positions[p]) / Math.max(1, positions.length);
        }
        return ahead > 100_000;
    }

    private PastState rebuild(TimeTravel.Target target, Instant moment, long[] position) {
        long t0 = System.nanoTime();
        TimeTravel.Result result = travel.rebuild(target, LogReader.Progress.NONE);
        long t1 = System.nanoTime();
        ClusterRows rows = new ClusterRows();
        List<RawChange> all = new ArrayList<>(result.fold().raw());
        ClusterRows now = live.get();
        AtomicLong decoded = new AtomicLong();
        // Distinct keys: rows can be filled from both cores at once (decoding is most of the cost).
        all.parallelStream().forEach(raw -> {
            if (!shared(rows, now, raw)) {
                rows.apply(decode(raw));
                decoded.incrementAndGet();
            }
        });
        LOG.info("console: state as of {} rebuilt in {} ms (log {} ms, {} changes folded from snapshot {}; "
                        + "{} objects, {} decoded, the others unchanged since and shared with the live state; {} ms)",
                moment != null ? moment : ResourceVersions.encode(position), (System.nanoTime() - t0) / 1_000_000,
                (t1 - t0) / 1_000_000, result.changesRead(), result.snapshotId() == null ? "none" : result.snapshotId(),
                all.size(), decoded.get(), (System.nanoTime() - t1) / 1_000_000);
        return new PastState(moment, position, result.fold(), rows);
    }

    private long forward(PastState state, Instant moment) {
        synchronized (state.fold) {
            return TimeTravel.foldInto(config, state.fold, raw -> {
                if (raw.time().isAfter(moment)) {
                    return false;
                }
                if (!shared(state.rows, live.get(), raw)) {
                    state.rows.apply(decode(raw));
                }
                return true;
            });
        }
    }

    private static boolean shared(ClusterRows rows, ClusterRows now, RawChange raw) {
        return now != null && raw.type() != io.eventplane.log.ChangeType.DELETED
                && rows.copy(now, Keys.of(raw.kind(), raw.namespace(), raw.name()), raw.resourceVersion(), raw.time());
    }

    private ObjectChanged decode(RawChange raw) {
        // Not raw.decode(): that keeps the decoded object in the fold, doubling what a past state holds.
        return decoders.get().deserialize(config.topics().events(), raw.wire());
    }

    private static final class PastState implements ClusterState {
        final Instant moment;
        final long[] position;
        final StateFold fold;
        final ClusterRows rows;

        PastState(Instant moment, long[] position, StateFold fold, ClusterRows rows) {
            this.moment = moment;
            this.position = position;
            this.fold = fold;
            this.rows = rows;
        }

        @Override
        public ClusterRows rows() {
            return rows;
        }

        @Override
        public boolean live() {
            return false;
        }

        @Override
        public Instant time() {
            return moment != null ? moment : fold.latestTime();
        }

        @Override
        public String resourceVersion() {
            return ResourceVersions.encode(fold.positions());
        }

        @Override
        public Optional<ObjectChanged> object(String key) {
            synchronized (fold) {
                return Optional.ofNullable(fold.get(key));
            }
        }
    }
}
