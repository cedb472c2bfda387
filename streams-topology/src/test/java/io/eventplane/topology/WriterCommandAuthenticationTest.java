package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.ServiceIdentities;
import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Pod;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
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

/**
 * A writer that holds the cluster's command secret believes a command's actor only from a credential that covers it:
 * the identities the services stamp come from their credentials, not from what a producer to Kafka says.
 */
class WriterCommandAuthenticationTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-11-26T10:00:00Z"), ZoneOffset.UTC);
    private final Topics topics = Topics.DEFAULT;
    private final EventplaneConfig config = new EventplaneConfig("unused:9092", "mock://" + UUID.randomUUID(), topics, 1);
    private final CommandCredentials cluster = CommandCredentials.of("0123456789abcdef0123456789abcdef".getBytes(
            StandardCharsets.US_ASCII));
    private TopologyTestDriver driver;
    private TestInputTopic<String, Command> commands;
    private TestOutputTopic<String, ObjectChanged> events;
    private TestOutputTopic<String, CommandOutcome> outcomes;

    @BeforeEach
    void setUp() {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, "writer-auth-test");
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        driver = new TopologyTestDriver(WriterTopology.build(topics, new WriterTopology.Serdes3(
                LogSerdes.commands(config), LogSerdes.changes(config), LogSerdes.outcomes(config)),
                new ObjectDecider(RulesRegistry.standard()), 1, -1, cluster), p);
        commands = driver.createInputTopic(topics.commands(), Serdes.String().serializer(),
                LogSerdes.commands(config).serializer());
        events = driver.createOutputTopic(topics.events(), Serdes.String().deserializer(),
                LogSerdes.changes(config).deserializer());
        outcomes = driver.createOutputTopic(topics.outcomes(), Serdes.String().deserializer(),
                LogSerdes.outcomes(config).deserializer());
    }

    @AfterEach
    void tearDown() {
        driver.close();
    }

    private void send(Command c, String credential) {
        RecordHeaders headers = new RecordHeaders();
        if (credential != null) {
            headers.add(CommandCredentials.HEADER, credential.getBytes(StandardCharsets.UTF_8));
        }
        commands.pipeInput(new TestRecord<>(io.eventplane.core.Keys.of(c.getKind(), c.getNamespace(), c.getName()),
                c, headers, CLOCK.instant()));
    }

    private static Pod pod(String name, String node) {
        return KubeObjects.pod(name).onNode(node).containers(KubeObjects.container("c").image("nginx:1.27")).build();
    }

    @Test
    @DisplayName("issue 23: a command without a credential, or with a forged one, is 401 and changes nothing")
    void withoutCredential() {
        io.eventplane.client.Commands scheduler = new io.eventplane.client.Commands(ServiceIdentities.scheduler(), CLOCK);
        send(scheduler.create(pod("a", "n1")), null);
        String good = cluster.issue("system:kube-scheduler");
        send(scheduler.create(pod("b", "n1")), (good.charAt(0) == 'a' ? "b" : "a") + good.substring(1));
        CommandCredentials other = CommandCredentials.of(new byte[32]);
        send(scheduler.create(pod("c", "n1")), other.issue("system:kube-scheduler"));
        assertTrue(events.isEmpty());
        for (CommandOutcome o : outcomes.readValuesToList()) {
            assertEquals(401, o.getCode());
            assertEquals("Unauthorized", o.getReason());
        }
    }

    @Test
    @DisplayName("AUTHZ-NODE: node-sim's credential acts as any node, and each node only on its own pods; a node's "
            + "credential cannot act as another node; the credential never reaches the event log")
    void nodeIdentitiesComeFromCredentials() {
        io.eventplane.client.Commands admin = new io.eventplane.client.Commands("kubernetes-admin", CLOCK);
        send(admin.create(pod("mine", "n1")), cluster.issue("kubernetes-admin"));
        send(admin.create(pod("theirs", "n2")), cluster.issue("kubernetes-admin"));
        Pod mine = (Pod) events.readValue().getObject();
        var theirsRecord = events.readRecord();
        assertNull(theirsRecord.headers().lastHeader(CommandCredentials.HEADER), "credentials stay on the command log");
        Pod theirs = (Pod) theirsRecord.value().getObject();
        outcomes.readValuesToList();

        io.eventplane.client.Commands node1 = new io.eventplane.client.Commands(ServiceIdentities.node("n1"), CLOCK);
        String nodeSim = cluster.issue(CommandCredentials.NODE_SIM);
        send(node1.updateStatus(mine), nodeSim);
        assertTrue(outcomes.readValue().getAccepted(), "node-sim acts as node n1 on n1's pod");
        send(node1.updateStatus(theirs), nodeSim);
        CommandOutcome refused = outcomes.readValue();
        assertEquals(403, refused.getCode());
        assertEquals("pods \"theirs\" is forbidden: node \"n1\" can only update pod status for pods with spec.nodeName "
                + "set to itself", refused.getMessage());

        // a credential of node n2 itself cannot stamp n1, nor the scheduler
        send(node1.delete(io.eventplane.core.kinds.Kinds.POD, "default", "mine", 0L, null),
                cluster.issue("system:node:n2"));
        CommandOutcome impostor = outcomes.readValue();
        assertEquals(403, impostor.getCode());
        assertEquals("User \"system:node:n2\" cannot act as \"system:node:n1\" in groups [system:nodes, "
                + "system:authenticated]", impostor.getMessage());
        io.eventplane.client.Commands scheduler = new io.eventplane.client.Commands(ServiceIdentities.scheduler(), CLOCK);
        send(scheduler.bind("default", "mine", mine.getMetadata().getUid(), "n2"), nodeSim);
        assertEquals(403, outcomes.readValue().getCode(), "node-sim's credential is no scheduler's");
        send(admin.update(mine), cluster.issue(CommandCredentials.APISERVER));
        assertTrue(outcomes.readValue().getCode() != 401, "the gateway's credential acts for the users it authenticated");
    }
}
