package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.LimitRange;
import io.eventplane.model.PersistentVolume;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Secret;
import io.eventplane.model.Service;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StorageClass;
import io.eventplane.model.discovery.EndpointSlice;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("The kinds every real manifest carries (issue 16): ConfigMap to LimitRange through the codec")
class KubeJsonCoreKindsTest {
    private final KubeJson codec = KubeJson.get();

    static Stream<Arguments> manifests() {
        return Stream.of(
                Arguments.of("core/configmap-game-demo.yaml", Kinds.CONFIG_MAP),
                Arguments.of("core/secret-tls.yaml", Kinds.SECRET),
                Arguments.of("core/serviceaccount-build-robot.yaml", Kinds.SERVICE_ACCOUNT),
                Arguments.of("core/service-my-service.yaml", Kinds.SERVICE),
                Arguments.of("core/endpoints-my-service.yaml", Kinds.ENDPOINTS),
                Arguments.of("core/endpointslice-example-abc.yaml", Kinds.ENDPOINT_SLICE),
                Arguments.of("core/pvc-myclaim.yaml", Kinds.PERSISTENT_VOLUME_CLAIM),
                Arguments.of("core/pv-pv0003.yaml", Kinds.PERSISTENT_VOLUME),
                Arguments.of("core/pv-local.yaml", Kinds.PERSISTENT_VOLUME),
                Arguments.of("core/pv-csi.yaml", Kinds.PERSISTENT_VOLUME),
                Arguments.of("core/storageclass-standard.yaml", Kinds.STORAGE_CLASS),
                Arguments.of("core/priorityclass-high-priority.yaml", Kinds.PRIORITY_CLASS),
                Arguments.of("core/resourcequota-compute-resources.yaml", Kinds.RESOURCE_QUOTA),
                Arguments.of("core/limitrange-cpu-resource-constraint.yaml", Kinds.LIMIT_RANGE));
    }

    @ParameterizedTest(name = "{0}: strict YAML decode, encode back to the same document, and the same object from its JSON")
    @MethodSource("manifests")
    void roundTrips(String file, KindInfo kind) {
        String yaml = new String(Fixtures.bytes(file), StandardCharsets.UTF_8);
        List<String> warnings = new ArrayList<>();
        SpecificRecord object = codec.parseObject(Fixtures.utf8(yaml), kind.type(), FieldValidation.STRICT, warnings);
        assertTrue(warnings.isEmpty(), () -> "warnings: " + warnings);
        assertEquals(Fixtures.yamlTree(yaml), Fixtures.normalize(codec.encodeObject(object)));
        SpecificRecord fromJson = codec.parseObject(codec.toJsonBytes(object), kind.type(), FieldValidation.STRICT, null);
        assertEquals(object, fromJson);
    }

    @Test
    @DisplayName("a Secret's data and a ConfigMap's binaryData are bytes, base64 in JSON; line breaks in base64 are ignored")
    void bytesAreBase64() {
        Secret s = codec.parseObject(Fixtures.utf8("""
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},
                 "data":{"password":"czNjcjN0","wrapped":"aGVsbG8g\\nd29ybGQ="},"stringData":{"user":"admin"}}"""),
                Secret.class, FieldValidation.STRICT, null);
        assertArrayEquals("s3cr3t".getBytes(StandardCharsets.UTF_8), bytes(s.getData().get("password")));
        assertArrayEquals("hello world".getBytes(StandardCharsets.UTF_8), bytes(s.getData().get("wrapped")));
        assertEquals("admin", s.getStringData().get("user"));
        assertEquals("czNjcjN0", codec.encode(s).path("data").path("password").asText());
        ConfigMap cm = codec.parseObject(Fixtures.bytes("core/configmap-game-demo.yaml"), ConfigMap.class,
                FieldValidation.STRICT, null);
        assertEquals(70, cm.getBinaryData().get("logo.png").remaining()); // a 1x1 PNG
    }

    @Test
    @DisplayName("invalid base64 in a Secret's data is a decode error at the key, worded as Go's decoder")
    void invalidBase64() {
        DecodeException e = assertThrows(DecodeException.class, () -> codec.parseObject(Fixtures.utf8("""
                {"apiVersion":"v1","kind":"Secret","metadata":{"name":"s"},"data":{"token":"abc!def","short":"abcde"}}"""),
                Secret.class, FieldValidation.STRICT, null));
        assertEquals(List.of(new FieldError("data[token]", "illegal base64 data at input byte 3"),
                new FieldError("data[short]", "illegal base64 data at input byte 4")), e.errors());
    }

    @Test
    @DisplayName("a StorageClass has top-level fields: a spec is an unknown field in strict mode, dropped with a warning otherwise")
    void storageClassHasNoSpec() {
        byte[] body = Fixtures.utf8("""
                apiVersion: storage.k8s.io/v1
                kind: StorageClass
                metadata: {name: fast}
                provisioner: ebs.csi.aws.com
                spec: {provisioner: ebs.csi.aws.com}
                """);
        DecodeException e = assertThrows(DecodeException.class,
                () -> codec.parseObject(body, StorageClass.class, FieldValidation.STRICT, null));
        assertEquals(List.of(FieldError.unknownField("spec")), e.errors());
        List<String> warnings = new ArrayList<>();
        StorageClass sc = codec.parseObject(body, StorageClass.class, FieldValidation.WARN, warnings);
        assertEquals("ebs.csi.aws.com", sc.getProvisioner());
        assertEquals(1, warnings.size());
    }

    @Test
    @DisplayName("a stored PersistentVolumeClaim's apiVersion and kind are its envelope; a StatefulSet's claim template keeps them")
    void claimEnvelopeAndTemplates() {
        PersistentVolumeClaim pvc = codec.parseObject(Fixtures.bytes("core/pvc-myclaim.yaml"),
                PersistentVolumeClaim.class, FieldValidation.STRICT, null);
        assertNull(pvc.getApiVersion());
        assertNull(pvc.getKind());
        assertEquals("v1", codec.encodeObject(pvc).path("apiVersion").asText());
        assertEquals(List.of("apiVersion", "kind", "metadata", "spec"), names(codec.encodeObject(pvc)));
        DecodeException wrongKind = assertThrows(DecodeException.class, () -> codec.parseObject(
                Fixtures.utf8("{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolume\",\"metadata\":{\"name\":\"x\"}}"),
                PersistentVolumeClaim.class, FieldValidation.STRICT, null));
        assertEquals("kind", wrongKind.errors().get(0).path());
        StatefulSet sts = codec.parseObject(Fixtures.utf8("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db}
                spec:
                  volumeClaimTemplates:
                  - apiVersion: v1
                    kind: PersistentVolumeClaim
                    metadata: {name: data}
                    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                """), StatefulSet.class, FieldValidation.STRICT, null);
        PersistentVolumeClaim template = sts.getSpec().getVolumeClaimTemplates().get(0);
        assertEquals("v1", template.getApiVersion());
        assertEquals("PersistentVolumeClaim", template.getKind());
    }

    @Test
    @DisplayName("typed details: targetPort keeps its int-or-string branch, discovery records are their own, LimitRange's default")
    void typedDetails() {
        Service svc = codec.parseObject(Fixtures.bytes("core/service-my-service.yaml"), Service.class,
                FieldValidation.STRICT, null);
        assertEquals("http-web-svc", svc.getSpec().getPorts().get(0).getTargetPort());
        assertEquals(9376, svc.getSpec().getPorts().get(1).getTargetPort());
        EndpointSlice slice = codec.parseObject(Fixtures.bytes("core/endpointslice-example-abc.yaml"),
                EndpointSlice.class, FieldValidation.STRICT, null);
        assertEquals(80, slice.getPorts().get(0).getPort());
        assertEquals(true, slice.getEndpoints().get(0).getConditions().getReady());
        assertEquals("node-1", slice.getEndpoints().get(0).getHints().getForNodes().get(0).getName());
        LimitRange lr = codec.parseObject(Fixtures.bytes("core/limitrange-cpu-resource-constraint.yaml"),
                LimitRange.class, FieldValidation.STRICT, null);
        assertEquals("500m", lr.getSpec().getLimits().get(0).getDefault$().get("cpu"));
        assertEquals("500m", codec.encode(lr).path("spec").path("limits").get(0).path("default").path("cpu").asText());
        PersistentVolume pv = codec.parseObject(Fixtures.bytes("core/pv-csi.yaml"), PersistentVolume.class,
                FieldValidation.STRICT, null);
        assertEquals("kube-system", pv.getSpec().getCsi().getNodePublishSecretRef().getNamespace());
    }

    private static List<String> names(com.fasterxml.jackson.databind.JsonNode node) {
        List<String> out = new ArrayList<>();
        node.fieldNames().forEachRemaining(out::add);
        return out;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }
}
