package io.eventplane.client.log;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.log.SnapshotManifest;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes a snapshot whenever enough of the log has accumulated since the last one, so time travel and audit never fold
 * more than about {@code everyChanges} changes after loading a snapshot. Each round starts from the newest snapshot,
 * folds the log to its end and writes a new snapshot if at least {@code everyChanges} changes were folded; between
 * rounds it holds nothing in memory.
 */
public final class SnapshotService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotService.class);
    private final EventplaneConfig config;
    private final SnapshotStore store;
    private final long everyChanges;
    private final Duration interval;
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(10);
    private volatile boolean closed;
    private final Object wake = new Object();
    private Thread thread;

    public SnapshotService(EventplaneConfig config, long everyChanges, Duration interval) {
        this.config = config;
        this.store = new SnapshotStore(config);
        this.everyChanges = everyChanges;
        this.interval = interval;
    }

    /** From {@code EVENTPLANE_SNAPSHOT_EVERY} (changes, default 100000) and {@code EVENTPLANE_SNAPSHOT_CHECK_SECONDS} (60). */
    public static SnapshotService fromEnvironment(EventplaneConfig config) {
        return new SnapshotService(config,
                Long.parseLong(EventplaneConfig.setting("EVENTPLANE_SNAPSHOT_EVERY", "100000")),
                Duration.ofSeconds(Long.parseLong(EventplaneConfig.setting("EVENTPLANE_SNAPSHOT_CHECK_SECONDS", "60"))));
    }

    public SnapshotService start() {
        thread = new Thread(this::loop, "snapshots");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    /** One round; returns the snapshot written, if one was due. */
    public Optional<SnapshotManifest> round(long minimumChanges) {
        StateFold fold = store.latest().map(SnapshotStore.Loaded::fold).orElseGet(() -> new StateFold(config.partitions()));
        TimeTravel.foldInto(config, fold, c -> !closed);
        if (closed || fold.applied() < Math.max(1, minimumChanges)) {
            return Optional.empty();
        }
        SnapshotManifest m = store.write(fold);
        LOG.info("snapshot {}: {} objects, {} chunks, {} changes since the previous one", m.getSnapshotId(),
                m.getObjects(), m.getChunks(), fold.applied());
        return Optional.of(m);
    }

    private void loop() {
        while (!closed) {
            try {
                synchronized (wake) {
                    if (!closed) {
                        wake.wait(interval.toMillis());
                    }
                }
                if (!closed) {
                    round(everyChanges);
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.warn("snapshot round failed (will retry in {} s): {}", interval.toSeconds(), e.toString());
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        if (thread != null) {
            // woken, not interrupted: a round in progress ends at its next step (the fold checks closed), and
            // interrupting its producer's close made Kafka log a stack trace at every shutdown
            synchronized (wake) {
                wake.notifyAll();
            }
            try {
                thread.join(CLOSE_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            thread.interrupt();
        }
    }
}
