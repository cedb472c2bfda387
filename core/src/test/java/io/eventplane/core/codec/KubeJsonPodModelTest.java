package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.model.Container;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Toleration;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.avro.Schema;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The typed Pod model")
class KubeJsonPodModelTest {
    private final KubeJson codec = KubeJson.get();

    /** POD-1.17's field inventory; a trailing segment applies to every element of an array or value of a map. */
    private static final List<String> POD_1_17 = List.of(
            "metadata.name", "metadata.namespace", "metadata.uid", "metadata.creationTimestamp", "metadata.generation",
            "metadata.deletionTimestamp", "metadata.finalizers", "metadata.labels", "metadata.annotations",
            "metadata.ownerReferences",
            "spec.containers", "spec.initContainers", "spec.ephemeralContainers", "spec.restartPolicy",
            "spec.activeDeadlineSeconds", "spec.tolerations", "spec.terminationGracePeriodSeconds",
            "spec.readinessGates.conditionType", "spec.topologySpreadConstraints", "spec.nodeSelector",
            "spec.affinity.nodeAffinity", "spec.os.name", "spec.hostUsers", "spec.hostNetwork", "spec.hostIPC",
            "spec.hostPID", "spec.securityContext", "spec.volumes", "spec.volumes.emptyDir",
            "spec.containers.name", "spec.containers.image", "spec.containers.command", "spec.containers.args",
            "spec.containers.ports.containerPort", "spec.containers.resources.requests",
            "spec.containers.resources.limits", "spec.containers.volumeMounts.mountPath",
            "spec.containers.lifecycle.postStart", "spec.containers.lifecycle.preStop",
            "spec.containers.lifecycle.stopSignal", "spec.containers.livenessProbe", "spec.containers.readinessProbe",
            "spec.containers.startupProbe", "spec.initContainers.restartPolicy", "spec.containers.securityContext",
            "status.phase", "status.conditions", "status.containerStatuses.containerID",
            "status.containerStatuses.ready", "status.containerStatuses.started", "status.containerStatuses.state",
            "status.containerStatuses.restartCount", "status.initContainerStatuses", "status.hostIP",
            "status.hostIPs", "status.podIP", "status.podIPs", "status.qosClass");

    private Pod rich() {
        return codec.parseObject(Fixtures.bytes("pod-rich.yaml"), Pod.class, FieldValidation.STRICT, null);
    }

    @Test
    @DisplayName("POD-1.17: every field of the Pod field inventory is in the schema and survives a round trip")
    void everyPod117FieldIsModelled() {
        JsonNode encoded = codec.encodeObject(rich());
        List<String> missing = new ArrayList<>();
        for (String path : POD_1_17) {
            if (!inSchema(Pod.getClassSchema(), path)) {
                missing.add(path + " (schema)");
            } else if (!present(encoded, path.split("\\."), 0)) {
                missing.add(path + " (value)");
            }
        }
        assertEquals(List.of(), missing);
    }

    @Test
    @DisplayName("a Pod using most of PodSpec and PodStatus round trips to the same document")
    void richPodRoundTrips() {
        Pod pod = rich();
        String yaml = new String(Fixtures.bytes("pod-rich.yaml"), StandardCharsets.UTF_8);
        assertEquals(Fixtures.yamlTree(yaml), Fixtures.normalize(codec.encodeObject(pod)));
        assertEquals(pod, codec.parseObject(codec.toJsonBytes(pod), Pod.class, FieldValidation.STRICT, null));
    }

    @Test
    @DisplayName("probes, int-or-string ports, quantities, tolerations, affinity and topology spread decode to typed values")
    void richPodIsTyped() {
        PodSpec spec = rich().getSpec();
        Container web = spec.getContainers().get(0);
        assertEquals(8080, web.getLivenessProbe().getHttpGet().getPort());
        assertEquals("http", web.getReadinessProbe().getTcpSocket().getPort());
        assertEquals(9090, web.getStartupProbe().getGrpc().getPort());
        assertEquals(15L, web.getLivenessProbe().getTerminationGracePeriodSeconds());
        assertEquals("admin", spec.getContainers().get(1).getLifecycle().getPreStop().getHttpGet().getPort());
        assertEquals(5L, web.getLifecycle().getPreStop().getSleep().getSeconds());
        assertEquals("500m", web.getResources().getLimits().get("cpu"));
        assertEquals(500, Quantity.parse(web.getResources().getLimits().get("cpu")).milliValue());
        assertEquals(512L * 1024 * 1024, Quantity.parse(web.getResources().getLimits().get("memory")).value());
        Toleration t = spec.getTolerations().get(0);
        assertEquals("Exists", t.getOperator());
        assertEquals(300L, t.getTolerationSeconds());
        assertEquals("zone-b", spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms().get(0).getMatchExpressions().get(0).getValues().get(1));
        assertEquals(List.of("tenant"), spec.getAffinity().getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution().get(0).getPodAffinityTerm().getMismatchLabelKeys());
        assertEquals(2, spec.getTopologySpreadConstraints().get(0).getMinDomains());
        assertEquals("web", spec.getEphemeralContainers().get(0).getTargetContainerName());
        assertEquals(List.of(4000L, 5000L), spec.getSecurityContext().getSupplementalGroups());
        assertEquals("1Gi", spec.getVolumes().get(10).getEphemeral().getVolumeClaimTemplate().getSpec()
                .getResources().getRequests().get("storage"));
        assertEquals(Instant.parse("2026-11-21T10:00:04Z"),
                rich().getStatus().getContainerStatuses().get(0).getState().getRunning().getStartedAt());
    }

    @Test
    @DisplayName("encoding follows schema order, omits nulls and empty lists and maps, and keeps empty objects")
    void encodingIsOmitEmptyInSchemaOrder() {
        String yaml = """
                kind: Pod
                apiVersion: v1
                spec:
                  volumes:
                  - emptyDir: {}
                    name: scratch
                  containers:
                  - ports: []
                    env: []
                    image: nginx
                    name: web
                    resources: {}
                metadata:
                  labels: {}
                  name: p
                  creationTimestamp: null
                status: {}
                """;
        Pod pod = codec.parseObject(Fixtures.utf8(yaml), Pod.class, FieldValidation.STRICT, null);
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"},\"spec\":{\"volumes\":"
                        + "[{\"name\":\"scratch\",\"emptyDir\":{}}],\"containers\":[{\"name\":\"web\",\"image\":\"nginx\","
                        + "\"resources\":{}}]},\"status\":{}}",
                new String(codec.toJsonBytes(pod), StandardCharsets.UTF_8));
        assertTrue(pod.getSpec().getContainers().get(0).getPorts().isEmpty()); // empty is kept in the record
        assertEquals(null, pod.getMetadata().getCreationTimestamp());
    }

    @Test
    @DisplayName("encoding never modifies the record it reads, and builder copies compare equal")
    void encodingDoesNotMutate() {
        Pod pod = rich();
        Pod copy = Pod.newBuilder(pod).build();
        ObjectNode encoded = codec.encode(pod);
        encoded.remove("spec");
        assertEquals(copy, pod);
        assertNotNull(pod.getSpec());
    }

    @Test
    @DisplayName("JSON numbers in quantity fields are accepted and kept in their written form")
    void numericQuantitiesAreStrings() {
        String json = """
                {"spec":{"containers":[{"name":"a","resources":{"limits":{"cpu":0.5,"memory":1073741824},
                 "requests":{"cpu":2,"memory":"  64Mi "}}}],"overhead":{"cpu":1.5e3}}}""";
        Pod pod = codec.parseObject(Fixtures.utf8(json), Pod.class, FieldValidation.STRICT, null);
        Container c = pod.getSpec().getContainers().get(0);
        assertEquals("0.5", c.getResources().getLimits().get("cpu"));
        assertEquals("1073741824", c.getResources().getLimits().get("memory"));
        assertEquals("2", c.getResources().getRequests().get("cpu"));
        assertEquals("64Mi", c.getResources().getRequests().get("memory"));
        assertEquals("1500", pod.getSpec().getOverhead().get("cpu"));
    }

    @Test
    @DisplayName("maps keep the order their keys were written in")
    void mapsKeepInsertionOrder() {
        String json = "{\"metadata\":{\"labels\":{\"z\":\"1\",\"a\":\"2\",\"m\":\"3\"}}}";
        Pod pod = codec.parseObject(Fixtures.utf8(json), Pod.class, FieldValidation.STRICT, null);
        assertEquals(List.of("z", "a", "m"), new ArrayList<>(pod.getMetadata().getLabels().keySet()));
        Iterator<String> names = codec.encode(pod).get("metadata").get("labels").fieldNames();
        assertEquals("z", names.next());
        assertEquals("a", names.next());
    }

    @Test
    @DisplayName("the quantity marker sits on the string type of resource maps, so the codec needs no field list")
    void quantityMarkerIsOnTheMapValueType() {
        Schema requirements = io.eventplane.model.ResourceRequirements.getClassSchema();
        Schema limits = requirements.getField("limits").schema().getTypes().get(1);
        assertEquals(Schema.Type.MAP, limits.getType());
        assertEquals("quantity", limits.getValueType().getProp("k8s"));
        assertFalse(io.eventplane.model.Container.getClassSchema().getField("image").schema().getTypes().get(1)
                .getObjectProps().containsKey("k8s"));
    }

    private static boolean inSchema(Schema schema, String path) {
        Schema s = schema;
        for (String segment : path.split("\\.")) {
            s = unwrap(s);
            if (s.getType() != Schema.Type.RECORD || s.getField(segment) == null) {
                return false;
            }
            s = s.getField(segment).schema();
        }
        return true;
    }

    private static Schema unwrap(Schema s) {
        while (true) {
            switch (s.getType()) {
                case UNION -> s = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).findFirst().orElseThrow();
                case ARRAY -> s = s.getElementType();
                case MAP -> s = s.getValueType();
                default -> {
                    return s;
                }
            }
        }
    }

    /** Whether some element along the path holds a value (arrays: any element). */
    private static boolean present(JsonNode node, String[] path, int i) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return false;
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                if (present(element, path, i)) {
                    return true;
                }
            }
            return false;
        }
        return i == path.length || present(node.get(path[i]), path, i + 1);
    }
}
