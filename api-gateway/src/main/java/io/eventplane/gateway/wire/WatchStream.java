package io.eventplane.gateway.wire;

/**
 * A watch response body, pulled by the HTTP layer: each {@link #next()} is one watch event (a JSON line, or a
 * length-framed protobuf event); the HTTP layer may send several in one chunk. Independent of the HTTP server.
 */
public interface WatchStream extends AutoCloseable {

    /**
     * The next chunk, blocking until an event, a bookmark or the end; null when the stream is over (timeout reached,
     * the watcher fell too far behind, or {@link #close()} was called).
     */
    byte[] next() throws InterruptedException;

    /**
     * The next chunk if one is ready now, without waiting; null otherwise. The HTTP layer sends what is ready in one
     * write and one flush, as kube-apiserver flushes a watch only when its queue is empty. Streams that cannot tell
     * answer null (every chunk is then written on its own).
     */
    default byte[] nextAvailable() {
        return null;
    }

    /** The client went away or the server stops: release the subscription. Safe to call more than once. */
    @Override
    void close();
}
