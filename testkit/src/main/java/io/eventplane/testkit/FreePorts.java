package io.eventplane.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Random free TCP ports on the loopback interface.
 *
 * <p>The operating system picks an ephemeral port that nothing listens on; the port is released before it is
 * returned, so a caller must still be ready for a rare race with another process. Within this JVM a port is never
 * handed out twice.
 */
public final class FreePorts {

    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();
    private static final int ATTEMPTS = 100;

    private FreePorts() {
    }

    /** A port on 127.0.0.1 that was free a moment ago and that this JVM has not handed out before. */
    public static int next() {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            int port = bindEphemeral();
            if (HANDED_OUT.add(port)) {
                return port;
            }
        }
        throw new IllegalStateException("no free loopback port found after " + ATTEMPTS + " attempts");
    }

    /**
     * Whether nothing listens on {@code port} of 127.0.0.1 now (it is bound and released at once). Kafka's controller
     * treats a port it cannot bind as a fatal fault and halts the JVM, so a port known from before is checked first.
     */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true); // a port in TIME_WAIT after a kill is free to listen on
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int bindEphemeral() {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind an ephemeral loopback port", e);
        }
    }
}
