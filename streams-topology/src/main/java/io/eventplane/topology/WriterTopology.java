package io.eventplane.topology;

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

    private WriterTopology() {
    }

    public record Serdes3(Serde<Command> commands, Serde<ObjectChanged> changes, Serde<CommandOutcome> outcomes) {
    }

    public static Topology build(Topics topics, Serdes3 serdes, ObjectDecider decider, int partitions) {
        Topology t = new Topology();
        t.addSource(SOURCE, Serdes.String().deserializer(), serdes.commands().deserializer(), topics.commands());
        t.addProcessor(PROCESSOR, () -> new WriterProcessor(decider, partitions), SOURCE);
        t.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(STORE), Serdes.String(),
                serdes.changes()).withLoggingEnabled(Map.of()), PROCESSOR);
        t.addSink(EVENTS_SINK, topics.events(), Serdes.String().serializer(), serdes.changes().serializer(), PROCESSOR);
        t.addSink(OUTCOMES_SINK, topics.outcomes(), Serdes.String().serializer(), serdes.outcomes().serializer(),
                PROCESSOR);
        return t;
    }
}
