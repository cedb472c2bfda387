package io.eventplane.gateway.http;

import io.micronaut.core.type.Argument;
import io.micronaut.core.type.MutableHeaders;
import io.micronaut.http.ByteBodyHttpResponse;
import io.micronaut.http.ByteBodyHttpResponseWrapper;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.body.ByteBodyFactory;
import io.micronaut.http.body.CloseableByteBody;
import io.micronaut.http.body.ResponseBodyWriter;
import io.micronaut.http.codec.CodecException;
import java.io.OutputStream;
import java.util.concurrent.Executor;

/**
 * Writes a watch as Kubernetes does: a raw chunked body, one JSON watch event per chunk and line. Set explicitly on
 * each watch response: Micronaut would otherwise wrap a streamed JSON body into one JSON array (stack.md pitfall 7).
 */
final class WatchBodyWriter implements ResponseBodyWriter<WatchBody> {
    private final Executor pumps;

    WatchBodyWriter(Executor pumps) {
        this.pumps = pumps;
    }

    @Override
    public ByteBodyHttpResponse<?> write(ByteBodyFactory bodyFactory, HttpRequest<?> request,
                                         MutableHttpResponse<WatchBody> response, Argument<WatchBody> type,
                                         MediaType mediaType, WatchBody body) {
        CloseableByteBody bytes = bodyFactory.adapt(new WatchPublisher(body.stream(), pumps,
                bodyFactory.readBufferFactory()));
        return ByteBodyHttpResponseWrapper.wrap(response, bytes);
    }

    @Override
    public CloseableByteBody writePiece(ByteBodyFactory bodyFactory, HttpRequest<?> request, HttpResponse<?> response,
                                        Argument<WatchBody> type, MediaType mediaType, WatchBody body) {
        throw new CodecException("a watch is written as a whole streamed response, not as a piece");
    }

    @Override
    public void writeTo(Argument<WatchBody> type, MediaType mediaType, WatchBody body, MutableHeaders headers,
                        OutputStream out) {
        throw new CodecException("a watch is written as a streamed response");
    }
}
