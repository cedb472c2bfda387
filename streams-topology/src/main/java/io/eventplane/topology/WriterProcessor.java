package io.eventplane.topology;

import io.eventplane.client.CustomKindsFeed;
import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.client.log.DeadLetter;
import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.decide.Decision;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.Rejection;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thin shell around {@link ObjectDecider}: read state, decide, write the change, the state and the outcome. A
 * command it cannot apply (the decision threw, or the change would not fit in the log) is answered with an error and
 * copied to the dead-letter topic with the reason; it never stops the partition.
 */
final class WriterProcessor implements Processor<String, Command, String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(WriterProcessor.class);
    private final ObjectDecider decider;
    private final int partitions;
    private final long freshMs;
    private ProcessorContext<String, Object> context;
    private final String eventsTopic;
    private final Serde<ObjectChanged> changes;
    private final Serde<Command> commands;
    /** Checks each command's credential against its actor; null: commands are believed (no cluster secret). */
    private final CommandAuthentication authentication;
    private KeyValueStore<String, byte[]> store;
    /** Objects decided a moment ago, decoded (the processor lives and dies with its task and its store). */
    private final DecodedObjects decoded = new DecodedObjects(DECODED_OBJECTS);
    /** About 100-200 MB of decoded pods at most: the objects of a burst of changes stay decoded between its steps. */
    static final int DECODED_OBJECTS = 50_000;
    /** When a task republishes its definitions after it starts (a punctuation, so within a transaction). */
    static final long REPUBLISH_AFTER_MS = 100;
    /** When a fresh command's transaction commits: at once, or at the end of the current tick. */
    private final CommitPacing pacing = new CommitPacing();
    /**
     * The one-shot tick that commits a fresh command whose commit was deferred, or null. Scheduled only then: Kafka
     * Streams takes every punctuation as work to commit, so a tick running all the time made an idle writer commit an
     * empty transaction every commit.interval.ms (five a second, each a few broker round trips and log appends).
     */
    private Cancellable deferredCommit;
    /**
     * The largest change the writer appends. The broker refuses records over its max.message.bytes (1 MiB + 12 by
     * default, the events topic and the store's changelog alike); a refused record aborts the transaction, and the
     * command would be retried and refused forever, blocking the partition. This leaves room for the batch and record
     * headers. (Kubernetes' own limit on an object in etcd is 1.5 MiB.)
     */
    static final int MAX_CHANGE_BYTES = 1_000_000;
    /** Dead letters keep the command itself only below this size (the dead-letter topic has the same 1 MiB limit). */
    static final int MAX_DEAD_LETTER_VALUE = 256 * 1024;

    /**
     * @param authentication checks credentials, or null
     * @param freshMs a command at most this old (by its record timestamp) when decided asks for a commit, at once or
     *                at the end of the current tick ({@link CommitPacing}); negative: never (commits only every
     *                commit.interval.ms)
     */
    WriterProcessor(ObjectDecider decider, int partitions, long freshMs, String eventsTopic,
                    Serde<ObjectChanged> changes, Serde<Command> commands, CommandAuthentication authentication) {
        this.authentication = authentication;
        this.eventsTopic = eventsTopic;
        this.changes = changes;
        this.commands = commands;
        this.decider = decider;
        this.partitions = partitions;
        this.freshMs = freshMs;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.store = context.getStateStore(WriterTopology.STORE);
        defineCustomKinds();
        // Once, in the task's first transaction: its definitions to the definitions topic, so that every instance
        // knows them even when the topic lost them or came after them (it is derived data, as a snapshot is).
        Cancellable[] republish = new Cancellable[1];
        republish[0] = context.schedule(Duration.ofMillis(REPUBLISH_AFTER_MS), PunctuationType.WALL_CLOCK_TIME, now -> {
            republish[0].cancel();
            republishDefinitions();
        });
    }

    /** The custom kinds of the definitions this task's store holds (custom objects are decided against them). */
    private void defineCustomKinds() {
        try (KeyValueIterator<String, byte[]> it = definitions()) {
            while (it.hasNext()) {
                CustomKindsFeed.apply(changes.deserializer().deserialize(eventsTopic, it.next().value));
            }
        }
    }

    private void republishDefinitions() {
        try (KeyValueIterator<String, byte[]> it = definitions()) {
            while (it.hasNext()) {
                var entry = it.next();
                context.forward(new Record<>(entry.key, (Object) entry.value, System.currentTimeMillis()),
                        WriterTopology.DEFINITIONS_SINK);
            }
        }
    }

    private KeyValueIterator<String, byte[]> definitions() {
        String prefix = Keys.of(Kinds.CUSTOM_RESOURCE_DEFINITION.kind(), "", "");
        return store.prefixScan(prefix, new StringSerializer());
    }

    @Override
    public void process(Record<String, Command> record) {
        Command command = record.value();
        if (command == null) {
            return;
        }
        RecordMetadata md = context.recordMetadata().orElseThrow();
        long position = ResourceVersions.of(md.partition(), md.offset(), partitions);
        String key = Keys.of(command.getKind(), command.getNamespace(), command.getName());
        Decision decision;
        byte[] bytes = null;
        Optional<Rejection> unauthenticated = authentication == null ? Optional.empty()
                : authentication.refusal(command, record.headers());
        if (unauthenticated.isPresent()) {
            Rejection r = unauthenticated.get();
            LOG.warn("{} {} by \"{}\" refused: {}", command.getVerb(), key,
                    command.getEnvelope() == null ? "" : command.getEnvelope().getActor(), r.message());
            decision = new Decision(Optional.empty(), rejected(command, r.code(), r.reason(), r.message()));
        } else if (!key.equals(record.key())) {
            decision = new Decision(java.util.Optional.empty(), rejected(command, 500, "InternalError",
                    "record key \"" + record.key() + "\" does not match the command's object " + key));
            deadLetter(record, command, "KeyMismatch", decision.outcome());
        } else {
            try {
                byte[] stored = store.get(key);
                ObjectChanged current = decoded.decode(key, stored,
                        bytes1 -> changes.deserializer().deserialize(eventsTopic, bytes1));
                decision = decider.decide(command, current, position);
                bytes = decision.change().map(change -> changes.serializer().serialize(eventsTopic, change))
                        .orElse(null);
            } catch (RuntimeException e) {
                // A bug must not stop the partition: reject the command, say why, keep going.
                LOG.error("deciding {} {} failed", command.getVerb(), key, e);
                decision = new Decision(java.util.Optional.empty(), rejected(command, 500, "InternalError",
                        "internal error: " + e));
                deadLetter(record, command, e.getClass().getName(), decision.outcome());
            }
        }
        if (bytes != null && bytes.length + key.length() > MAX_CHANGE_BYTES) {
            LOG.warn("{} {}: the change would be {} bytes, over the log's limit of {}; rejected", command.getVerb(),
                    key, bytes.length, MAX_CHANGE_BYTES);
            decision = new Decision(java.util.Optional.empty(), rejected(command, 413, "RequestEntityTooLarge",
                    "Request entity too large: the object would be stored as " + bytes.length
                            + " bytes, more than the limit of " + MAX_CHANGE_BYTES));
            deadLetter(record, command, "RecordTooLarge", decision.outcome());
            bytes = null;
        }
        if (bytes != null) {
            // The custom kinds a definition gives are decided on from its next command on.
            CustomKindsFeed.apply(decision.change().get());
            if (decision.change().get().getType() == ChangeType.DELETED) {
                store.delete(key);
                decoded.written(key, null, null);
            } else {
                store.put(key, bytes);
                decoded.written(key, bytes, decision.change().get());
            }
            context.forward(new Record<>(record.key(), (Object) bytes, record.timestamp(),
                    withoutCredential(record.headers())), WriterTopology.EVENTS_SINK);
            if (command.getKind().equals(Kinds.CUSTOM_RESOURCE_DEFINITION.kind())) {
                // the same bytes, deletions included (a tombstone would lose the resourceVersion that orders news)
                context.forward(new Record<>(record.key(), (Object) bytes, record.timestamp()),
                        WriterTopology.DEFINITIONS_SINK);
            }
        }
        CommandOutcome outcome = decision.outcome();
        context.forward(new Record<>(command.getEnvelope().getRequestId(), (Object) outcome, record.timestamp()),
                WriterTopology.OUTCOMES_SINK);
        pacing.decided();
        long now = System.currentTimeMillis();
        if (freshMs >= 0 && now - record.timestamp() <= freshMs) {
            // Keeping up: commit now, or at the end of the current tick. Lagging (older commands):
            // commit.interval.ms lets the transaction grow.
            long due = pacing.commitDue(now);
            if (due == now) {
                requestCommit(now);
            } else if (deferredCommit == null) {
                deferredCommit = context.schedule(Duration.ofMillis(Math.max(1, due - now)),
                        PunctuationType.WALL_CLOCK_TIME, ignored -> requestCommit(due));
            }
        }
    }

    private void requestCommit(long now) {
        context.commit();
        pacing.committed(now);
        if (deferredCommit != null) {
            deferredCommit.cancel();
            deferredCommit = null;
        }
    }

    /**
     * The command, with the reason in headers (Kafka Streams' header names), to the dead-letter topic. The record goes
     * out in the same transaction as the outcome that answers its sender.
     */
    private void deadLetter(Record<String, Command> record, Command command, String exception, CommandOutcome outcome) {
        RecordMetadata md = context.recordMetadata().orElseThrow();
        byte[] value = commands.serializer().serialize(md.topic(), command);
        RecordHeaders headers = new RecordHeaders();
        header(headers, DeadLetter.EXCEPTION, exception);
        header(headers, DeadLetter.MESSAGE, outcome.getMessage());
        header(headers, DeadLetter.TOPIC, md.topic());
        header(headers, DeadLetter.PARTITION, Integer.toString(md.partition()));
        header(headers, DeadLetter.OFFSET, Long.toString(md.offset()));
        header(headers, DeadLetter.CODE, Integer.toString(outcome.getCode()));
        header(headers, DeadLetter.REASON, outcome.getReason());
        header(headers, DeadLetter.REQUEST_ID, command.getEnvelope().getRequestId());
        context.forward(new Record<>(record.key(), (Object) (value.length > MAX_DEAD_LETTER_VALUE ? null : value),
                record.timestamp(), headers), WriterTopology.DEAD_LETTERS_SINK);
    }

    /** The record's headers but its credential: the event log is read by everyone, credentials by the writer only. */
    private static Headers withoutCredential(Headers headers) {
        RecordHeaders out = new RecordHeaders();
        for (Header h : headers) {
            if (!h.key().equals(CommandCredentials.HEADER)) {
                out.add(h);
            }
        }
        return out;
    }

    private static void header(RecordHeaders headers, String name, String value) {
        headers.add(name, (value == null ? "" : value).getBytes(StandardCharsets.UTF_8));
    }

    private static CommandOutcome rejected(Command command, int code, String reason, String message) {
        return CommandOutcome.newBuilder()
                .setEnvelope(command.getEnvelope())
                .setKind(command.getKind())
                .setNamespace(command.getNamespace())
                .setName(command.getName())
                .setAccepted(false)
                .setCode(code)
                .setReason(reason)
                .setMessage(message)
                .setCauses(List.of())
                .build();
    }
}
