package io.eventplane.gateway.http;

import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;
import io.micronaut.http.body.MessageBodyWriter;

/**
 * Puts the raw watch writer on watch responses. It has to happen here: after a route returns, Micronaut replaces the
 * response's body writer with the route's own (a JSON writer), and response filters run after that and before the
 * body is written.
 */
@ServerFilter(ServerFilter.MATCH_ALL_PATTERN)
public class WatchResponseFilter {
    private final WatchBodyWriter writer;

    public WatchResponseFilter(GatewayRuntime runtime) {
        this.writer = new WatchBodyWriter(runtime.watchPumps());
    }

    @ResponseFilter
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void rawWatchBody(MutableHttpResponse<?> response) {
        if (response.getBody().orElse(null) instanceof WatchBody) {
            ((MutableHttpResponse) response).bodyWriter((MessageBodyWriter) writer);
        }
    }
}
