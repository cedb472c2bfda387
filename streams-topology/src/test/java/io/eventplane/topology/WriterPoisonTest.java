package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.log.DeadLetter;
import io.eventplane.core.decide.KindRules;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.ObjectMeta;
import io.eventplane.schemas.Topics;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Commands the writer reads but cannot apply: answered with an error, dead-lettered with the reason, never blocking. */
class WriterPoisonTest {
    static final String POISON = "faults.eventplane.io/throw";
    final Topics topics = Topics.DEFAULT;
    final EventplaneConfig config = new EventplaneConfig("unused:9092", "mock://" + UUID.randomUUID(), topics, 1);
    TopologyTestDriver driver;
    TestInputTopic<String, Command> commands;
    TestOutputTopic<String, ObjectChanged> events;
    TestOutputTopic<String, CommandOutcome> outcomes;
    TestOutputTopic<String, byte[]> deadLetters;

    /** The standard rules, but a ConfigMap labelled {@value #POISON} makes the decision throw (a bug, on purpose). */
    @SuppressWarnings("unchecked")
    static ObjectDecider throwingDecider() {
        KindRules<ConfigMap> standard = (KindRules<ConfigMap>) RulesRegistry.standard().rulesFor(Kinds.CONFIG_MAP);
        KindRules<ConfigMap> throwing = new KindRules<>() {
            @Override
            public ConfigMap prepareForCreate(ConfigMap object, Instant now) {
                return standard.prepareForCreate(object, now);
            }

            @Override
            public List<StatusCause> validate(ConfigMap cm) {
                Map<String, String> labels = cm.getMetadata() == null ? null : cm.getMetadata().getLabels();
                if (labels != null && labels.containsKey(POISON)) {
                    throw new IllegalStateException("a bug in the ConfigMap rules");
                }
                return standard.validate(cm);
            }
        };
        return new ObjectDecider(RulesRegistry.standard().register(Kinds.CONFIG_MAP, throwing));
    }

    @BeforeEach
    void setUp() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "writer-poison-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(WriterTopology.build(topics, new WriterTopology.Serdes3(
                LogSerdes.commands(config), LogSerdes.changes(config), LogSerdes.outcomes(config)),
                throwingDecider(), 1), p);
        commands = driver.createInputTopic(topics.commands(), Serdes.String().serializer(),
                LogSerdes.commands(config).serializer());
        events = driver.createOutputTopic(topics.events(), Serdes.String().deserializer(),
                LogSerdes.changes(config).deserializer());
        outcomes = driver.createOutputTopic(topics.outcomes(), Serdes.String().deserializer(),
                LogSerdes.outcomes(config).deserializer());
        deadLetters = driver.createOutputTopic(topics.deadLetters(), Serdes.String().deserializer(),
                Serdes.ByteArray().deserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    static Command createConfigMap(String name, String requestId, Map<String, String> labels, String data) {
        ConfigMap cm = ConfigMap.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setLabels(labels).build())
                .setData(data == null ? null : Map.of("big", data)).build();
        return Command.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("kubectl").setRequestId(requestId)
                        .setTime(Instant.parse("2026-11-21T10:00:00Z")).build())
                .setVerb(Verb.CREATE).setKind("ConfigMap").setNamespace("default").setName(name)
                .setPreconditions(new Preconditions()).setObject(cm).build();
    }

    static DeadLetter read(TestRecord<String, byte[]> r) {
        ConsumerRecord<String, byte[]> c = new ConsumerRecord<>("ep.dlq", 0, 0, r.timestamp(), TimestampType.CREATE_TIME,
                0, 0, r.key(), r.value(), r.headers(), java.util.Optional.empty());
        return DeadLetter.of(c);
    }

    @Test
    @DisplayName("a command whose decision throws is answered 500, dead-lettered with the exception, and the next command is applied")
    void deciderThrows() {
        commands.pipeInput("ConfigMap/default/bad", createConfigMap("bad", "req-bad", Map.of(POISON, "yes"), null));
        commands.pipeInput("ConfigMap/default/good", createConfigMap("good", "req-good", null, null));
        List<ObjectChanged> appended = events.readValuesToList();
        assertEquals(1, appended.size(), "only the good command changed the log");
        assertEquals("good", appended.get(0).getName());
        CommandOutcome bad = outcomes.readValue();
        assertFalse(bad.getAccepted());
        assertEquals(500, bad.getCode());
        assertEquals("InternalError", bad.getReason());
        assertTrue(outcomes.readValue().getAccepted());
        TestRecord<String, byte[]> record = deadLetters.readRecord();
        DeadLetter dead = read(record);
        assertEquals("ConfigMap/default/bad", dead.key());
        assertEquals("req-bad", dead.requestId());
        assertEquals(500, dead.code());
        assertEquals(IllegalStateException.class.getName(), dead.exception());
        assertTrue(dead.message().contains("a bug in the ConfigMap rules"), dead.message());
        assertEquals("ep.commands", dead.sourceTopic());
        assertEquals(0, dead.sourceOffset());
        Command copied = LogSerdes.commands(config).deserializer().deserialize(topics.commands(), record.value());
        assertEquals("req-bad", copied.getEnvelope().getRequestId(), "the dead letter carries the command");
        assertTrue(deadLetters.isEmpty());
    }

    @Test
    @DisplayName("a command whose change would not fit in the log is answered 413 and dead-lettered; the partition goes on")
    void oversizedChange() {
        String big = "x".repeat(WriterProcessor.MAX_CHANGE_BYTES);
        commands.pipeInput("ConfigMap/default/huge", createConfigMap("huge", "req-huge", null, big));
        commands.pipeInput("ConfigMap/default/small", createConfigMap("small", "req-small", null, "x"));
        List<ObjectChanged> appended = events.readValuesToList();
        assertEquals(1, appended.size());
        assertEquals("small", appended.get(0).getName());
        CommandOutcome huge = outcomes.readValue();
        assertEquals(413, huge.getCode());
        assertEquals("RequestEntityTooLarge", huge.getReason());
        assertNull(driver.getKeyValueStore(WriterTopology.STORE).get("ConfigMap/default/huge"), "nothing stored");
        TestRecord<String, byte[]> record = deadLetters.readRecord();
        DeadLetter dead = read(record);
        assertEquals(413, dead.code());
        assertEquals("RequestEntityTooLarge", dead.reason());
        assertEquals("req-huge", dead.requestId());
        assertNull(record.value(), "a command this large is not copied whole: the dead letter must fit too");
        assertNotNull(outcomes.readValue());
    }
}
