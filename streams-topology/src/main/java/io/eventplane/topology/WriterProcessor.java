package io.eventplane.topology;

import io.eventplane.core.Keys;
import io.eventplane.core.ResourceVersions;
import io.eventplane.core.decide.Decision;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The thin shell around {@link ObjectDecider}: read state, decide, write the change, the state and the outcome. */
final class WriterProcessor implements Processor<String, Command, String, Object> {
    private static final Logger LOG = LoggerFactory.getLogger(WriterProcessor.class);
    private final ObjectDecider decider;
    private final int partitions;
    private final long freshMs;
    private ProcessorContext<String, Object> context;
    private final String eventsTopic;
    private final Serde<ObjectChanged> changes;
    private KeyValueStore<String, byte[]> store;
    /** At most one early commit per tick: a steady stream of fresh commands shares commits this long. */
    static final long TICK_MS = 20;
    private long lastEarlyCommit;
    private boolean freshUncommitted;

    /**
     * @param freshMs a command at most this old (by its record timestamp) when decided asks for a commit, at once or
     *                at the next tick (at most one such commit per {@value #TICK_MS} ms); negative: never (commits only
     *                every commit.interval.ms)
     */
    WriterProcessor(ObjectDecider decider, int partitions, long freshMs, String eventsTopic,
                    Serde<ObjectChanged> changes) {
        this.eventsTopic = eventsTopic;
        this.changes = changes;
        this.decider = decider;
        this.partitions = partitions;
        this.freshMs = freshMs;
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        this.store = context.getStateStore(WriterTopology.STORE);
        if (freshMs >= 0) {
            context.schedule(Duration.ofMillis(TICK_MS), PunctuationType.WALL_CLOCK_TIME, now -> {
                if (freshUncommitted) {
                    requestCommit(now);
                }
            });
        }
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
        if (!key.equals(record.key())) {
            decision = new Decision(java.util.Optional.empty(), rejected(command,
                    "record key \"" + record.key() + "\" does not match the command's object " + key));
        } else {
            try {
                byte[] stored = store.get(key);
                ObjectChanged current = stored == null ? null : changes.deserializer().deserialize(eventsTopic, stored);
                decision = decider.decide(command, current, position);
            } catch (RuntimeException e) {
                // A bug must not stop the partition: reject the command, say why, keep going.
                LOG.error("deciding {} {} failed", command.getVerb(), key, e);
                decision = new Decision(java.util.Optional.empty(), rejected(command, "internal error: " + e));
            }
        }
        decision.change().ifPresent(change -> {
            byte[] bytes = changes.serializer().serialize(eventsTopic, change);
            if (change.getType() == ChangeType.DELETED) {
                store.delete(key);
            } else {
                store.put(key, bytes);
            }
            context.forward(record.withValue((Object) bytes), WriterTopology.EVENTS_SINK);
        });
        CommandOutcome outcome = decision.outcome();
        context.forward(new Record<>(command.getEnvelope().getRequestId(), (Object) outcome, record.timestamp()),
                WriterTopology.OUTCOMES_SINK);
        long now = System.currentTimeMillis();
        if (freshMs >= 0 && now - record.timestamp() <= freshMs) {
            // Keeping up: commit now, or at the next tick when a commit was asked for less than a tick ago. Lagging
            // (older commands): commit.interval.ms lets the transaction grow.
            if (now - lastEarlyCommit >= TICK_MS) {
                requestCommit(now);
            } else {
                freshUncommitted = true;
            }
        }
    }

    private void requestCommit(long now) {
        context.commit();
        lastEarlyCommit = now;
        freshUncommitted = false;
    }

    private static CommandOutcome rejected(Command command, String message) {
        return CommandOutcome.newBuilder()
                .setEnvelope(command.getEnvelope())
                .setKind(command.getKind())
                .setNamespace(command.getNamespace())
                .setName(command.getName())
                .setAccepted(false)
                .setCode(500)
                .setReason("InternalError")
                .setMessage(message)
                .setCauses(List.of())
                .build();
    }
}
