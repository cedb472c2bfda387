package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.Decision;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.Topics;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The writer's definitions topic and global store: how a writer learns definitions other partitions decided. */
class WriterDefinitionsTopologyTest {
    final Topics topics = Topics.DEFAULT;
    final EventplaneConfig config = new EventplaneConfig("unused:9092", "mock://" + UUID.randomUUID(), topics, 1);
    final Commands admin = new Commands("system:admin", Clock.fixed(Instant.parse("2026-11-26T10:00:00Z"), ZoneOffset.UTC));
    final String group = "t" + UUID.randomUUID().toString().substring(0, 8) + ".example.com";
    TopologyTestDriver driver;
    TestInputTopic<String, Command> commands;
    TestOutputTopic<String, CommandOutcome> outcomes;

    @BeforeEach
    void setUp() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "writer-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(WriterTopologyTest.topology(config), p);
        commands = driver.createInputTopic(topics.commands(), Serdes.String().serializer(),
                LogSerdes.commands(config).serializer());
        outcomes = driver.createOutputTopic(topics.outcomes(), Serdes.String().deserializer(),
                LogSerdes.outcomes(config).deserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private void send(Command c) {
        commands.pipeInput(Keys.of(c.getKind(), c.getNamespace(), c.getName()), c);
    }

    @Test
    @DisplayName("CRD-38 a definition another writer decided reaches this writer through the definitions topic: its "
            + "objects are decided here; the writer's own definitions go to that topic too")
    void definitionFromAnotherPartition() {
        // Decided elsewhere: the change as another writer instance appended it, never seen by this one's tasks.
        Command crd = admin.create(WriterDefinitionsAcrossPartitionsTest.crd(group));
        Decision elsewhere = new ObjectDecider(RulesRegistry.standard()).decide(crd, null, 41);
        assertTrue(elsewhere.outcome().getAccepted(), elsewhere.outcome().getMessage());
        assertFalse(CustomKinds.byKind("Gadget." + group).isPresent(), "nothing fed this process the definition yet");
        byte[] bytes = LogSerdes.changes(config).serializer().serialize(topics.events(), elsewhere.change().orElseThrow());
        driver.createInputTopic(topics.definitions(), Serdes.String().serializer(), Serdes.ByteArray().serializer())
                .pipeInput(Keys.of(crd.getKind(), "", crd.getName()), bytes);

        send(admin.create(WriterDefinitionsAcrossPartitionsTest.gadget(group, "g1")));
        CommandOutcome created = outcomes.readValue();
        assertTrue(created.getAccepted(), created.getMessage());
        assertEquals("Gadget." + group, created.getKind());

        String other = "u" + group;
        send(admin.create(WriterDefinitionsAcrossPartitionsTest.crd(other)));
        assertTrue(outcomes.readValue().getAccepted());
        KeyValueStore<String, byte[]> definitions = driver.getKeyValueStore(WriterTopology.DEFINITIONS_STORE);
        byte[] own = definitions.get(Keys.of(Kinds.CUSTOM_RESOURCE_DEFINITION.kind(), "", "gadgets." + other));
        assertNotNull(own, "the writer's own definition is in the definitions topic");
        ObjectChanged change = LogSerdes.changes(config).deserializer().deserialize(topics.events(), own);
        assertEquals("gadgets." + other, change.getName());
    }
}
