package io.eventplane.reconcile;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Quorum reads for controllers, without writing anything:
 * <ul>
 * <li>{@link #catchUp}: the view has applied every change committed to the event log before the call (its
 * read_committed end offsets);</li>
 * <li>{@link #await}: first, the writer has decided every command appended to the command log before the call: its
 * consumer group (the Streams application, whose offsets commit in the same transaction as the changes) has committed
 * past the command log's end as of the call; then {@link #catchUp}. A renewal stuck behind a writer backlog is then
 * not mistaken for a missed renewal.</li>
 * </ul>
 */
final class WriterBarrier implements AutoCloseable {
    private static final long FIRST_POLL_MILLIS = 2;
    private static final long MAX_POLL_MILLIS = 100;

    private final EventplaneConfig config;
    private final String actor;
    private final ObjectView view;
    private final List<TopicPartition> events = new ArrayList<>();
    private final List<TopicPartition> commands = new ArrayList<>();
    private KafkaConsumer<byte[], byte[]> offsets;
    private Admin admin;

    WriterBarrier(EventplaneConfig config, String actor, ObjectView view) {
        this.config = config;
        this.actor = actor;
        this.view = view;
        for (int p = 0; p < config.partitions(); p++) {
            events.add(new TopicPartition(config.topics().events(), p));
            commands.add(new TopicPartition(config.topics().commands(), p));
        }
    }

    /** Never polled: only asked for the logs' ends (read_committed: the last stable offset). */
    private synchronized KafkaConsumer<byte[], byte[]> offsets() {
        if (offsets == null) {
            Map<String, Object> props = config.kafkaConfig();
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, actor + "-offsets");
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            offsets = new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
            // Assigned (never polled): asked for the end of a partition it does not own, a read_committed consumer
            // logs a warning each time; controllers ask several times a second, so the log would grow without bound.
            List<TopicPartition> all = new ArrayList<>(events);
            all.addAll(commands);
            offsets.assign(all);
        }
        return offsets;
    }

    private synchronized Admin admin() {
        if (admin == null) {
            Map<String, Object> props = new HashMap<>(config.kafkaConfig());
            props.put(AdminClientConfig.CLIENT_ID_CONFIG, actor + "-barrier");
            admin = Admin.create(props);
        }
        return admin;
    }

    synchronized void catchUp(Duration timeout) throws InterruptedException, TimeoutException {
        // Partition by partition: a total could be reached while the view is ahead on one and behind on another.
        Map<TopicPartition, Long> ends = offsets().endOffsets(events);
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Map.Entry<TopicPartition, Long> end : ends.entrySet()) {
            while (view.consumedOffset(end.getKey().partition()) < end.getValue()) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("the view did not reach the log's end within " + timeout);
                }
                Thread.sleep(2);
            }
        }
    }

    synchronized void await(Duration timeout) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<TopicPartition, Long> sent = offsets().endOffsets(commands);
        ListConsumerGroupOffsetsOptions stable = new ListConsumerGroupOffsetsOptions().requireStable(true);
        String group = config.writerGroup();
        long pause = FIRST_POLL_MILLIS;
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> decided;
            try {
                decided = admin().listConsumerGroupOffsets(Map.of(group,
                                new ListConsumerGroupOffsetsSpec().topicPartitions(commands)), stable)
                        .partitionsToOffsetAndMetadata(group).get(Math.max(1, (deadline - System.nanoTime()) / 1_000_000),
                                TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                decided = Map.of(); // e.g. the group is rebalancing: ask again
            }
            if (caughtUp(sent, decided)) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the writer did not decide the commands sent before within "
                        + timeout.toSeconds() + " s (a backlog of commands)");
            }
            Thread.sleep(pause);
            pause = Math.min(MAX_POLL_MILLIS, pause * 2);
        }
        catchUp(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
    }

    private static boolean caughtUp(Map<TopicPartition, Long> sent, Map<TopicPartition, OffsetAndMetadata> decided) {
        for (Map.Entry<TopicPartition, Long> e : sent.entrySet()) {
            OffsetAndMetadata d = decided.get(e.getKey());
            long at = d == null ? 0 : d.offset();
            if (at < e.getValue()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public synchronized void close() {
        if (offsets != null) {
            offsets.close();
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(2));
        }
    }
}
