package io.eventplane.gateway.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.ObjectStore;
import io.eventplane.client.usage.UsageSamples;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.usage.ContainerUsage;
import io.eventplane.usage.NodeUsage;
import io.eventplane.usage.PodUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class MetricsApiTest {
    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private static ObjectChanged change(String kind, String namespace, String name, SpecificRecord object) {
        return ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("t").setRequestId("r").setTime(NOW).build())
                .setType(ChangeType.CREATED).setKind(kind).setNamespace(namespace).setName(name).setUid("u-" + name)
                .setResourceVersion(1).setObject(object).build();
    }

    private static MetricsApi api() {
        ObjectStore view = new ObjectStore();
        view.apply(change("Node", "", "n1", Node.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("n1")
                .setLabels(Map.of("zone", "a")).build()).build()));
        view.apply(change("Node", "", "n2", Node.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("n2")
                .build()).build()));
        for (String name : List.of("web-1", "db-1")) {
            view.apply(change("Pod", "default", name, Pod.newBuilder().setMetadata(ObjectMeta.newBuilder()
                    .setName(name).setNamespace("default").setUid("u-" + name)
                    .setLabels(Map.of("app", name.substring(0, name.indexOf('-')))).build()).build()));
        }
        UsageSamples samples = new UsageSamples(() -> NOW, Duration.ofSeconds(60));
        samples.put(NodeUsage.newBuilder().setNode("n1").setTime(NOW.minusSeconds(5)).setWindowMillis(15_000)
                .setCpuNanocores(350_000_000).setMemoryBytes(512L << 20)
                .setPods(List.of(pod("web-1", 250_000_000, 64L << 20), pod("db-1", 50_000_000, 128L << 20)))
                .build());
        return new MetricsApi(view, samples, () -> NOW);
    }

    private static PodUsage pod(String name, long cpu, long memory) {
        return PodUsage.newBuilder().setNamespace("default").setName(name).setUid("u-" + name)
                .setContainers(List.of(ContainerUsage.newBuilder().setName("main").setCpuNanocores(cpu)
                        .setMemoryBytes(memory).build())).build();
    }

    @Test
    @DisplayName("NodeMetricsList lists the measured nodes only, in metrics-server's units")
    void nodes() {
        ObjectNode list = api().get(List.of("nodes"), null);
        assertEquals("NodeMetricsList", list.get("kind").asText());
        assertEquals(1, list.get("items").size());
        ObjectNode n1 = (ObjectNode) list.get("items").get(0);
        assertEquals("n1", n1.at("/metadata/name").asText());
        assertEquals("350000000n", n1.at("/usage/cpu").asText());
        assertEquals("524288Ki", n1.at("/usage/memory").asText());
        assertEquals("15s", n1.get("window").asText());
        assertEquals("2026-11-25T09:59:55Z", n1.get("timestamp").asText());
    }

    @Test
    @DisplayName("a node without a sample answers NotFound; a label selector filters nodes")
    void nodeGetAndSelector() {
        assertEquals("NodeMetrics", api().get(List.of("nodes", "n1"), null).get("kind").asText());
        ApiException e = assertThrows(ApiException.class, () -> api().get(List.of("nodes", "n2"), null));
        assertEquals(404, e.status().code());
        assertEquals(0, api().get(List.of("nodes"), "zone=b").get("items").size());
    }

    @Test
    @DisplayName("PodMetrics per namespace, per pod and by label, with each container's usage")
    void pods() {
        MetricsApi api = api();
        assertEquals(2, api.get(List.of("pods"), null).get("items").size());
        ObjectNode web = (ObjectNode) api.get(List.of("namespaces", "default", "pods"), "app=web").get("items").get(0);
        assertEquals("web-1", web.at("/metadata/name").asText());
        assertEquals("main", web.at("/containers/0/name").asText());
        assertEquals("250000000n", web.at("/containers/0/usage/cpu").asText());
        assertEquals("PodMetrics", api.get(List.of("namespaces", "default", "pods", "db-1"), null).get("kind")
                .asText());
        assertEquals(0, api.get(List.of("namespaces", "other", "pods"), null).get("items").size());
    }

    @Test
    @DisplayName("windows print as Go durations")
    void windows() {
        assertEquals("15s", MetricsApi.window(15_000));
        assertEquals("10.5s", MetricsApi.window(10_500));
        assertEquals("1m0s", MetricsApi.window(60_000));
    }
}
