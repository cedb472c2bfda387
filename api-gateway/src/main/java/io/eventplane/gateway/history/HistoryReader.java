package io.eventplane.gateway.history;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.log.ObjectChanged;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.utils.Utils;

/**
 * The full history of one object, read from the event log itself with a short-lived consumer.
 *
 * <p>Why not keep per-key history in memory: the events topic is kept forever, so the gateway's memory would grow
 * with the log, while history is an occasional audit query. One key's changes all live on the partition its key
 * hashes to (producers and the writer use Kafka's default key partitioning), so a query reads that one partition
 * from its start and keeps the records of that key.
 */
public final class HistoryReader {
    private final EventplaneConfig config;

    public HistoryReader(EventplaneConfig config) {
        this.config = config;
    }

    /** Every change of {@code key}, oldest first, up to the end of the log when the query started. */
    public List<ObjectChanged> read(String key, Duration timeout) {
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "gateway-history-" + UUID.randomUUID());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        TopicPartition tp = new TopicPartition(config.topics().events(), partition(key));
        List<ObjectChanged> out = new ArrayList<>();
        try (KafkaConsumer<String, ObjectChanged> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                LogSerdes.changes(config).deserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long end = consumer.endOffsets(List.of(tp), timeout).get(tp);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (consumer.position(tp, timeout) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading the history of " + key + " took longer than " + timeout);
                }
                for (ConsumerRecord<String, ObjectChanged> r : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(r.key()) && r.value() != null) {
                        out.add(r.value());
                    }
                }
            }
        }
        return out;
    }

    /** Kafka's default partition for a key: murmur2 of its bytes, as the producers of commands and events use. */
    int partition(String key) {
        return Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % config.partitions();
    }
}
