package io.eventplane.client.usage;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.usage.NodeUsage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the usage topic ({@code ep.usage}) and keeps each node's latest sample: metrics-server's store, for the
 * metrics API and the autoscaler. It starts a minute back from the topic's end (older samples are never needed: a
 * node sends one per window) and then follows it; a sample with a null value removes its node. One per process and
 * cluster ({@link #shared}); closed with its last user.
 */
public final class UsageView implements ResourceUsage, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UsageView.class);
    /** A node whose latest sample is older than this is treated as unmeasured (it failed or left). */
    public static final Duration FRESH_FOR = Duration.ofSeconds(60);
    private static final Duration START_BACK = Duration.ofSeconds(60);
    private static final Map<String, UsageView> SHARED = new HashMap<>();

    private final EventplaneConfig config;
    private final String clientId;
    private final Clock clock;
    private final UsageSamples samples;
    private volatile boolean closed;
    private KafkaConsumer<String, NodeUsage> consumer;
    private Thread thread;
    private String sharedKey;
    private int users;

    public UsageView(EventplaneConfig config, String clientId, Clock clock) {
        this.config = config;
        this.clientId = clientId;
        this.clock = clock;
        this.samples = new UsageSamples(clock::instant, FRESH_FOR);
    }

    /** The process's view of the cluster's usage, started on first use. */
    public static UsageView shared(EventplaneConfig config) {
        String key = config.bootstrapServers() + "|" + config.registryUrl() + "|" + config.topics().usage();
        synchronized (SHARED) {
            UsageView v = SHARED.get(key);
            if (v == null || v.closed) {
                v = new UsageView(config, "usage-" + config.topics().prefix(), Clock.systemUTC());
                v.sharedKey = key;
                SHARED.put(key, v);
                v.start();
            }
            v.users++;
            return v;
        }
    }

    public synchronized UsageView start() {
        if (thread != null) {
            return this;
        }
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 200);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), LogSerdes.serde(config, NodeUsage.class)
                .deserializer());
        thread = new Thread(this::run, clientId + "-usage");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    private void run() {
        try {
            String topic = config.topics().usage();
            List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(30));
            List<TopicPartition> parts = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(parts);
            long from = clock.instant().minus(START_BACK).toEpochMilli();
            Map<TopicPartition, Long> at = new HashMap<>();
            parts.forEach(p -> at.put(p, from));
            Map<TopicPartition, OffsetAndTimestamp> offsets = consumer.offsetsForTimes(at);
            for (TopicPartition p : parts) {
                OffsetAndTimestamp o = offsets.get(p);
                if (o == null) {
                    consumer.seekToEnd(List.of(p));
                } else {
                    consumer.seek(p, o.offset());
                }
            }
            while (!closed) {
                for (ConsumerRecord<String, NodeUsage> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.value() == null) {
                        samples.remove(r.key());
                    } else {
                        samples.put(r.value());
                    }
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (RuntimeException e) {
            if (!closed) {
                LOG.error("{}: stopped following resource usage: {}", clientId, e.toString(), e);
            }
        } finally {
            consumer.close();
        }
    }

    @Override
    public Optional<NodeUsage> node(String name) {
        return samples.node(name);
    }

    @Override
    public List<NodeUsage> nodes() {
        return samples.nodes();
    }

    @Override
    public Optional<PodSample> pod(String namespace, String name) {
        return samples.pod(namespace, name);
    }

    /** The reader's clock (what freshness is judged by). */
    Instant now() {
        return clock.instant();
    }

    @Override
    public void close() {
        if (sharedKey != null) {
            synchronized (SHARED) {
                if (--users > 0) {
                    return;
                }
                SHARED.remove(sharedKey, this);
            }
        }
        closed = true;
        if (consumer != null) {
            consumer.wakeup();
        }
        if (thread != null) {
            try {
                thread.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
