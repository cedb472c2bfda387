package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The example Pod manifests")
class KubeJsonExamplesTest {
    private final KubeJson codec = KubeJson.get();

    private void assertRoundTrip(String yaml) {
        List<String> warnings = new ArrayList<>();
        Pod pod = codec.parseObject(Fixtures.utf8(yaml), Pod.class, FieldValidation.STRICT, warnings);
        assertTrue(warnings.isEmpty(), () -> "warnings: " + warnings);
        JsonNode encoded = codec.encodeObject(pod);
        assertEquals(Fixtures.yamlTree(yaml), Fixtures.normalize(encoded));
        Pod again = codec.parseObject(codec.toJsonBytes(pod), Pod.class, FieldValidation.STRICT, null);
        assertEquals(pod, again);
    }

    @Test
    @DisplayName("myapp-pod with two init containers decodes strictly and encodes back to the same document")
    void myappPodRoundTrips() {
        String yaml = new String(Fixtures.bytes("pod-myapp-pod.yaml"), java.nio.charset.StandardCharsets.UTF_8);
        assertRoundTrip(yaml);
        Pod pod = codec.parseObject(Fixtures.utf8(yaml), Pod.class, FieldValidation.STRICT, null);
        assertEquals(2, pod.getSpec().getInitContainers().size());
        assertEquals("init-mydb", pod.getSpec().getInitContainers().get(1).getName());
        assertEquals("myapp", pod.getMetadata().getLabels().get("app"));
    }

    @Test
    @DisplayName("every complete Pod document of the multi-document pod1 file round trips")
    void completeDocumentsOfPod1RoundTrip() {
        List<String> docs = Fixtures.documents("pod-pod1.yaml");
        int complete = 0;
        for (String doc : docs) {
            JsonNode tree = Fixtures.yamlTree(doc);
            if (tree.path("spec").path("containers").isArray()) {
                assertRoundTrip(doc);
                complete++;
            }
        }
        assertEquals(1, complete);
    }

    @Test
    @DisplayName("the truncated second document of pod1 decodes to a Pod without labels, since null is absent")
    void truncatedDocumentHasNoLabels() {
        String doc = Fixtures.documents("pod-pod1.yaml").get(1);
        Pod pod = codec.parseObject(Fixtures.utf8(doc), Pod.class, FieldValidation.STRICT, null);
        assertEquals("pod2", pod.getMetadata().getName());
        assertNull(pod.getMetadata().getLabels());
        assertNull(pod.getSpec());
    }

    @Test
    @DisplayName("the whole pod1 file is rejected where one document is expected")
    void multiDocumentFileIsRejected() {
        DecodeException e = assertThrows(DecodeException.class,
                () -> codec.parseObject(Fixtures.bytes("pod-pod1.yaml"), Pod.class, FieldValidation.STRICT, null));
        assertTrue(e.getMessage().startsWith("expected a single YAML document, found several"), e.getMessage());
    }

    @Test
    @DisplayName("the mypod placeholder template is rejected with the path of its non-integer maxSkew")
    void placeholderTemplateIsRejected() {
        DecodeException e = assertThrows(DecodeException.class,
                () -> codec.parseObject(Fixtures.bytes("pod-mypod.yaml"), Pod.class, FieldValidation.STRICT, null));
        assertEquals(List.of(
                new FieldError("spec.topologySpreadConstraints[0].maxSkew", "expected integer (int32), got string \"<integer>\""),
                new FieldError("spec.topologySpreadConstraints[0].labelSelector", "expected object, got string \"<object>\"")),
                e.errors());
        assertNotNull(e.getMessage());
    }
}
