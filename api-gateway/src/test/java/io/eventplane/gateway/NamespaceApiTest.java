package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 16: a namespace's life over HTTP, with the namespace controller running: Terminating on delete, nothing new
 * created in it, its content removed, then the namespace itself; the namespaces that may never be deleted.
 */
class NamespaceApiTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    private static void create(String path, String json) {
        HttpResponse<String> r = f.post(path, json);
        assertEquals(201, r.statusCode(), r.body());
    }

    private static String namespace(String name, String finalizers) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}"
                + (finalizers == null ? "" : ",\"spec\":{\"finalizers\":" + finalizers + "}") + "}";
    }

    private static String configMap(String name) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name + "\"}}";
    }

    @Test
    @DisplayName("default, kube-system and kube-public may never be deleted; kube-node-lease exists too")
    void immortal() {
        for (String name : List.of("default", "kube-system", "kube-public")) {
            HttpResponse<String> r = f.delete("/api/v1/namespaces/" + name, null);
            assertEquals(403, r.statusCode(), r.body());
            assertEquals("namespaces \"" + name + "\" is forbidden: this namespace may not be deleted",
                    json(r).path("message").asText());
            assertEquals("Active", json(f.get("/api/v1/namespaces/" + name)).path("status").path("phase").asText());
        }
        assertEquals(200, f.get("/api/v1/namespaces/kube-node-lease").statusCode());
    }

    @Test
    @DisplayName("delete: Terminating at once; creates refused with Kubernetes' Forbidden and its NamespaceTerminating cause; content and namespace go")
    void terminating() {
        create("/api/v1/namespaces", namespace("doomed", null));
        JsonNode created = json(f.get("/api/v1/namespaces/doomed"));
        assertEquals("[\"kubernetes\"]", created.path("spec").path("finalizers").toString());
        create("/api/v1/namespaces/doomed/configmaps", configMap("settings"));
        // a finalizer of our own holds the ConfigMap, so the namespace stays Terminating until we let it go
        assertEquals(200, f.patch("/api/v1/namespaces/doomed/configmaps/settings", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":[\"example.com/hold\"]}}").statusCode());

        HttpResponse<String> deleted = f.delete("/api/v1/namespaces/doomed", "{\"propagationPolicy\":\"Background\"}");
        assertEquals(200, deleted.statusCode(), deleted.body());
        assertEquals("Terminating", json(deleted).path("status").path("phase").asText());

        HttpResponse<String> again = f.delete("/api/v1/namespaces/doomed", null);
        assertEquals(409, again.statusCode());
        assertEquals("Operation cannot be fulfilled on namespaces \"doomed\": The system is ensuring all content is "
                + "removed from this namespace.  Upon completion, this namespace will automatically be purged by the "
                + "system.", json(again).path("message").asText());

        HttpResponse<String> late = f.post("/api/v1/namespaces/doomed/configmaps", configMap("late"));
        assertEquals(403, late.statusCode(), late.body());
        JsonNode status = json(late);
        assertEquals("Forbidden", status.path("reason").asText());
        assertEquals("configmaps \"late\" is forbidden: unable to create new content in namespace doomed because it "
                + "is being terminated", status.path("message").asText());
        JsonNode cause = status.path("details").path("causes").path(0);
        assertEquals("NamespaceTerminating", cause.path("reason").asText());
        assertEquals("namespace doomed is being terminated", cause.path("message").asText());
        assertEquals("metadata.namespace", cause.path("field").asText());
        f.assertNothingWritten("configmaps", "doomed", "late");

        GatewayFixture.awaitTrue("the conditions name the finalizer holding the ConfigMap", () -> condition("doomed",
                "NamespaceFinalizersRemaining").equals("True SomeFinalizersRemain: Some content in the namespace has "
                + "finalizers remaining: example.com/hold in 1 resource instances"), Duration.ofSeconds(30));
        assertEquals("True SomeResourcesRemain: Some resources are remaining: configmaps. has 1 resource instances",
                condition("doomed", "NamespaceContentRemaining"));

        assertEquals(200, f.patch("/api/v1/namespaces/doomed/configmaps/settings", "application/merge-patch+json",
                "{\"metadata\":{\"finalizers\":null}}").statusCode());
        GatewayFixture.awaitTrue("the namespace goes once empty",
                () -> f.get("/api/v1/namespaces/doomed").statusCode() == 404, Duration.ofSeconds(30));
        assertEquals(404, f.get("/api/v1/namespaces/doomed/configmaps/settings").statusCode());
        assertEquals(404, f.get("/api/v1/namespaces/doomed/serviceaccounts/default").statusCode());
    }

    private static String condition(String namespace, String type) {
        for (JsonNode c : json(f.get("/api/v1/namespaces/" + namespace)).path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c.path("status").asText() + " " + c.path("reason").asText() + ": " + c.path("message").asText();
            }
        }
        return "";
    }

    @Test
    @DisplayName("finalize: a namespace held by a finalizer of its own goes once PUT namespaces/x/finalize empties spec.finalizers")
    void finalizeSubresource() {
        create("/api/v1/namespaces", namespace("held", "[\"example.com/hold\"]"));
        assertEquals(200, f.delete("/api/v1/namespaces/held", null).statusCode());
        GatewayFixture.awaitTrue("the namespace controller's part is done: only our finalizer is left",
                () -> json(f.get("/api/v1/namespaces/held")).path("spec").path("finalizers").toString()
                        .equals("[\"example.com/hold\"]"), Duration.ofSeconds(30));
        assertEquals("Terminating", json(f.get("/api/v1/namespaces/held")).path("status").path("phase").asText());

        HttpResponse<String> plainUpdate = f.put("/api/v1/namespaces/held", namespace("held", "[]"));
        assertEquals(200, plainUpdate.statusCode(), plainUpdate.body());
        assertEquals("[\"example.com/hold\"]", json(plainUpdate).path("spec").path("finalizers").toString(),
                "an update never changes spec.finalizers");

        HttpResponse<String> finalized = f.put("/api/v1/namespaces/held/finalize", namespace("held", "[]"));
        assertEquals(200, finalized.statusCode(), finalized.body());
        GatewayFixture.awaitTrue("the namespace is gone", () -> f.get("/api/v1/namespaces/held").statusCode() == 404,
                Duration.ofSeconds(30));
        assertTrue(f.get("/api/v1/namespaces/held/finalize").statusCode() >= 400);
    }
}
