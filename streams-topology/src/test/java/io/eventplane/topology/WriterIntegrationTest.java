package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The writer on a real KRaft broker and a real Apicurio registry, with exactly-once on. */
class WriterIntegrationTest {
    static final Duration WAIT = Duration.ofSeconds(60);
    EventplaneConfig config;
    Path state;
    WriterService writer;
    ObjectView view;
    Outcomes outcomes;
    CommandSender sender;
    Requests requests;
    final Commands commands = new Commands("test");

    @BeforeEach
    void start() throws Exception {
        SharedCluster cluster = SharedCluster.get();
        config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("w" + UUID.randomUUID().toString().substring(0, 8)), 1);
        state = Files.createTempDirectory("writer-state");
        writer = new WriterService(config, state, 20).start();
        view = new ObjectView(config, "test-view").start();
        view.awaitReady(WAIT);
        outcomes = new Outcomes(config, "test-outcomes");
        sender = new CommandSender(config, "test");
        requests = new Requests(sender, outcomes, view);
    }

    @AfterEach
    void stop() {
        sender.close();
        outcomes.close();
        view.close();
        writer.close();
    }

    static Pod pod(String name) {
        return KubeObjects.pod(name).containers(KubeObjects.container("nginx").image("nginx:1.14.2")).build();
    }

    Requests.Result submit(io.eventplane.log.Command c) throws Exception {
        return requests.submit(c, WAIT).get();
    }

    @Test
    @DisplayName("a create is acknowledged with the stored object, and the view already shows it (read-your-writes)")
    void createIsAcknowledgedWithStoredObject() throws Exception {
        Requests.Result r = submit(commands.create(pod("web")));
        assertTrue(r.accepted(), r.outcome().getMessage());
        Pod stored = (Pod) r.object().getObject();
        assertEquals("Pending", stored.getStatus().getPhase());
        assertEquals(stored, view.get("Pod", "default", "web").orElseThrow().getObject());
    }

    @Test
    @DisplayName("a duplicate create and a stale update are rejected with 409 and change nothing")
    void rejectionsChangeNothing() throws Exception {
        Pod created = (Pod) submit(commands.create(pod("web"))).object().getObject();
        Requests.Result dup = submit(commands.create(pod("web")));
        assertFalse(dup.accepted());
        assertEquals(409, dup.outcome().getCode());
        assertEquals("AlreadyExists", dup.outcome().getReason());

        Pod stale = Pod.newBuilder(created).setMetadata(ObjectMeta.newBuilder(created.getMetadata())
                .setResourceVersion("424242").setLabels(Map.of("a", "b")).build()).build();
        Requests.Result conflict = submit(commands.update(stale));
        assertEquals(409, conflict.outcome().getCode());
        assertEquals("Conflict", conflict.outcome().getReason());
        assertEquals(created, view.get("Pod", "default", "web").orElseThrow().getObject());
        assertEquals(1, history("Pod/default/web").size(), "one change in the log: the creation");
    }

    @Test
    @DisplayName("records on the event log are in the Confluent wire format: byte 0 then a schema id the registry resolves")
    void wireFormat() throws Exception {
        submit(commands.create(pod("web")));
        ConsumerRecord<byte[], byte[]> r = rawEvents().get(0);
        assertEquals(0, r.value()[0]);
        int id = java.nio.ByteBuffer.wrap(r.value(), 1, 4).getInt();
        var http = java.net.http.HttpClient.newHttpClient();
        var response = http.send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(config.registryUrl() + "/schemas/ids/" + id)).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        assertTrue(response.body().contains("ObjectChanged"), response.body());
    }

    @Test
    @DisplayName("a poison command is dead-lettered and the writer goes on with the next command")
    void poisonCommand() throws Exception {
        try (KafkaProducer<byte[], byte[]> raw = new KafkaProducer<>(Map.of("bootstrap.servers", config.bootstrapServers()),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            raw.send(new ProducerRecord<>(config.topics().commands(), "Pod/default/x".getBytes(StandardCharsets.UTF_8),
                    "{\"not\":\"avro\"}".getBytes(StandardCharsets.UTF_8))).get();
        }
        assertTrue(submit(commands.create(pod("after-poison"))).accepted());
        List<ConsumerRecord<byte[], byte[]>> dead = read(config.topics().deadLetters(), 1);
        assertEquals("{\"not\":\"avro\"}", new String(dead.get(0).value(), StandardCharsets.UTF_8));
    }

    @Test
    @DisplayName("back-to-back fresh commands are all committed (the second at the next tick), and an idle writer then commits nothing")
    void idleWriterCommitsNothing() throws Exception {
        // The second create comes within a tick of the first's commit: its commit waits for the one-shot tick.
        var first = requests.submit(commands.create(pod("a")), WAIT);
        var second = requests.submit(commands.create(pod("b")), WAIT);
        assertTrue(first.get().accepted());
        assertTrue(second.get().accepted());
        assertTrue(view.get("Pod", "default", "b").isPresent());
        Thread.sleep(300); // the tick, if the interval's commit came first, fires once more
        double before = writer.threadMetrics().get("commit-total");
        Thread.sleep(1500);
        // A punctuation that ran all the time made Kafka Streams commit an empty transaction every interval (20 ms here).
        assertEquals(before, writer.threadMetrics().get("commit-total"), "commits while idle");
        assertTrue(submit(commands.create(pod("c"))).accepted());
        assertTrue(writer.threadMetrics().get("commit-total") > before, "a new command is committed");
    }

    @Test
    @DisplayName("a writer restarted on a lost state directory rebuilds its store from the changelog and decides the same way")
    void restartRebuildsState() throws Exception {
        for (int i = 0; i < 30; i++) {
            sender.send(commands.create(pod("p-" + i)));
        }
        assertTrue(submit(commands.create(pod("last"))).accepted());
        writer.close();
        // Lose the local state entirely: it must come back from the changelog topic.
        try (var walk = Files.walk(state)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        writer = new WriterService(config, state, 20).start();
        Requests.Result dup = submit(commands.create(pod("p-7")));
        assertEquals("AlreadyExists", dup.outcome().getReason(), "the restarted writer still knows p-7");
        Requests.Result fresh = submit(commands.create(pod("p-new")));
        assertTrue(fresh.accepted());
        Set<Long> versions = new HashSet<>();
        for (ObjectChanged c : view.list("Pod", "default")) {
            assertTrue(versions.add(c.getResourceVersion()), "resourceVersions are unique");
        }
        assertEquals(32, view.list("Pod", "default").size());
    }

    @Test
    @DisplayName("POD-12.3 a graceful delete of a bound pod keeps it Terminating; the grace-0 delete removes it")
    void gracefulDelete() throws Exception {
        Pod p = (Pod) submit(commands.create(pod("web"))).object().getObject();
        assertTrue(submit(commands.bind("default", "web", p.getMetadata().getUid(), "node-1")).accepted());
        Requests.Result deleting = submit(commands.delete(Kinds.POD, "default", "web", null, null));
        assertEquals(ChangeType.DELETION_STARTED, deleting.object().getType());
        assertTrue(view.get("Pod", "default", "web").isPresent());
        Requests.Result gone = submit(commands.delete(Kinds.POD, "default", "web", 0L, p.getMetadata().getUid()));
        assertEquals(ChangeType.DELETED, gone.object().getType());
        assertTrue(view.get("Pod", "default", "web").isEmpty());
    }

    private List<ObjectChanged> history(String key) {
        List<ObjectChanged> out = new ArrayList<>();
        try (KafkaConsumer<String, ObjectChanged> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new org.apache.kafka.common.serialization.StringDeserializer(),
                io.eventplane.client.LogSerdes.changes(config).deserializer())) {
            TopicPartition tp = new TopicPartition(config.topics().events(), 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            while (c.position(tp) < end) {
                for (var r : c.poll(Duration.ofMillis(200))) {
                    if (r.key().equals(key)) {
                        out.add(r.value());
                    }
                }
            }
        }
        return out;
    }

    private List<ConsumerRecord<byte[], byte[]>> rawEvents() {
        return read(config.topics().events(), 1);
    }

    private List<ConsumerRecord<byte[], byte[]>> read(String topic, int atLeast) {
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (out.size() < atLeast && System.nanoTime() < deadline) {
                c.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }
}
