package io.eventplane.gateway;

import static io.eventplane.gateway.GatewayFixture.json;
import static io.eventplane.gateway.GatewayFixture.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** What a client sees when the writer does not answer. */
class WriterTimeoutApiTest {
    @RegisterExtension
    static final GatewayFixture f = new GatewayFixture();

    @Test
    @DisplayName("a write the writer does not decide in time answers 504 Timeout; reads keep working")
    void writerDown() {
        assertEquals(201, f.post("/api/v1/namespaces/default/pods", pod("before", null)).statusCode());
        f.writer.close();
        HttpResponse<String> r = f.post("/api/v1/namespaces/default/pods?timeout=1s", pod("after", null));
        assertEquals(504, r.statusCode(), r.body());
        assertEquals("Timeout", json(r).path("reason").asText());
        assertEquals("Status", json(r).path("kind").asText());
        assertEquals(200, f.get("/api/v1/namespaces/default/pods/before").statusCode());
    }
}
