package io.eventplane.client.log;

import io.eventplane.client.EventplaneConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads a bounded stretch of one topic: every partition from a start (its beginning, or the first record at or after a
 * time) to the end it had when the read began, committed records only. Audit, time travel and replay are built on it;
 * none of them joins a consumer group or commits offsets, so they never disturb the live services.
 *
 * @param <V> the record value type
 */
public final class LogReader<V> {
    /** What a reader does with each record; returning false stops the read of that record's partition. */
    public interface Handler<V> {
        boolean accept(ConsumerRecord<String, V> record);
    }

    /** Called about every 100 ms with how far the read got. */
    public interface Progress {
        void report(long read, long total);

        Progress NONE = (read, total) -> { };
    }

    private final EventplaneConfig config;
    private final String topic;
    private final Deserializer<V> values;
    private Duration timeout = Duration.ofMinutes(10);
    private Progress progress = Progress.NONE;

    public LogReader(EventplaneConfig config, String topic, Deserializer<V> values) {
        this.config = config;
        this.topic = topic;
        this.values = values;
    }

    public LogReader<V> timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    public LogReader<V> progress(Progress progress) {
        this.progress = progress;
        return this;
    }

    /** Reads every partition from its beginning. */
    public long readAll(Handler<V> handler) {
        return read(null, null, handler);
    }

    /** Reads every partition from the first record whose timestamp is at or after {@code fromMillis}. */
    public long readFrom(long fromMillis, Handler<V> handler) {
        return read(fromMillis, null, handler);
    }

    /** Reads every partition from the given offsets (missing partitions from their beginning). */
    public long readFromOffsets(Map<Integer, Long> offsets, Handler<V> handler) {
        return read(null, offsets, handler);
    }

    private long read(Long fromMillis, Map<Integer, Long> fromOffsets, Handler<V> handler) {
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "eventplane-log-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 10_000);
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 16 * 1024 * 1024);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        long count = 0;
        try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(props, new StringDeserializer(), values)) {
            List<TopicPartition> parts = new ArrayList<>();
            consumer.partitionsFor(topic, timeout).forEach(p -> parts.add(new TopicPartition(topic, p.partition())));
            consumer.assign(parts);
            Map<TopicPartition, Long> end = consumer.endOffsets(parts, timeout);
            Map<TopicPartition, Long> start = new HashMap<>(consumer.beginningOffsets(parts, timeout));
            if (fromMillis != null) {
                Map<TopicPartition, Long> query = new HashMap<>();
                parts.forEach(tp -> query.put(tp, fromMillis));
                Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query, timeout);
                for (TopicPartition tp : parts) {
                    OffsetAndTimestamp o = found.get(tp);
                    start.put(tp, o == null ? end.get(tp) : o.offset());
                }
            }
            if (fromOffsets != null) {
                for (TopicPartition tp : parts) {
                    Long o = fromOffsets.get(tp.partition());
                    if (o != null) {
                        start.put(tp, Math.max(start.get(tp), o));
                    }
                }
            }
            long total = 0;
            List<TopicPartition> open = new ArrayList<>();
            for (TopicPartition tp : parts) {
                consumer.seek(tp, start.get(tp));
                if (start.get(tp) < end.get(tp)) {
                    open.add(tp);
                    total += end.get(tp) - start.get(tp);
                }
            }
            consumer.assign(open);
            long deadline = System.nanoTime() + timeout.toNanos();
            long lastReport = 0;
            while (!open.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + topic + " took longer than " + timeout);
                }
                List<TopicPartition> stopped = new ArrayList<>();
                for (ConsumerRecord<String, V> r : consumer.poll(Duration.ofMillis(100))) {
                    TopicPartition tp = new TopicPartition(r.topic(), r.partition());
                    if (stopped.contains(tp) || r.offset() >= end.get(tp)) {
                        continue;
                    }
                    count++;
                    if (!handler.accept(r)) {
                        stopped.add(tp);
                    }
                }
                for (TopicPartition tp : new ArrayList<>(open)) {
                    if (stopped.contains(tp) || consumer.position(tp, timeout) >= end.get(tp)) {
                        open.remove(tp);
                    }
                }
                consumer.assign(open);
                if (System.nanoTime() - lastReport > 100_000_000L) {
                    progress.report(count, total);
                    lastReport = System.nanoTime();
                }
            }
            progress.report(count, total);
        }
        return count;
    }
}
