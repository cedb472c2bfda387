package io.eventplane.gateway.exec;

import io.eventplane.core.container.ContainerShape;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.Pod;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * {@code pods/portforward} over the WebSocket channel protocol (fabric8's): for the i-th requested port, channel
 * 2i carries data and 2i+1 errors, and each starts with the port number (2 bytes, little endian). Behind a port a
 * container declares ({@code ports[].containerPort}) answers a simulated responder: the bytes the pod declares in
 * {@code sim.eventplane.io/port.<port>}, or an HTTP server naming the pod and container; behind any other port
 * nothing listens, and the error channel says so as the kubelet does.
 */
final class PortForwardSession implements StreamSession {
    public static final String DECLARED = "sim.eventplane.io/port.";
    private final Pod pod;
    private final List<Integer> ports;
    private final StreamSink sink;
    private final Map<Integer, ByteArrayOutputStream> received = new java.util.HashMap<>();

    PortForwardSession(Pod pod, List<Integer> ports, StreamSink sink) throws IOException {
        this.pod = pod;
        this.ports = ports;
        this.sink = sink;
        for (int i = 0; i < ports.size(); i++) {
            byte[] port = {(byte) (ports.get(i) & 0xff), (byte) (ports.get(i) >> 8 & 0xff)};
            sink.send(Channels.frame(2 * i, port));
            sink.send(Channels.frame(2 * i + 1, port));
        }
    }

    @Override
    public synchronized void receive(byte[] message) {
        int channel = Channels.channel(message);
        if (channel < 0 || channel % 2 != 0 || channel / 2 >= ports.size()) {
            return;
        }
        int index = channel / 2;
        int port = ports.get(index);
        ByteArrayOutputStream buffer = received.computeIfAbsent(index, i -> new ByteArrayOutputStream());
        buffer.writeBytes(Channels.data(message));
        try {
            byte[] answer = answer(pod, port, buffer.toByteArray());
            if (answer == null) {
                return; // an HTTP request not complete yet
            }
            buffer.reset();
            if (answer.length == 0) {
                sink.send(Channels.frame(channel + 1, refused(pod, port).getBytes(StandardCharsets.UTF_8)));
            } else {
                sink.send(Channels.frame(channel, answer));
            }
            sink.close(); // one connection per stream, closed by the responder like an HTTP/1.0 server
        } catch (IOException e) {
            sink.close();
        }
    }

    /** What the port answers to {@code input}: null while more is needed, empty when nothing listens there. */
    static byte[] answer(Pod pod, int port, byte[] input) {
        String owner = owner(pod, port);
        if (owner == null) {
            return new byte[0];
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations();
        String declared = annotations == null ? null : annotations.get(DECLARED + port);
        if (declared != null) {
            return declared.getBytes(StandardCharsets.UTF_8);
        }
        String request = new String(input, StandardCharsets.ISO_8859_1);
        if (!request.contains("\r\n\r\n") && !request.contains("\n\n")) {
            return null;
        }
        String body = "pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                + " container " + owner + " port " + port + "\n";
        String head = request.startsWith("HEAD ") ? "" : body;
        return ("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\nConnection: close\r\n\r\n" + head)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The container declaring {@code port}, or null. */
    static String owner(Pod pod, int port) {
        for (ContainerShape c : ContainerShape.all(pod)) {
            for (ContainerPort p : c.ports()) {
                if (p.getContainerPort() != null && p.getContainerPort() == port) {
                    return c.name();
                }
            }
        }
        return null;
    }

    /** The kubelet's message for a port nothing listens on. */
    static String refused(Pod pod, int port) {
        return "error forwarding port " + port + " to pod " + pod.getMetadata().getUid()
                + ", uid : failed to connect to localhost:" + port + " inside namespace: connection refused";
    }

    @Override
    public void closed() {
    }
}
