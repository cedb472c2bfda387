package io.eventplane.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.client.log.DeadLetter;
import io.eventplane.client.log.LogReader;
import io.eventplane.core.decide.KindRules;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.ObjectMeta;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 item 4: poison records on the command log. Each goes to the dead-letter topic with the reason, the writer
 * goes on (the next write is acknowledged at once: the partition is never blocked), a waiting sender gets an error,
 * and the audit shows it.
 */
class PoisonRecordTest {
    static final String CASE = "4 poison records";
    static final String POISON = "faults.eventplane.io/throw";
    static WriterAndGateway cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = WriterAndGateway.start("poison", throwingDecider());
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The standard rules, but a ConfigMap labelled {@value #POISON} makes the decision throw: a bug, on purpose. */
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

    static String configMap(String name, String labels, String data) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\""
                + (labels == null ? "" : ",\"labels\":" + labels) + "},\"data\":{\"k\":\"" + data + "\"}}";
    }

    /** Creates a ConfigMap through the API and returns how long the acknowledgement took. */
    static Duration goodWrite(String name) throws Exception {
        long t0 = System.nanoTime();
        HttpResponse<String> r = cluster.api.post("/api/v1/namespaces/default/configmaps", configMap(name, null, "v"));
        assertEquals(201, r.statusCode(), r.body());
        return Duration.ofNanos(System.nanoTime() - t0);
    }

    static void sendRaw(byte[] key, byte[] value) throws Exception {
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.config.bootstrapServers(),
                ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            p.send(new ProducerRecord<>(cluster.config.topics().commands(), key, value)).get();
        }
    }

    static List<DeadLetter> deadLetters() {
        List<DeadLetter> out = new ArrayList<>();
        new LogReader<>(cluster.config, cluster.config.topics().deadLetters(), new ByteArrayDeserializer())
                .readAll(r -> out.add(DeadLetter.of(r)));
        return out;
    }

    /** Waits until the dead-letter topic holds {@code n} records. */
    static List<DeadLetter> awaitDeadLetters(int n) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<DeadLetter> found = deadLetters();
        while (found.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(200);
            found = deadLetters();
        }
        return found;
    }

    @Test
    @DisplayName("issue 20 item 4: garbage bytes, an unknown schema id, a throwing decision and oversized records each go to the dead-letter topic with the reason; the writer never stops")
    void poisonRecords() throws Exception {
        goodWrite("before");
        List<String> reasons = new ArrayList<>();

        // 1. Garbage bytes.
        sendRaw("ConfigMap/default/garbage".getBytes(StandardCharsets.UTF_8),
                "this is not a command".getBytes(StandardCharsets.UTF_8));
        Figures.report(CASE, "garbage bytes: next write acknowledged after", Figures.seconds(goodWrite("after-garbage")));
        reasons.add("Undecodable");

        // 2. The Confluent wire format with a schema id the registry never gave.
        sendRaw("ConfigMap/default/unknown-id".getBytes(StandardCharsets.UTF_8),
                ByteBuffer.allocate(16).put((byte) 0).putInt(987_654_321).array());
        Figures.report(CASE, "unknown schema id: next write acknowledged after",
                Figures.seconds(goodWrite("after-unknown-id")));
        reasons.add("Undecodable");

        // 3. A schema-valid command whose decision throws: its sender (the API) gets an error.
        HttpResponse<String> thrown = cluster.api.post("/api/v1/namespaces/default/configmaps",
                configMap("throws", "{\"" + POISON + "\":\"yes\"}", "v"));
        assertEquals(500, thrown.statusCode(), thrown.body());
        assertTrue(thrown.body().contains("a bug in the ConfigMap rules"), thrown.body());
        Figures.report(CASE, "throwing decision: API answer", thrown.statusCode() + " InternalError");
        Figures.report(CASE, "throwing decision: next write acknowledged after",
                Figures.seconds(goodWrite("after-throw")));
        reasons.add("InternalError");

        // 4a. An object over the command log's record size, through the API: refused before the log, 413. (A
        // ConfigMap that big is Kubernetes' 422 first, its data being limited to 1 MiB: a Deployment has no such rule.)
        HttpResponse<String> huge = cluster.api.post("/apis/apps/v1/namespaces/default/deployments",
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"huge\"},\"spec\":{"
                        + "\"selector\":{\"matchLabels\":{\"app\":\"huge\"}},\"template\":{\"metadata\":{\"labels\":"
                        + "{\"app\":\"huge\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"busybox\","
                        + "\"args\":[\"" + "x".repeat(1_200_000) + "\"]}]}}}}");
        assertEquals(413, huge.statusCode(), huge.body());
        Figures.report(CASE, "1.2 MB object through the API: answer", huge.statusCode());

        // 4b. A command that fits the command log but whose change would not fit the event log: the waiting sender
        // gets 413, the command is dead-lettered.
        Command big = new Commands("faults").create(ConfigMap.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("big").setNamespace("default").build())
                .setData(Map.of("k", "x".repeat(1_030_000))).build());
        try (ObjectView view = new ObjectView(cluster.config, "faults-" + UUID.randomUUID()).start();
             Outcomes outcomes = new Outcomes(cluster.config, "faults-" + UUID.randomUUID());
             CommandSender sender = new CommandSender(cluster.config, "faults")) {
            view.awaitReady(Duration.ofSeconds(60));
            Requests.Result result = new Requests(sender, outcomes, view).submit(big, Duration.ofSeconds(30)).get();
            assertFalse(result.accepted());
            assertEquals(413, result.outcome().getCode(), result.outcome().getMessage());
            Figures.report(CASE, "1.03 MB command on ep.commands: the sender's answer",
                    result.outcome().getCode() + " " + result.outcome().getReason());
        }
        Figures.report(CASE, "oversized command: next write acknowledged after",
                Figures.seconds(goodWrite("after-big")));
        reasons.add("RequestEntityTooLarge");

        // 4c. Garbage as large as the command log takes: dead-lettered without its bytes (the dead letter must fit).
        sendRaw("ConfigMap/default/huge-garbage".getBytes(StandardCharsets.UTF_8), new byte[1_040_000]);
        Figures.report(CASE, "1.04 MB of garbage: next write acknowledged after",
                Figures.seconds(goodWrite("after-huge-garbage")));
        reasons.add("Undecodable");

        List<DeadLetter> dead = awaitDeadLetters(reasons.size());
        assertEquals(reasons, dead.stream().map(DeadLetter::reason).toList(), dead.toString());
        dead.forEach(d -> assertFalse(d.message().isEmpty(), "every dead letter says why: " + d));
        assertTrue(dead.get(1).message().contains("987654321"), dead.get(1).message());
        Figures.report(CASE, "poison records sent / dead-lettered", reasons.size() + " / " + dead.size());

        // The log has none of them, and every good write.
        LogCheck log = LogCheck.read(cluster.config);
        List<String> names = log.changes.stream().filter(c -> c.getKind().equals("ConfigMap"))
                .map(c -> c.getName()).toList();
        assertEquals(List.of("before", "after-garbage", "after-unknown-id", "after-throw", "after-big",
                "after-huge-garbage"), names);

        // eventplane audit shows each: the rejected outcomes and the dead letters no outcome answered.
        JsonNode audit = cluster.api.getJson("/apis/eventplane.io/v1/audit?outcome=rejected&kind=ConfigMap");
        List<String> audited = new ArrayList<>();
        audit.path("items").forEach(e -> audited.add(e.path("name").asText() + " " + e.path("code").asInt() + " "
                + e.path("reason").asText()));
        assertTrue(audited.contains("garbage 400 Undecodable"), audited.toString());
        assertTrue(audited.contains("unknown-id 400 Undecodable"), audited.toString());
        assertTrue(audited.contains("throws 500 InternalError"), audited.toString());
        assertTrue(audited.contains("big 413 RequestEntityTooLarge"), audited.toString());
        assertTrue(audited.contains("huge-garbage 400 Undecodable"), audited.toString());
        Figures.report(CASE, "shown by eventplane audit", audited.size() + " rejected entries: " + audited);
    }
}
