package io.eventplane.topology;

import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.Topics;
import java.util.Map;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.state.Stores;

/**
 * The single writer: commands in; each decided against the object's current state in the {@value #STORE} store;
 * accepted changes appended to the event log and applied to the store; every verdict reported on the outcome topic.
 * All of it in one exactly-once transaction per commit.
 */
public final class WriterTopology {
    public static final String STORE = "objects";
    public static final String SOURCE = "commands-source";
    public static final String PROCESSOR = "decide";
    public static final String EVENTS_SINK = "events-sink";
    public static final String OUTCOMES_SINK = "outcomes-sink";
    public static final String DEAD_LETTERS_SINK = "dead-letters-sink";
    public static final String DEFINITIONS_SINK = "definitions-sink";
    public static final String DEFINITIONS_STORE = "definitions";
    public static final String DEFINITIONS_SOURCE = "definitions-source";
    public static final String DEFINITIONS_PROCESSOR = "learn-definitions";

    private WriterTopology() {
    }

    public record Serdes3(Serde<Command> commands, Serde<ObjectChanged> changes, Serde<CommandOutcome> outcomes) {
    }

    public static Topology build(Topics topics, Serdes3 serdes, ObjectDecider decider, int partitions) {
        return build(topics, serdes, decider, partitions, -1);
    }

    /** @param freshMs see {@link WriterProcessor#WriterProcessor}: commit at once for commands this fresh */
    public static Topology build(Topics topics, Serdes3 serdes, ObjectDecider decider, int partitions, long freshMs) {
        return build(topics, serdes, decider, partitions, freshMs, null);
    }

    /**
     * @param credentials the cluster's command credentials: a command is decided only when its credential covers its
     *                    actor ({@link CommandAuthentication}); null: every command is believed
     */
    public static Topology build(Topics topics, Serdes3 serdes, ObjectDecider decider, int partitions, long freshMs,
                                 CommandCredentials credentials) {
        CommandAuthentication authentication = credentials == null ? null : new CommandAuthentication(credentials);
        Topology t = new Topology();
        t.addSource(SOURCE, Serdes.String().deserializer(), serdes.commands().deserializer(), topics.commands());
        t.addProcessor(PROCESSOR, () -> new WriterProcessor(decider, partitions, freshMs, topics.events(),
                serdes.changes(), serdes.commands(), authentication), SOURCE);
        // The store keeps each object's latest change as the bytes appended to the log (Confluent wire format): one
        // serialization serves the store, its changelog and the event log.
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(),
                Serdes.ByteArray()).withLoggingEnabled(Map.of()), PROCESSOR);
        t.addSink(EVENTS_SINK, topics.events(), Serdes.String().serializer(), Serdes.ByteArray().serializer(),
                PROCESSOR);
        t.addSink(OUTCOMES_SINK, topics.outcomes(), Serdes.String().serializer(), serdes.outcomes().serializer(),
                PROCESSOR);
        // Commands the writer read but could not apply, with the reason (those it could not read go there too, by
        // Kafka Streams' deserialization handler).
        t.addSink(DEAD_LETTERS_SINK, topics.deadLetters(), Serdes.String().serializer(),
                Serdes.ByteArray().serializer(), PROCESSOR);
        // Custom objects are decided against their definition, which another partition (another writer process) may
        // have decided: every definition's latest change goes to a compacted topic every instance follows whole.
        t.addSink(DEFINITIONS_SINK, topics.definitions(), Serdes.String().serializer(),
                Serdes.ByteArray().serializer(), PROCESSOR);
        t.addGlobalStore(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(DEFINITIONS_STORE), Serdes.String(),
                        Serdes.ByteArray()).withLoggingDisabled(), DEFINITIONS_SOURCE, Serdes.String().deserializer(),
                Serdes.ByteArray().deserializer(), topics.definitions(), DEFINITIONS_PROCESSOR,
                () -> new DefinitionsProcessor(topics.events(), serdes.changes().deserializer()));
        return t;
    }
}
