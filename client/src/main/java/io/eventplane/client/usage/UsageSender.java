package io.eventplane.client.usage;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.usage.NodeUsage;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes node samples on the usage topic, keyed by node name, on a producer of its own: measurements never queue
 * behind (or ahead of) commands, and losing one costs a window, so acks=1 and no retries beyond the producer's own.
 */
public final class UsageSender implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UsageSender.class);
    private final KafkaProducer<String, NodeUsage> producer;
    private final String topic;

    public UsageSender(EventplaneConfig config, String clientId) {
        Map<String, Object> props = config.kafkaConfig();
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "1");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 50);
        this.producer = new KafkaProducer<>(props, new StringSerializer(),
                LogSerdes.serde(config, NodeUsage.class).serializer());
        this.topic = config.topics().usage();
    }

    public void send(NodeUsage sample) {
        send(sample.getNode(), sample);
    }

    /** The node is gone: its sample goes from every reader. */
    public void forget(String node) {
        send(node, null);
    }

    private void send(String node, NodeUsage sample) {
        try {
            producer.send(new ProducerRecord<>(topic, node, sample), (md, e) -> {
                if (e != null) {
                    LOG.debug("usage sample of {} not sent: {}", node, e.toString());
                }
            });
        } catch (RuntimeException e) {
            LOG.warn("usage sample of {} not sent: {}", node, e.toString());
        }
    }

    @Override
    public void close() {
        producer.close();
    }
}
