package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.gateway.history.HistoryPrinter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The event history of one object, read back from the log. */
class HistoryApiTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @Test
    @DisplayName("the history of a pod lists every change, oldest first, with actor and resourceVersion, even after "
            + "it is gone")
    void podHistory() throws Exception {
        String pods = "/api/v1/namespaces/default/pods";
        assertEquals(201, f.post(pods, pod("audited", null), "User-Agent", "kubectl/v1.32.5 (linux/amd64)").statusCode());
        assertEquals(200, f.patch(pods + "/audited", "application/merge-patch+json",
                "{\"metadata\":{\"labels\":{\"x\":\"1\"}}}").statusCode());
        assertEquals(200, f.delete(pods + "/audited", null).statusCode());
        JsonNode history = json(f.get("/apis/eventplane.io/v1/history/Pod/default/audited"));
        List<String> types = new ArrayList<>();
        history.forEach(e -> types.add(e.path("type").asText()));
        assertEquals(List.of("CREATED", "UPDATED", "DELETED"), types);
        // a gateway on plain HTTP (tests, --insecure-http): the user is system:unsecured whatever the User-Agent says
        assertEquals("system:unsecured", history.get(0).path("actor").asText());
        assertEquals("audited", history.get(0).path("object").path("metadata").path("name").asText());
        assertTrue(history.get(1).path("resourceVersion").asLong() > history.get(0).path("resourceVersion").asLong());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, HistoryPrinter.print(f.url(), "pod/default/audited", new PrintStream(out, true,
                StandardCharsets.UTF_8)));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("CREATED") && printed.contains("DELETED"), printed);

        JsonNode node = json(f.get("/apis/eventplane.io/v1/history/node/_/never-existed"));
        assertEquals(404, node.path("code").asInt());
        JsonNode ns = json(f.get("/apis/eventplane.io/v1/history/namespaces/_/default"));
        assertEquals("CREATED", ns.get(0).path("type").asText());
    }
}
