package io.eventplane.gateway.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.model.Pod;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProtobufBodiesTest {
    /** The exact body kubectl 1.32 posts for {@code kubectl create namespace demo}. */
    private static final byte[] CREATE_NS_DEMO = HexFormat.of().parseHex(
            "6b3873000a0f0a02763112094e616d657370616365121c0a140a0464656d6f12001a0022002a00320038004200120"
                    + "01a020a001a002200");
    private static final String PROTOBUF = ProtobufBodies.CONTENT_TYPE;

    @Test
    @DisplayName("kubectl create namespace's protobuf body reads as the Namespace it describes, as kubectl's JSON")
    void kubectlCreateNamespace() {
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"demo\"},\"spec\":{},"
                + "\"status\":{}}", ProtobufBodies.decode(CREATE_NS_DEMO, Kinds.NAMESPACE).toString());
    }

    /**
     * Bodies kubectl 1.32 posted for {@code kubectl create <generator>} and the JSON of the same command with
     * {@code --dry-run=client -o json} (src/test/resources/protobuf/kubectl-1.32): both decode to the same object.
     * Status is left out: kubectl's JSON has the non-omitempty zero counters of a PodDisruptionBudget's status that the
     * protobuf reading omits, and a create resets status anyway.
     */
    @ParameterizedTest(name = "kubectl create {0}")
    @ValueSource(strings = {"deployment", "job", "cronjob", "namespace", "service-clusterip", "service-nodeport",
            "configmap", "secret", "serviceaccount", "priorityclass", "quota", "pdb"})
    @DisplayName("every kubectl create generator's protobuf body decodes as the JSON kubectl would send")
    void kubectlGenerators(String name) {
        byte[] json = resource(name + ".json");
        JsonNode manifest = PatchHandler.parseJson(json);
        KindInfo kind = Kinds.served().stream()
                .filter(k -> k.apiVersion().equals(manifest.path("apiVersion").asText())
                        && k.kind().equals(manifest.path("kind").asText()))
                .findFirst().orElseThrow();
        byte[] proto = HexFormat.of().parseHex(new String(resource(name + ".pb.hex")).trim());
        assertEquals(withoutStatus(decode("application/json", json, kind)),
                withoutStatus(decode(PROTOBUF, proto, kind)));
    }

    @Test
    @DisplayName("an explicit zero in a Go pointer field stays: kubectl create deployment --replicas=0")
    void replicasZero() {
        byte[] proto = HexFormat.of().parseHex(new String(resource("deployment.pb.hex")).trim());
        JsonNode json = ProtobufBodies.decode(proto, Kinds.DEPLOYMENT);
        assertEquals(0, json.path("spec").path("replicas").intValue(), json.toString());
        assertTrue(json.path("spec").path("replicas").isInt(), json.toString());
        assertTrue(json.path("spec").path("template").path("spec").path("containers").get(0).path("stdin")
                .isMissingNode(), "a Go value field's false is omitted: " + json);
    }

    @Test
    @DisplayName("a kind without a protobuf message answers 415, garbage 400, and a body of another kind 400 as JSON")
    void refusals() {
        KindInfo custom = new KindInfo("Widget", "example.com", "v1", "widgets", "widget", List.of(), true, false,
                Pod.class);
        ApiException unknownKind = assertThrows(ApiException.class, () -> ProtobufBodies.decode(CREATE_NS_DEMO, custom));
        assertEquals(415, unknownKind.status().code());
        assertTrue(unknownKind.status().message().contains("application/vnd.kubernetes.protobuf (no protobuf message "
                + "is known for widgets; send widgets as JSON)"), unknownKind.status().message());
        assertEquals(400, assertThrows(ApiException.class,
                () -> ProtobufBodies.decode(new byte[]{'k', '8', 's', 0, 0x0a, 0x7f}, Kinds.NAMESPACE)).status().code());
        assertEquals(400, assertThrows(ApiException.class,
                () -> ProtobufBodies.decode("{}".getBytes(), Kinds.NAMESPACE)).status().code());

        ApiException namespaceAsPod = assertThrows(ApiException.class,
                () -> decode(PROTOBUF, CREATE_NS_DEMO, Kinds.POD));
        ApiException namespaceAsPodJson = assertThrows(ApiException.class, () -> decode("application/json",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"demo\"}}".getBytes(), Kinds.POD));
        assertEquals(400, namespaceAsPod.status().code());
        assertEquals(namespaceAsPodJson.status().message(), namespaceAsPod.status().message());

        byte[] deploymentAsV1 = envelope("v1", "Deployment", V1Apps.Deployment.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("web")).build().toByteArray());
        ApiException wrongVersion = assertThrows(ApiException.class,
                () -> decode(PROTOBUF, deploymentAsV1, Kinds.DEPLOYMENT));
        assertEquals(400, wrongVersion.status().code());
        assertTrue(wrongVersion.status().message().contains("apiVersion"), wrongVersion.status().message());
    }

    @Test
    @DisplayName("an envelope without apiVersion and kind takes the URL's, as kube-apiserver's default kind")
    void emptyTypeMeta() {
        byte[] pod = envelope("", "", V1.Pod.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder().setName("p"))
                .build().toByteArray());
        assertEquals("{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\"}}",
                ProtobufBodies.decode(pod, Kinds.POD).toString());
    }

    /** The k8s envelope around an object's message, as client-go writes it. */
    static byte[] envelope(String apiVersion, String kind, byte[] raw) {
        byte[] unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(com.google.protobuf.ByteString.copyFrom(raw)).build().toByteArray();
        byte[] out = new byte[unknown.length + 4];
        System.arraycopy(new byte[]{'k', '8', 's', 0}, 0, out, 0, 4);
        System.arraycopy(unknown, 0, out, 4, unknown.length);
        return out;
    }

    private static SpecificRecord decode(String contentType, byte[] body, KindInfo kind) {
        ApiRequest request = new ApiRequest("POST", "/", Map.of("fieldValidation", List.of("Strict")),
                Map.of("content-type", List.of(contentType)), body);
        return BodyDecoder.object(request, kind).object();
    }

    private static SpecificRecord withoutStatus(SpecificRecord object) {
        return ObjectAccess.hasField(object, "status") ? ObjectAccess.with(object, "status", null) : object;
    }

    private static byte[] resource(String name) {
        try (InputStream in = ProtobufBodiesTest.class.getResourceAsStream("/protobuf/kubectl-1.32/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
