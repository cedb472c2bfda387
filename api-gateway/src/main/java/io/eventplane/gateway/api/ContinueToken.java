package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.Statuses;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque {@code continue} of a paged list: the list's resourceVersion (every page reports it, so a watch from it
 * misses nothing) and the key the next page starts after.
 */
public record ContinueToken(String resourceVersion, String lastKey) {

    public String encode() {
        ObjectNode n = Json.object();
        n.put("v", "meta.k8s.io/v1");
        n.put("rv", resourceVersion);
        n.put("start", lastKey);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Json.bytes(n));
    }

    /** @throws ApiException 400 when the token is not one we issued */
    public static ContinueToken decode(String token) {
        try {
            JsonNode n = Json.MAPPER.readTree(new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8));
            if (!n.path("rv").isTextual() || !n.path("start").isTextual()) {
                throw new IllegalArgumentException("missing fields");
            }
            return new ContinueToken(n.get("rv").textValue(), n.get("start").textValue());
        } catch (Exception e) {
            throw new ApiException(Statuses.badRequest("continue key is not valid: " + e.getMessage()));
        }
    }
}
