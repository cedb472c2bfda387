package io.eventplane.topology;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.processor.StateRestoreListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs the restoration of the writer's store from its changelog: where it starts and ends, progress every 5 s, and how
 * long it took. A writer killed under exactly-once loses its local state (TaskCorruptedException: no checkpoint) and
 * restores it whole before it decides anything, so this is the time a restarted writer is not yet serving.
 */
final class RestoreProgress implements StateRestoreListener {
    private static final Logger LOG = LoggerFactory.getLogger(RestoreProgress.class);
    private static final long REPORT_EVERY_NANOS = 5_000_000_000L;

    private record Restore(long start, long end, long startedNanos, long[] restored, long[] reportedNanos) {
    }

    private final Map<TopicPartition, Restore> running = new ConcurrentHashMap<>();

    /** Store partitions being restored right now. */
    int inProgress() {
        return running.size();
    }

    @Override
    public void onRestoreStart(TopicPartition partition, String store, long startingOffset, long endingOffset) {
        if (endingOffset <= startingOffset) {
            return; // nothing to restore (a new store, or one whose checkpoint is current): not worth a word
        }
        long now = System.nanoTime();
        running.put(partition, new Restore(startingOffset, endingOffset, now, new long[1], new long[] {now}));
        LOG.info("writer: restoring store {} from {} offsets {}..{} ({} records at most)", store, partition,
                startingOffset, endingOffset, endingOffset - startingOffset);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String store, long batchEndOffset, long numRestored) {
        Restore r = running.get(partition);
        if (r == null) {
            return;
        }
        r.restored()[0] += numRestored;
        long now = System.nanoTime();
        if (now - r.reportedNanos()[0] > REPORT_EVERY_NANOS) {
            r.reportedNanos()[0] = now;
            LOG.info("writer: restoring {}: at offset {} of {} ({} records in {} s)", partition, batchEndOffset,
                    r.end(), r.restored()[0], (now - r.startedNanos()) / 1_000_000_000L);
        }
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String store, long totalRestored) {
        Restore r = running.remove(partition);
        if (r == null) {
            return;
        }
        long ms = (System.nanoTime() - r.startedNanos()) / 1_000_000;
        LOG.info("writer: restored store {} from {}: {} records in {} ms", store, partition, totalRestored, ms);
    }

    @Override
    public void onRestoreSuspended(TopicPartition partition, String store, long totalRestored) {
        running.remove(partition);
        LOG.info("writer: restoring {} suspended after {} records (the task moved)", partition, totalRestored);
    }
}
