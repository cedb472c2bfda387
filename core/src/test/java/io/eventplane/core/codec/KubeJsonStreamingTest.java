package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("Writing an object straight to a JSON generator")
class KubeJsonStreamingTest {
    private final KubeJson codec = KubeJson.get();

    static Stream<String> examples() {
        return Stream.of("pod-myapp-pod.yaml", "pod-rich.yaml", "deployment-nginx-deployment.yaml",
                "statefulset-web.yaml", "replicaset-frontend.yaml", "corrected/cronjob-hello.yaml",
                "corrected/daemonset-fluentd-elasticsearch.yaml", "corrected/job-pi.yaml",
                "core/configmap-game-demo.yaml", "core/endpointslice-example-abc.yaml", "core/pv-csi.yaml",
                "core/pvc-myclaim.yaml", "core/secret-tls.yaml", "core/service-my-service.yaml",
                "core/storageclass-standard.yaml", "core/resourcequota-compute-resources.yaml",
                "core/limitrange-cpu-resource-constraint.yaml", "core/priorityclass-high-priority.yaml");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    @DisplayName("gives the same bytes as the encoded tree, for every example kind")
    void sameBytesAsTheTree(String file) throws IOException {
        String yaml = new String(Fixtures.bytes(file), StandardCharsets.UTF_8);
        JsonNode tree = Fixtures.yamlTree(yaml);
        KindInfo kind = Kinds.all().stream()
                .filter(k -> k.kind().equals(tree.path("kind").asText())
                        && k.apiVersion().equals(tree.path("apiVersion").asText()))
                .findFirst().orElseThrow();
        SpecificRecord object = codec.parseObject(Fixtures.utf8(yaml), kind, FieldValidation.IGNORE, null);
        assertSameBytes(kind, object);
    }

    @Test
    @DisplayName("gives the same bytes as the encoded tree for a running Pod's status (times, conditions, numbers)")
    void runningPodStatus() throws IOException {
        Pod pod = codec.parseObject(Fixtures.bytes("pod-myapp-pod.yaml"), Pod.class, FieldValidation.STRICT, null);
        Instant t = Instant.parse("2026-11-26T05:00:00Z");
        pod.setStatus(PodStatus.newBuilder().setPhase("Running").setHostIP("10.0.0.1").setStartTime(t)
                .setConditions(List.of(PodCondition.newBuilder().setType("Ready").setStatus("True")
                        .setLastTransitionTime(t).build()))
                .setContainerStatuses(List.of(ContainerStatus.newBuilder().setName("myapp-container")
                        .setReady(true).setRestartCount(0).build()))
                .build());
        assertSameBytes(Kinds.of(pod), pod);
    }

    private void assertSameBytes(KindInfo kind, SpecificRecord object) throws IOException {
        byte[] fromTree = Fixtures.JSON.writeValueAsBytes(codec.encodeObject(kind, object));
        ByteArrayOutputStream streamed = new ByteArrayOutputStream();
        try (JsonGenerator out = Fixtures.JSON.getFactory().createGenerator(streamed)) {
            codec.writeObject(kind, object, out);
        }
        assertEquals(new String(fromTree, StandardCharsets.UTF_8), streamed.toString(StandardCharsets.UTF_8));
    }
}
