package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.CronJob;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.Job;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.StatefulSet;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("The example workload manifests")
class KubeJsonWorkloadExamplesTest {
    private final KubeJson codec = KubeJson.get();

    /** Each file with the kind it holds: as the seed has them (decodable ones) and as corrected (corrected/README.md). */
    static Stream<Arguments> roundTrips() {
        return Stream.of(
                Arguments.of("deployment-nginx-deployment.yaml", Kinds.DEPLOYMENT),
                Arguments.of("replicaset-frontend.yaml", Kinds.REPLICA_SET),
                Arguments.of("replicaset-my-repset.yaml", Kinds.REPLICA_SET),
                Arguments.of("statefulset-web.yaml", Kinds.STATEFUL_SET),
                Arguments.of("daemonset-fluentd-elasticsearch.yaml", Kinds.DAEMON_SET),
                Arguments.of("replicationcontroller-nginx.yaml", Kinds.REPLICATION_CONTROLLER),
                Arguments.of("job-hello.yaml", Kinds.JOB),
                Arguments.of("job-pi-with-timeout.yaml", Kinds.JOB),
                Arguments.of("job-pi-with-ttl.yaml", Kinds.JOB),
                Arguments.of("corrected/daemonset-fluentd-elasticsearch.yaml", Kinds.DAEMON_SET),
                Arguments.of("corrected/job-hello.yaml", Kinds.JOB),
                Arguments.of("corrected/job-pi.yaml", Kinds.JOB),
                Arguments.of("corrected/job-pi-with-timeout.yaml", Kinds.JOB),
                Arguments.of("corrected/job-pi-with-ttl.yaml", Kinds.JOB),
                Arguments.of("corrected/cronjob-hello.yaml", Kinds.CRON_JOB));
    }

    @ParameterizedTest(name = "{0} decodes strictly as a {1} and encodes back to the same document")
    @MethodSource("roundTrips")
    void roundTrips(String file, KindInfo kind) {
        String yaml = new String(Fixtures.bytes(file), StandardCharsets.UTF_8);
        List<String> warnings = new ArrayList<>();
        SpecificRecord object = codec.parseObject(Fixtures.utf8(yaml), kind.type(), FieldValidation.STRICT, warnings);
        assertTrue(warnings.isEmpty(), () -> "warnings: " + warnings);
        // JSON null is absent (the seed's truncated "hostPath:" is null): the expected document drops it too.
        assertEquals(withoutNulls(Fixtures.yamlTree(yaml)), Fixtures.normalize(codec.encodeObject(object)));
        SpecificRecord again = codec.parseObject(codec.toJsonBytes(object), kind.type(), FieldValidation.STRICT, null);
        assertEquals(object, again);
    }

    @Test
    @DisplayName("the StatefulSet's volumeClaimTemplates decode as typed PersistentVolumeClaims with a quantity request")
    void statefulSetClaimTemplatesAreTyped() {
        StatefulSet sts = codec.parseObject(Fixtures.bytes("statefulset-web.yaml"), StatefulSet.class,
                FieldValidation.STRICT, null);
        var claim = sts.getSpec().getVolumeClaimTemplates().get(0);
        assertEquals("www", claim.getMetadata().getName());
        assertEquals(List.of("ReadWriteOnce"), claim.getSpec().getAccessModes());
        assertEquals("1Gi", claim.getSpec().getResources().getRequests().get("storage"));
        assertEquals("nginx", sts.getSpec().getServiceName());
    }

    @Test
    @DisplayName("D8: the seed's job-pi (backoffLimit inside the pod spec) is refused with the field's path")
    void jobPiAsInTheSeedIsRefused() {
        DecodeException e = assertThrows(DecodeException.class,
                () -> codec.parseObject(Fixtures.bytes("job-pi.yaml"), Job.class, FieldValidation.STRICT, null));
        assertEquals(List.of("spec.template.spec.backoffLimit"), e.errors().stream().map(FieldError::path).toList());
        Job lenient = codec.parseObject(Fixtures.bytes("job-pi.yaml"), Job.class, FieldValidation.IGNORE, null);
        assertEquals("Never", lenient.getSpec().getTemplate().getSpec().getContainers().get(0).getRestartPolicy());
    }

    @Test
    @DisplayName("CJ-X01: the seed's batch/v1beta1 CronJob is refused where batch/v1 is served")
    void cronJobV1beta1IsRefused() {
        DecodeException e = assertThrows(DecodeException.class,
                () -> codec.parseObject(Fixtures.bytes("cronjob-hello.yaml"), CronJob.class, FieldValidation.STRICT, null));
        assertEquals(List.of(new FieldError("apiVersion", "expected \"batch/v1\", got string \"batch/v1beta1\"")),
                e.errors());
    }

    @Test
    @DisplayName("a DaemonSet's IntOrString fields keep their branch: maxUnavailable 1 stays a number, maxSurge 10% a string")
    void intOrStringKeepsItsBranch() {
        DaemonSet ds = codec.parseObject(Fixtures.utf8("""
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: d}
                spec:
                  updateStrategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 1, maxSurge: "10%"}}
                """), DaemonSet.class, FieldValidation.STRICT, null);
        assertEquals(1, ds.getSpec().getUpdateStrategy().getRollingUpdate().getMaxUnavailable());
        assertEquals("10%", ds.getSpec().getUpdateStrategy().getRollingUpdate().getMaxSurge());
        assertEquals("{\"maxUnavailable\":1,\"maxSurge\":\"10%\"}",
                codec.encode(ds).path("spec").path("updateStrategy").path("rollingUpdate").toString());
    }

    @Test
    @DisplayName("a ControllerRevision's data is the typed template patch, \"$patch\": \"replace\" included")
    void controllerRevisionData() {
        String json = """
                {"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"web-5d7f9c8b6d"},
                 "data":{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"nginx"}},
                  "spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}},"revision":2}""";
        ControllerRevision cr = codec.parseObject(Fixtures.utf8(json), ControllerRevision.class, FieldValidation.STRICT, null);
        assertEquals("replace", cr.getData().getSpec().getTemplate().getPatchDirective());
        assertEquals("nginx:1.27", cr.getData().getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(Fixtures.normalize(Fixtures.yamlTree(json)), Fixtures.normalize(codec.encodeObject(cr)));
        DecodeException e = assertThrows(DecodeException.class, () -> codec.parseObject(
                Fixtures.utf8("{\"data\":{\"spec\":{\"replicas\":3}}}"), ControllerRevision.class, FieldValidation.STRICT, null));
        assertEquals("data.spec.replicas", e.errors().get(0).path());
    }

    @Test
    @DisplayName("a PodDisruptionBudget's minAvailable takes a number or a percentage; disruptedPods maps names to times")
    void podDisruptionBudget() {
        PodDisruptionBudget pdb = codec.parseObject(Fixtures.utf8("""
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: zk}
                spec: {minAvailable: "50%", selector: {matchLabels: {app: zk}}}
                status: {disruptedPods: {zk-0: "2026-01-01T10:00:00Z"}, disruptionsAllowed: 1}
                """), PodDisruptionBudget.class, FieldValidation.STRICT, null);
        assertEquals("50%", pdb.getSpec().getMinAvailable());
        assertEquals(Map.of("zk-0", Instant.parse("2026-01-01T10:00:00Z")), pdb.getStatus().getDisruptedPods());
        assertEquals("2026-01-01T10:00:00Z", codec.encode(pdb).path("status").path("disruptedPods").path("zk-0").asText());
    }

    private static JsonNode withoutNulls(JsonNode node) {
        if (node instanceof ObjectNode o) {
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getValue().isNull()) {
                    it.remove();
                } else {
                    withoutNulls(e.getValue());
                }
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(KubeJsonWorkloadExamplesTest::withoutNulls);
        }
        return node;
    }
}
