package io.eventplane.client;

import io.eventplane.log.CommandOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the writer's verdicts from now on and hands each to whoever registered its request id.
 *
 * <p>Every {@code Outcomes} of one process on one cluster shares a single consumer (a {@link Hub}): a verdict is for
 * one waiter only, so twenty services in one JVM need not fetch and decode every verdict twenty times. A verdict is
 * decoded only when someone waits for it. The hub closes with the last {@code Outcomes} that uses it.
 */
public final class Outcomes implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Outcomes.class);
    private static final Map<String, Hub> HUBS = new HashMap<>();
    private final String hubKey;
    private final Hub hub;
    private boolean closed;

    public Outcomes(EventplaneConfig config, String clientId) {
        hubKey = config.bootstrapServers() + "|" + config.registryUrl() + "|" + config.topics().outcomes();
        synchronized (HUBS) {
            Hub h = HUBS.get(hubKey);
            if (h == null || h.failure != null || h.closed) {
                h = new Hub(config, clientId);
                HUBS.put(hubKey, h);
            }
            h.users++;
            hub = h;
        }
    }

    /** Register before sending the command. */
    public CompletableFuture<CommandOutcome> await(String requestId) {
        return hub.pending.computeIfAbsent(requestId, id -> new CompletableFuture<>());
    }

    public void forget(String requestId) {
        hub.pending.remove(requestId);
    }

    @Override
    public void close() {
        synchronized (HUBS) {
            if (closed) {
                return;
            }
            closed = true;
            if (--hub.users > 0) {
                return;
            }
            HUBS.remove(hubKey, hub);
        }
        hub.close();
    }

    /** The one consumer of the outcome topic that every {@code Outcomes} of this process on one cluster reads. */
    private static final class Hub {
        private final KafkaConsumer<String, byte[]> consumer;
        private final Deserializer<CommandOutcome> decoder;
        private final String topic;
        private final Map<String, CompletableFuture<CommandOutcome>> pending = new ConcurrentHashMap<>();
        private final Thread thread;
        private int users;
        private volatile boolean closed;
        private volatile Throwable failure;

        Hub(EventplaneConfig config, String clientId) {
            Map<String, Object> props = config.kafkaConfig();
            props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
            props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
            props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, EventplaneConfig.FETCH_WAIT_MS);
            topic = config.topics().outcomes();
            decoder = LogSerdes.outcomes(config).deserializer();
            consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
            List<TopicPartition> parts = new ArrayList<>();
            consumer.partitionsFor(topic).forEach(p -> parts.add(new TopicPartition(p.topic(), p.partition())));
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
                    for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                        if (r.value() == null || r.key() == null) {
                            continue;
                        }
                        CompletableFuture<CommandOutcome> f = pending.remove(r.key());
                        if (f != null) {
                            try {
                                f.complete(decoder.deserialize(topic, r.value()));
                            } catch (RuntimeException e) {
                                f.completeExceptionally(e); // this verdict is unreadable; the others are not
                            }
                        }
                    }
                }
            } catch (WakeupException e) {
                // closing
            } catch (Throwable t) {
                failure = t;
                LOG.error("outcome consumer stopped: {}", t.toString(), t);
                pending.values().forEach(f -> f.completeExceptionally(t));
            } finally {
                consumer.close();
            }
        }

        void close() {
            closed = true;
            consumer.wakeup();
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
