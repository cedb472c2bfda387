package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.codec.KubeTime;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.auth.authn.ServiceAccountTokens;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.model.ObjectMeta;
import io.kubernetes.client.proto.V1Authentication;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/**
 * {@code serviceaccounts/<name>/token} (the TokenRequest API, {@code kubectl create token}): a signed token for an
 * existing service account, for the asked audiences and lifetime (an hour by default, at least 10 minutes, at most
 * 48 hours here), optionally bound to a pod.
 */
final class TokenRequestHandler {
    static final String API_VERSION = "authentication.k8s.io/v1";
    private static final long DEFAULT_SECONDS = 3600;
    private static final long MIN_SECONDS = 600;
    private static final long MAX_SECONDS = 48 * 3600;

    private final Backend backend;
    private final ServiceAccountTokens tokens;

    TokenRequestHandler(Backend backend, ServiceAccountTokens tokens) {
        this.backend = backend;
        this.tokens = tokens;
    }

    ApiResponse create(ApiRequest request, ResourcePath path) {
        if (tokens == null) {
            throw new ApiException(Statuses.noSuchResource());
        }
        SpecificRecord account = ReadHandler.current(backend.view(), path);
        ObjectMeta accountMeta = ObjectAccess.meta(account);
        ObjectNode body = body(request);
        JsonNode spec = body.path("spec");
        long seconds = spec.path("expirationSeconds").asLong(DEFAULT_SECONDS);
        if (seconds < MIN_SECONDS) {
            throw new ApiException(invalid(path.name(), "spec.expirationSeconds", seconds,
                    "may not specify a duration less than 10 minutes"));
        }
        if (seconds > MAX_SECONDS) {
            throw new ApiException(invalid(path.name(), "spec.expirationSeconds", seconds,
                    "may not specify a duration larger than 2^32 seconds"));
        }
        List<String> audiences = new ArrayList<>();
        spec.path("audiences").forEach(a -> audiences.add(a.asText()));
        String podName = null;
        String podUid = null;
        JsonNode bound = spec.path("boundObjectRef");
        if (bound.isObject() && bound.path("kind").asText().equals("Pod")) {
            podName = bound.path("name").asText();
            SpecificRecord pod = (SpecificRecord) backend.view().get(Kinds.POD.kind(), path.namespace(), podName)
                    .orElseThrow(() -> new ApiException(Statuses.notFound(Kinds.POD, bound.path("name").asText())))
                    .getObject();
            podUid = ObjectAccess.meta(pod).getUid();
        }
        Instant now = backend.clock().instant();
        String token = tokens.issue(path.namespace(), path.name(), accountMeta.getUid(), audiences, now,
                Duration.ofSeconds(seconds), podName, podUid);
        ObjectNode out = Json.object();
        out.put("kind", "TokenRequest");
        out.put("apiVersion", API_VERSION);
        ObjectNode meta = out.putObject("metadata");
        meta.put("name", path.name());
        meta.put("namespace", path.namespace());
        meta.put("creationTimestamp", (String) null);
        ObjectNode outSpec = out.putObject("spec");
        var aud = outSpec.putArray("audiences");
        (audiences.isEmpty() ? ServiceAccountTokens.API_AUDIENCES : audiences).forEach(aud::add);
        outSpec.put("expirationSeconds", seconds);
        if (bound.isObject()) {
            outSpec.set("boundObjectRef", bound);
        } else {
            outSpec.putNull("boundObjectRef");
        }
        ObjectNode status = out.putObject("status");
        status.put("token", token);
        status.put("expirationTimestamp", KubeTime.formatTime(now.plusSeconds(seconds)));
        return ApiResponse.json(201, out);
    }

    private static ObjectNode body(ApiRequest request) {
        if (request.body().length == 0) {
            return Json.object();
        }
        if (ProtobufBodies.CONTENT_TYPE.equals(request.contentType())) {
            return ProtobufBodies.decode(request.body(), V1Authentication.TokenRequest.getDescriptor(), API_VERSION,
                    "TokenRequest");
        }
        try {
            JsonNode n = Json.MAPPER.readTree(request.body());
            if (!n.isObject()) {
                throw new ApiException(Statuses.badRequest("the body is not a TokenRequest object"));
            }
            return (ObjectNode) n;
        } catch (IOException e) {
            throw new ApiException(Statuses.badRequest("cannot decode the TokenRequest: " + e.getMessage()));
        }
    }

    private static KubeStatus invalid(String name, String field, long value, String why) {
        String detail = field + ": Invalid value: " + value + ": " + why;
        return new KubeStatus(422, "Invalid", "TokenRequest.authentication.k8s.io \"" + name + "\" is invalid: "
                + detail, new KubeStatus.Details(name, "authentication.k8s.io", "TokenRequest",
                List.of(new KubeStatus.Cause("FieldValueInvalid", "Invalid value: " + value + ": " + why, field))));
    }
}
