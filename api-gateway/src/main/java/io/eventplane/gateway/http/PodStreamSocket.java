package io.eventplane.gateway.http;

import io.eventplane.gateway.exec.Channels;
import io.eventplane.gateway.exec.ContainerStreams;
import io.eventplane.gateway.exec.StreamSession;
import io.eventplane.gateway.exec.StreamSink;
import io.eventplane.gateway.wire.ApiException;
import io.micronaut.http.HttpRequest;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketSession;
import io.micronaut.websocket.annotation.OnClose;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The WebSocket upgrade of pods/exec, pods/attach and pods/portforward (what kubectl and fabric8 use), negotiating
 * {@code v5.channel.k8s.io} or {@code v4.channel.k8s.io}, or for kubectl's port-forward
 * {@code SPDY/3.1+portforward.k8s.io} (SPDY frames tunnelled in binary messages); the streams themselves are
 * {@link io.eventplane.gateway.exec.ContainerStreams}'. Runs on the event loop: nothing here blocks (sends are
 * queued in order, a close waits for the last of them).
 */
// The subresource is constrained: Micronaut routes other requests on a matching path here too.
@ServerWebSocket(value = "/api/v1/namespaces/{namespace}/pods/{name}/{subresource:exec|attach|portforward}",
        subprotocols = Channels.SUBPROTOCOLS)
public class PodStreamSocket {
    private static final String STREAM = "eventplane.stream";
    private final GatewayRuntime runtime;

    @Inject
    public PodStreamSocket(GatewayRuntime runtime) {
        this.runtime = runtime;
    }

    @OnOpen
    public void open(String namespace, String name, String subresource, WebSocketSession session,
                     HttpRequest<?> request) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        for (String key : session.getRequestParameters().names()) {
            params.put(key, new ArrayList<>(session.getRequestParameters().getAll(key)));
        }
        SessionSink sink = new SessionSink(session);
        StreamSession stream;
        try {
            // authenticated and authorized as every other request (kube-apiserver does so before the upgrade)
            runtime.router().authorizeStream(ApiController.identified(runtime, request,
                    ApiController.toApiRequest(request, new byte[0])));
            stream = runtime.streams().open(subresource, namespace, name, params,
                    session.getSubprotocol().orElse(Channels.V4), sink);
        } catch (ApiException e) {
            stream = ContainerStreams.refuse(sink, e.status());
        }
        session.put(STREAM, stream);
    }

    @OnMessage
    public void message(byte[] message, WebSocketSession session) {
        session.get(STREAM, StreamSession.class).ifPresent(s -> s.receive(message));
    }

    @OnClose
    public void close(WebSocketSession session) {
        session.get(STREAM, StreamSession.class).ifPresent(StreamSession::closed);
    }

    /** Sends in order without blocking; a close goes out after the last send. */
    private static final class SessionSink implements StreamSink {
        private final WebSocketSession session;
        private CompletableFuture<?> last = CompletableFuture.completedFuture(null);

        SessionSink(WebSocketSession session) {
            this.session = session;
        }

        @Override
        public synchronized void send(byte[] message) throws IOException {
            if (!session.isOpen()) {
                throw new IOException("the client closed the stream");
            }
            last = session.sendAsync(message);
        }

        @Override
        public synchronized void close() {
            last.whenComplete((ok, error) -> {
                if (session.isOpen()) {
                    session.close(CloseReason.NORMAL);
                }
            });
        }
    }
}
