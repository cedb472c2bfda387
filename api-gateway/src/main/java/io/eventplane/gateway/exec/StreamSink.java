package io.eventplane.gateway.exec;

import java.io.IOException;

/** The client end of a stream subresource's WebSocket: binary messages out, then a close. */
public interface StreamSink {
    /** Sends one binary message and waits until it is written (so channel order is kept). */
    void send(byte[] message) throws IOException;

    void close();
}
