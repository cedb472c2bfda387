package io.eventplane.client;

import io.eventplane.core.Keys;
import io.eventplane.log.Command;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/** Sends commands to the single writer, keyed by their object. Idempotent, acks=all. */
public final class CommandSender implements AutoCloseable {
    private final KafkaProducer<String, Command> producer;
    private final String topic;

    public CommandSender(EventplaneConfig config, String clientId) {
        Map<String, Object> props = config.kafkaConfig();
        props.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 1);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        this.producer = new KafkaProducer<>(props, new StringSerializer(), LogSerdes.commands(config).serializer());
        this.topic = config.topics().commands();
    }

    public CompletableFuture<RecordMetadata> send(Command command) {
        CompletableFuture<RecordMetadata> f = new CompletableFuture<>();
        String key = Keys.of(command.getKind(), command.getNamespace(), command.getName());
        producer.send(new ProducerRecord<>(topic, key, command), (md, e) -> {
            if (e != null) {
                f.completeExceptionally(e);
            } else {
                f.complete(md);
            }
        });
        return f;
    }

    public void flush() {
        producer.flush();
    }

    @Override
    public void close() {
        producer.close();
    }
}
