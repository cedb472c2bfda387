package io.eventplane.client.log;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * A record of the dead-letter topic: a command the writer could not read ({@code Undecodable}, put there by Kafka
 * Streams' deserialization handler) or could not apply ({@code InternalError}, {@code RequestEntityTooLarge}, put there
 * by the writer, which also answered its sender). Kafka Streams' own header names carry the exception, its message and
 * where the record came from; the writer adds the verdict's code and reason and the request id.
 *
 * @param key       the record's key as sent (normally the object key {@code Kind/namespace/name}), or ""
 * @param requestId the command's request id when the writer could read it, else ""
 * @param code      the HTTP status the verdict was (400 for a record nobody could read)
 */
public record DeadLetter(Instant time, String key, String requestId, int code, String reason, String exception,
                         String message, String sourceTopic, long sourceOffset) {
    /** Kafka Streams' header names (ExceptionHandlerUtils), so both kinds of dead letter read alike. */
    public static final String EXCEPTION = "__streams.errors.exception";
    public static final String MESSAGE = "__streams.errors.message";
    public static final String TOPIC = "__streams.errors.topic";
    public static final String PARTITION = "__streams.errors.partition";
    public static final String OFFSET = "__streams.errors.offset";
    /** The writer's own: the verdict it answered, and to which request. */
    public static final String CODE = "eventplane.errors.code";
    public static final String REASON = "eventplane.errors.reason";
    public static final String REQUEST_ID = "eventplane.request-id";

    /** Reads a dead-letter record whatever its value (which may be absent or unreadable). */
    public static DeadLetter of(ConsumerRecord<?, ?> record) {
        Headers h = record.headers();
        String code = text(h, CODE);
        String reason = text(h, REASON);
        String offset = text(h, OFFSET);
        Object key = record.key();
        String keyText = key instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8)
                : key == null ? "" : key.toString();
        return new DeadLetter(Instant.ofEpochMilli(record.timestamp()), keyText, text(h, REQUEST_ID),
                code.isEmpty() ? 400 : Integer.parseInt(code), reason.isEmpty() ? "Undecodable" : reason,
                text(h, EXCEPTION), text(h, MESSAGE), text(h, TOPIC), offset.isEmpty() ? -1 : Long.parseLong(offset));
    }

    private static String text(Headers headers, String name) {
        Header h = headers.lastHeader(name);
        return h == null || h.value() == null ? "" : new String(h.value(), StandardCharsets.UTF_8);
    }
}
