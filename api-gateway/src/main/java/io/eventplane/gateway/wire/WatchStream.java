package io.eventplane.gateway.wire;

/**
 * A watch response body, pulled one chunk at a time by the HTTP layer: each chunk is one JSON watch event and a
 * newline. Independent of the HTTP server.
 */
public interface WatchStream extends AutoCloseable {

    /**
     * The next chunk, blocking until an event, a bookmark or the end; null when the stream is over (timeout reached,
     * the watcher fell too far behind, or {@link #close()} was called).
     */
    byte[] next() throws InterruptedException;

    /** The client went away or the server stops: release the subscription. Safe to call more than once. */
    @Override
    void close();
}
