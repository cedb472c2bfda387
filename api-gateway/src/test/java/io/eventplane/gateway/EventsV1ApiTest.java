package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** events.k8s.io/v1 Event: the same stored events as core/v1, served with the newer field names. */
class EventsV1ApiTest {
    private static final String CORE = "/api/v1/namespaces/default/events";
    private static final String V1 = "/apis/events.k8s.io/v1/namespaces/default/events";
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @Test
    @DisplayName("a core/v1 Event reads as events.k8s.io/v1 (regarding, note, reportingController, deprecated*)")
    void coreEventReadsAsEventsV1() {
        HttpResponse<String> created = f.post(CORE, """
                {"apiVersion":"v1","kind":"Event","metadata":{"name":"nginx.1"},
                 "involvedObject":{"kind":"Pod","name":"nginx","namespace":"default"},
                 "reason":"Scheduled","message":"Successfully assigned default/nginx to node-1","type":"Normal",
                 "source":{"component":"default-scheduler"},"count":2,
                 "firstTimestamp":"2026-01-01T10:00:00Z","lastTimestamp":"2026-01-01T10:01:00Z",
                 "reportingComponent":"default-scheduler"}""");
        assertEquals(201, created.statusCode(), created.body());
        JsonNode e = json(f.get(V1 + "/nginx.1"));
        assertEquals("events.k8s.io/v1", e.path("apiVersion").asText());
        assertEquals("Event", e.path("kind").asText());
        assertEquals("nginx", e.path("regarding").path("name").asText());
        assertEquals("Successfully assigned default/nginx to node-1", e.path("note").asText());
        assertEquals("default-scheduler", e.path("reportingController").asText());
        assertEquals("default-scheduler", e.path("deprecatedSource").path("component").asText());
        assertEquals(2, e.path("deprecatedCount").asInt());
        assertEquals("2026-01-01T10:00:00Z", e.path("deprecatedFirstTimestamp").asText());
        assertFalse(e.has("message") || e.has("involvedObject"), e.toString());
        JsonNode list = json(f.get(V1));
        assertEquals("EventList", list.path("kind").asText());
        assertEquals("events.k8s.io/v1", list.path("apiVersion").asText());
        assertEquals("nginx", list.path("items").get(0).path("regarding").path("name").asText());
    }

    @Test
    @DisplayName("an events.k8s.io/v1 Event written there reads as core/v1; patches use the served names; unknown fields name them")
    void eventsV1WritesAreCoreEvents() {
        HttpResponse<String> created = f.post(V1 + "?fieldValidation=Strict", """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"web.2"},
                 "eventTime":"2026-01-01T10:00:00.123456Z","reportingController":"deployment-controller",
                 "reportingInstance":"kcm-1","action":"Scale","reason":"ScalingReplicaSet",
                 "regarding":{"kind":"Deployment","name":"web","namespace":"default"},
                 "note":"Scaled up replica set web-5d7f9c8b6d to 3","type":"Normal"}""");
        assertEquals(201, created.statusCode(), created.body());
        assertEquals("events.k8s.io/v1", json(created).path("apiVersion").asText());
        JsonNode core = json(f.get(CORE + "/web.2"));
        assertEquals("v1", core.path("apiVersion").asText());
        assertEquals("Scaled up replica set web-5d7f9c8b6d to 3", core.path("message").asText());
        assertEquals("Deployment", core.path("involvedObject").path("kind").asText());
        assertEquals("deployment-controller", core.path("reportingComponent").asText());

        HttpResponse<String> patched = f.patch(V1 + "/web.2", "application/merge-patch+json", "{\"note\":\"Scaled to 4\"}");
        assertEquals(200, patched.statusCode(), patched.body());
        assertEquals("Scaled to 4", json(patched).path("note").asText());
        assertEquals("Scaled to 4", json(f.get(CORE + "/web.2")).path("message").asText());

        HttpResponse<String> unknown = f.post(V1 + "?fieldValidation=Strict", """
                {"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"bad"},"regarding":{"bogus":1}}""");
        assertEquals(400, unknown.statusCode(), unknown.body());
        assertTrue(json(unknown).path("message").asText().contains("unknown field \"regarding.bogus\""), unknown.body());
        HttpResponse<String> wrongVersion = f.post(V1, "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"x\"}}");
        assertEquals(400, wrongVersion.statusCode(), wrongVersion.body());
    }

    @Test
    @DisplayName("discovery serves events.k8s.io/v1 events")
    void discovery() {
        JsonNode group = json(f.get("/apis/events.k8s.io/v1"));
        assertEquals("events", group.path("resources").get(0).path("name").asText());
        assertEquals("Event", group.path("resources").get(0).path("kind").asText());
        boolean listed = false;
        for (JsonNode g : json(f.get("/apis")).path("groups")) {
            listed |= g.path("name").asText().equals("events.k8s.io");
        }
        assertTrue(listed);
    }
}
