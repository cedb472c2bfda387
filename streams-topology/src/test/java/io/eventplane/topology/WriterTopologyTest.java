package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.Pod;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.objects.KubeObjects;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The writer topology: given commands, then changes, outcomes and the store. */
class WriterTopologyTest {
    final Topics topics = Topics.DEFAULT;
    final EventplaneConfig config = new EventplaneConfig("unused:9092", "mock://" + UUID.randomUUID(), topics, 1);
    TopologyTestDriver driver;
    TestInputTopic<String, Command> commands;
    TestOutputTopic<String, ObjectChanged> events;
    TestOutputTopic<String, CommandOutcome> outcomes;

    static Topology topology(EventplaneConfig config) {
        return WriterTopology.build(config.topics(), new WriterTopology.Serdes3(LogSerdes.commands(config),
                LogSerdes.changes(config), LogSerdes.outcomes(config)), new ObjectDecider(RulesRegistry.standard()), 1);
    }

    @BeforeEach
    void setUp() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "writer-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
                org.apache.kafka.streams.errors.LogAndContinueExceptionHandler.class);
        p.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.deadLetters());
        driver = new TopologyTestDriver(topology(config), p);
        commands = driver.createInputTopic(topics.commands(), Serdes.String().serializer(), LogSerdes.commands(config).serializer());
        events = driver.createOutputTopic(topics.events(), Serdes.String().deserializer(), LogSerdes.changes(config).deserializer());
        outcomes = driver.createOutputTopic(topics.outcomes(), Serdes.String().deserializer(), LogSerdes.outcomes(config).deserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    static Command create(String name, String requestId) {
        Pod pod = KubeObjects.pod(name).containers(KubeObjects.container("nginx").image("nginx:1.14.2")).build();
        return Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("kubectl").setRequestId(requestId).setTime(Instant.parse("2026-11-21T10:00:00Z")).build())
                .setVerb(Verb.CREATE).setKind("Pod").setNamespace("default").setName(name)
                .setPreconditions(new Preconditions()).setObject(pod).build();
    }

    @Test
    @DisplayName("an accepted create appends a CREATED change, updates the store and reports the outcome under the request id")
    void acceptedCreate() {
        commands.pipeInput("Pod/default/web", create("web", "req-1"));
        ObjectChanged change = events.readValue();
        assertEquals(ChangeType.CREATED, change.getType());
        assertEquals(1L, change.getResourceVersion(), "the first command's position is 1");
        assertEquals("kubectl", change.getEnvelope().getActor());
        var record = outcomes.readRecord();
        assertEquals("req-1", record.key());
        assertTrue(record.value().getAccepted());
        assertTrue(record.value().getChanged());
        KeyValueStore<String, byte[]> store = driver.getKeyValueStore(WriterTopology.STORE);
        assertEquals(change, LogSerdes.changes(config).deserializer().deserialize("events",
                store.get("Pod/default/web")), "the store holds the change as appended");
    }

    @Test
    @DisplayName("a rejected command appends nothing and its outcome names the reason")
    void rejectedCreate() {
        commands.pipeInput("Pod/default/web", create("web", "req-1"));
        commands.pipeInput("Pod/default/web", create("web", "req-2"));
        assertEquals(1, events.readValuesToList().size());
        List<CommandOutcome> out = outcomes.readValuesToList();
        assertFalse(out.get(1).getAccepted());
        assertEquals("AlreadyExists", out.get(1).getReason());
        assertNull(out.get(1).getResourceVersion());
    }

    @Test
    @DisplayName("a command under a key that is not its object's key is rejected, not applied")
    void keyMismatch() {
        commands.pipeInput("Pod/default/other", create("web", "req-1"));
        assertTrue(events.isEmpty());
        assertEquals(500, outcomes.readValue().getCode());
    }

    @Test
    @DisplayName("a poison record is skipped and reported to the dead-letter topic; the next command is processed")
    void poisonRecord() {
        TestInputTopic<byte[], byte[]> raw = driver.createInputTopic(topics.commands(), new ByteArraySerializer(), new ByteArraySerializer());
        raw.pipeInput("Pod/default/x".getBytes(StandardCharsets.UTF_8), "not avro at all".getBytes(StandardCharsets.UTF_8));
        commands.pipeInput("Pod/default/web", create("web", "req-1"));
        assertEquals(2L, events.readValue().getResourceVersion());
        var dlq = driver.createOutputTopic(topics.deadLetters(), org.apache.kafka.common.serialization.Serdes.ByteArray().deserializer(),
                org.apache.kafka.common.serialization.Serdes.ByteArray().deserializer());
        var dead = dlq.readRecord();
        assertArrayEquals("not avro at all".getBytes(StandardCharsets.UTF_8), dead.value());
    }

    @Test
    @DisplayName("the topology's shape is the committed one: renaming a store or topic is deliberate")
    void describeSnapshot() throws IOException {
        String actual = normalize(topology(config).describe().toString());
        try (InputStream in = getClass().getResourceAsStream("/writer-topology.txt")) {
            String expected = in == null ? "(missing writer-topology.txt)" : normalize(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            assertEquals(expected, actual);
        }
    }

    private static String normalize(String s) {
        return s.lines().map(String::stripTrailing).collect(java.util.stream.Collectors.joining("\n")).trim();
    }
}
