package io.eventplane.topology;

import io.eventplane.client.log.DeadLetter;
import io.eventplane.schemas.serde.SchemaRegistryException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.DeserializationExceptionHandler;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the writer does with a command it cannot read. A poison record (garbage bytes, an unknown schema id, a payload
 * that does not match its schema) goes to the dead-letter topic with the reason, and the writer goes on with the
 * next. A registry that cannot be reached is not the record's fault: the writer fails the task after a pause, Kafka
 * Streams replaces the thread, and the record is read again, so no good command is dead-lettered during an outage.
 *
 * <p>The dead letter carries the original bytes only when they are small: a record close to the topic's size limit
 * plus the headers would be refused by the broker, which would abort the transaction and block the partition.
 */
public final class WriterDeserializationHandler implements DeserializationExceptionHandler {
    private static final Logger LOG = LoggerFactory.getLogger(WriterDeserializationHandler.class);
    /** How long to wait before retrying a record whose schema the registry could not give. */
    static final long REGISTRY_RETRY_MS = 2_000;
    private String deadLetterTopic;

    @Override
    public void configure(Map<String, ?> configs) {
        Object topic = configs.get(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG);
        deadLetterTopic = topic == null ? null : topic.toString();
    }

    @Override
    public Response handleError(ErrorHandlerContext context, ConsumerRecord<byte[], byte[]> record,
                                Exception exception) {
        if (registryUnreachable(exception)) {
            LOG.warn("command at {}-{}@{} not readable while the schema registry is unreachable; retrying: {}",
                    context.topic(), context.partition(), context.offset(), exception.toString());
            try {
                Thread.sleep(REGISTRY_RETRY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Response.fail();
        }
        LOG.warn("poison record at {}-{}@{} ({} bytes) sent to {}: {}", context.topic(), context.partition(),
                context.offset(), record.value() == null ? 0 : record.value().length, deadLetterTopic,
                exception.toString());
        if (deadLetterTopic == null) {
            return Response.resume();
        }
        RecordHeaders headers = new RecordHeaders();
        add(headers, DeadLetter.EXCEPTION, exception.getClass().getName());
        add(headers, DeadLetter.MESSAGE, String.valueOf(exception.getMessage()));
        add(headers, DeadLetter.TOPIC, context.topic());
        add(headers, DeadLetter.PARTITION, Integer.toString(context.partition()));
        add(headers, DeadLetter.OFFSET, Long.toString(context.offset()));
        add(headers, DeadLetter.CODE, "400");
        add(headers, DeadLetter.REASON, "Undecodable");
        byte[] value = record.value() != null && record.value().length <= WriterProcessor.MAX_DEAD_LETTER_VALUE
                ? record.value() : null;
        byte[] key = record.key() != null && record.key().length <= WriterProcessor.MAX_DEAD_LETTER_VALUE
                ? record.key() : null;
        return Response.resume(List.of(new ProducerRecord<>(deadLetterTopic, null, record.timestamp(), key, value,
                headers)));
    }

    static boolean registryUnreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SchemaRegistryException r && r.isRetriable()) {
                return true;
            }
        }
        return false;
    }

    private static void add(RecordHeaders headers, String name, String value) {
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
