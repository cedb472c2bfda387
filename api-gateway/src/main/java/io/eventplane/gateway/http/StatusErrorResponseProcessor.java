package io.eventplane.gateway.http;

import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.response.Error;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * The errors Micronaut answers itself (a body over its size limit, an unroutable request, a method it does not map)
 * become Kubernetes Statuses too, so no client ever sees Micronaut's own error format.
 */
@Singleton
@Replaces(ErrorResponseProcessor.class)
public class StatusErrorResponseProcessor implements ErrorResponseProcessor<byte[]> {

    @Override
    public MutableHttpResponse<byte[]> processResponse(ErrorContext context, MutableHttpResponse<?> response) {
        int code = response.code();
        String message = context.getErrors().stream().map(Error::getMessage).filter(m -> m != null && !m.isEmpty())
                .findFirst().orElse(response.reason());
        KubeStatus status = switch (code) {
            case 400 -> Statuses.badRequest(message);
            case 404 -> Statuses.noSuchResource();
            case 405 -> Statuses.methodNotAllowed();
            case 413 -> Statuses.tooLarge(Statuses.MAX_BODY_BYTES);
            case 415 -> Statuses.unsupportedMediaType(null, List.of("application/json", "application/yaml"));
            default -> code >= 500 ? Statuses.internal("the server could not process the request")
                    : new KubeStatus(code, "BadRequest", message, null);
        };
        return response.contentType(MediaType.APPLICATION_JSON_TYPE).body(Json.bytes(Json.status(status)));
    }
}
