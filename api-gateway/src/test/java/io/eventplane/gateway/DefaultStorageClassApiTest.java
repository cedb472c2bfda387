package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Issue 16: the DefaultStorageClass admission plugin, over HTTP. */
class DefaultStorageClassApiTest {
    private static final String CLAIMS = "/api/v1/namespaces/default/persistentvolumeclaims";
    private static final String CLASSES = "/apis/storage.k8s.io/v1/storageclasses";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static String claim(String name, String spec, String annotations) {
        return "{\"metadata\":{\"name\":\"" + name + "\"" + (annotations == null ? "" : ",\"annotations\":" + annotations)
                + "},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}"
                + spec + "}}";
    }

    private static JsonNode created(HttpResponse<String> r) {
        assertEquals(201, r.statusCode(), r.body());
        return json(r);
    }

    @Test
    @DisplayName("STS-12: a claim created without class gets the default StorageClass; one naming a class, no class (\"\") "
            + "or the beta annotation keeps what it says; without a default class nothing is set")
    void defaultClass() {
        JsonNode before = created(f.post(CLAIMS, claim("early", "", null)));
        assertFalse(before.path("spec").has("storageClassName"), before.toString());

        created(f.post(CLASSES, "{\"metadata\":{\"name\":\"plain\"},\"provisioner\":\"example.com/disk\"}"));
        created(f.post(CLASSES, "{\"metadata\":{\"name\":\"standard\",\"annotations\":{"
                + "\"storageclass.kubernetes.io/is-default-class\":\"true\"}},\"provisioner\":\"example.com/disk\","
                + "\"volumeBindingMode\":\"WaitForFirstConsumer\"}"));

        assertEquals("standard", created(f.post(CLAIMS, claim("data", "", null))).path("spec")
                .path("storageClassName").asText());
        assertEquals("plain", created(f.post(CLAIMS, claim("named", ",\"storageClassName\":\"plain\"", null)))
                .path("spec").path("storageClassName").asText());
        assertEquals("", created(f.post(CLAIMS, claim("none", ",\"storageClassName\":\"\"", null))).path("spec")
                .path("storageClassName").asText("absent"));
        JsonNode beta = created(f.post(CLAIMS, claim("beta", "",
                "{\"volume.beta.kubernetes.io/storage-class\":\"plain\"}")));
        assertFalse(beta.path("spec").has("storageClassName"), beta.toString());
    }
}
