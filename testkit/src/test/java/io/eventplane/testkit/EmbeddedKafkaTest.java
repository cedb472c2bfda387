package io.eventplane.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaTest {

    @TempDir
    Path dir;

    @Test
    void aFreshBrokerAnswersWithItsOwnClusterIdOnALoopbackRandomPort() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().build().start()) {
            System.out.printf("[measure] EmbeddedKafka broker start (fresh temp dir): %d ms%n",
                    kafka.startupDuration().toMillis());
            assertTrue(kafka.bootstrapServers().startsWith("127.0.0.1:"));
            assertNotEquals(kafka.port(), kafka.controllerPort());
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                assertEquals(kafka.clusterId(), admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void aRestartOnTheSameDirectoryKeepsTheClusterIdAndTheRecords() throws Exception {
        String clusterId;
        int port;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(dir).build().start()) {
            clusterId = kafka.clusterId();
            port = kafka.port();
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            }
            produce(kafka.bootstrapServers(), "kept", "a", "b", "c");
        }
        assertTrue(Files.exists(dir.resolve("meta.properties")), "the directory keeps Kafka's meta.properties");

        try (EmbeddedKafka restarted = EmbeddedKafka.builder().logDir(dir).build().start()) {
            System.out.printf("[measure] EmbeddedKafka broker restart (formatted dir): %d ms%n",
                    restarted.startupDuration().toMillis());
            assertEquals(clusterId, restarted.clusterId());
            assertEquals(port, restarted.port(), "the restart takes the port it had (still free a moment later)");
            assertEquals(List.of("a", "b", "c"), consume(restarted.bootstrapServers(), "kept", 3));
        }
    }

    @Test
    void aRestartWhoseOldControllerPortIsTakenStartsOnFreshPorts() throws Exception {
        int controllerPort;
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(dir).build().start()) {
            controllerPort = kafka.controllerPort();
        }
        // Kafka halts the JVM when its controller cannot bind: this test's JVM would end here without the check
        try (java.net.ServerSocket squatter = new java.net.ServerSocket(controllerPort, 1,
                java.net.InetAddress.getLoopbackAddress());
             EmbeddedKafka restarted = EmbeddedKafka.builder().logDir(dir).build().start()) {
            assertTrue(squatter.isBound());
            assertTrue(restarted.controllerPort() != controllerPort, "a fresh controller port");
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", restarted.bootstrapServers()))) {
                assertEquals(restarted.clusterId(), admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void autoCreationOfTopicsIsOffAndTransactionsWorkOnOneNode() throws Exception {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().build().start();
             Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("tx", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    "bootstrap.servers", kafka.bootstrapServers(),
                    "transactional.id", "tx-test",
                    "max.block.ms", 20_000), new StringSerializer(), new StringSerializer())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("tx", "k", "committed"));
                producer.commitTransaction();
            }
            assertEquals(List.of("committed"), consume(kafka.bootstrapServers(), "tx", 1));
            assertEquals(Set.of("tx"), admin.listTopics().names().get(10, TimeUnit.SECONDS).stream()
                    .filter(name -> !name.startsWith("__")).collect(java.util.stream.Collectors.toSet()));
            assertThrows(Exception.class, () -> produceWithShortTimeout(kafka.bootstrapServers(), "never-created"));
        }
    }

    static void produce(String bootstrap, String topic, String... values) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", bootstrap),
                new StringSerializer(), new StringSerializer())) {
            for (String value : values) {
                producer.send(new ProducerRecord<>(topic, value, value)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static void produceWithShortTimeout(String bootstrap, String topic) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                "bootstrap.servers", bootstrap, "max.block.ms", 2_000), new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "x")).get(10, TimeUnit.SECONDS);
        }
    }

    static List<String> consume(String bootstrap, String topic, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                "bootstrap.servers", bootstrap,
                "group.id", SharedCluster.uniqueName("reader"),
                "auto.offset.reset", "earliest",
                "isolation.level", "read_committed"), new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values;
    }
}
