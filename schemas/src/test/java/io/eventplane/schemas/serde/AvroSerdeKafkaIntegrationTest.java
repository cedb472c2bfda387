package io.eventplane.schemas.serde;

import static io.eventplane.schemas.serde.TestRecords.widget;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.eventplane.schemas.serde.testing.Widget;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Records produced with the serde through the real broker carry ids the real registry resolves. */
@ExtendWith(SharedClusterExtension.class)
class AvroSerdeKafkaIntegrationTest {

    @Test
    void producedWidgetsAreReadBackAndTheirBytesCarryARegisteredId(SharedCluster cluster) throws Exception {
        String topic = SharedCluster.uniqueName("widgets");
        cluster.createTopics(topic);
        Map<String, Object> serdeConfig = Map.of(SerdeConfig.SCHEMA_REGISTRY_URL, cluster.registryUrl());
        List<Widget> sent = IntStream.range(0, 5).mapToObj(i -> widget("widget-" + i, i)).toList();

        AvroSerializer<Widget> serializer = new AvroSerializer<>();
        serializer.configure(serdeConfig, false);
        try (KafkaProducer<String, Widget> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", cluster.bootstrapServers(), "acks", "all"),
                new StringSerializer(), serializer)) {
            for (Widget widget : sent) {
                producer.send(new ProducerRecord<>(topic, widget.getName(), widget)).get(30, TimeUnit.SECONDS);
            }
        }

        List<byte[]> raw = consume(cluster, topic, new ByteArrayDeserializer(), sent.size());
        try (RestSchemaRegistryClient fresh = new RestSchemaRegistryClient(cluster.registryUrl())) {
            for (byte[] bytes : raw) {
                assertEquals(0, bytes[0], "magic byte");
                assertEquals(Widget.getClassSchema(), fresh.getById(WireFormat.schemaId(bytes)));
            }
        }

        AvroDeserializer<Widget> deserializer = new AvroDeserializer<>(Widget.class);
        deserializer.configure(serdeConfig, false);
        assertEquals(sent, consume(cluster, topic, deserializer, sent.size()));
    }

    private static <V> List<V> consume(SharedCluster cluster, String topic, Deserializer<V> values, int expected) {
        List<V> received = new ArrayList<>();
        try (KafkaConsumer<String, V> consumer = new KafkaConsumer<>(Map.of(
                "bootstrap.servers", cluster.bootstrapServers(),
                "group.id", SharedCluster.uniqueName("reader"),
                "auto.offset.reset", "earliest"), new StringDeserializer(), values)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (received.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, V> record : consumer.poll(Duration.ofMillis(200))) {
                    received.add(record.value());
                }
            }
        }
        return received;
    }
}
