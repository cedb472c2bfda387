package io.eventplane.client;

import io.eventplane.log.CommandOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Follows the writer's verdicts from now on and hands each to whoever registered its request id. */
public final class Outcomes implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Outcomes.class);
    private final KafkaConsumer<String, CommandOutcome> consumer;
    private final Map<String, CompletableFuture<CommandOutcome>> pending = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean closed;

    public Outcomes(EventplaneConfig config, String clientId) {
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 20);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), LogSerdes.outcomes(config).deserializer());
        List<TopicPartition> parts = new ArrayList<>();
        consumer.partitionsFor(config.topics().outcomes()).forEach(p -> parts.add(new TopicPartition(p.topic(), p.partition())));
        consumer.assign(parts);
        consumer.seekToEnd(parts);
        parts.forEach(consumer::position); // fix the start now: nothing sent after this constructor is missed
        thread = new Thread(this::run, clientId + "-outcomes");
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (!closed) {
                for (ConsumerRecord<String, CommandOutcome> r : consumer.poll(Duration.ofMillis(200))) {
                    CompletableFuture<CommandOutcome> f = pending.remove(r.key());
                    if (f != null && r.value() != null) {
                        f.complete(r.value());
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (Throwable t) {
            LOG.error("outcome consumer stopped: {}", t.toString(), t);
            pending.values().forEach(f -> f.completeExceptionally(t));
        } finally {
            consumer.close();
        }
    }

    /** Register before sending the command. */
    public CompletableFuture<CommandOutcome> await(String requestId) {
        return pending.computeIfAbsent(requestId, id -> new CompletableFuture<>());
    }

    public void forget(String requestId) {
        pending.remove(requestId);
    }

    @Override
    public void close() {
        closed = true;
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
