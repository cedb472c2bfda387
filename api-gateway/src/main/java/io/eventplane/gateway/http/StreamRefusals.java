package io.eventplane.gateway.http;

import io.eventplane.gateway.api.ApiResponse;
import io.eventplane.gateway.wire.ApiException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ServerFilter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Refuses a pods/exec, attach or portforward upgrade with an HTTP error status before the handshake, as
 * kube-apiserver does (401, 403, a missing pod or container, a pod not running): clients then report the
 * {@code Status} (kubectl's "Error from server (NotFound)"), and kubectl does not mistake a refusal inside an
 * accepted WebSocket for a broken stream. Micronaut runs filters before its WebSocket handshake; a request without
 * {@code Upgrade} goes on to the router, which answers it "Upgrade request required".
 */
@ServerFilter(patterns = {"/api/v1/namespaces/*/pods/*/exec", "/api/v1/namespaces/*/pods/*/attach",
        "/api/v1/namespaces/*/pods/*/portforward"})
public class StreamRefusals {
    private final GatewayRuntime runtime;

    public StreamRefusals(GatewayRuntime runtime) {
        this.runtime = runtime;
    }

    @RequestFilter
    @Nullable
    public HttpResponse<?> refuse(HttpRequest<?> request) {
        if (!request.getHeaders().contains(HttpHeaders.UPGRADE)) {
            return null;
        }
        String[] segments = request.getPath().split("/"); // "", api, v1, namespaces, ns, pods, name, subresource
        Map<String, List<String>> params = new LinkedHashMap<>();
        for (String key : request.getParameters().names()) {
            params.put(key, new ArrayList<>(request.getParameters().getAll(key)));
        }
        try {
            runtime.router().authorizeStream(ApiController.identified(runtime, request,
                    ApiController.toApiRequest(request, new byte[0])));
            runtime.streams().check(segments[7], segments[4], segments[6], params);
            return null;
        } catch (ApiException e) {
            return ApiController.toHttp(ApiResponse.status(e.status()));
        }
    }
}
