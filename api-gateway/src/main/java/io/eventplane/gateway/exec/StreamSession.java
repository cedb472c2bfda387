package io.eventplane.gateway.exec;

/** One open exec, attach or port-forward stream: what the client sends, and its going away. */
public interface StreamSession {
    void receive(byte[] message);

    /** The client closed the connection: stop whatever runs for it. */
    void closed();
}
