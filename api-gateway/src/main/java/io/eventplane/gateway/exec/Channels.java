package io.eventplane.gateway.exec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import java.util.Arrays;
import java.util.List;

/**
 * The Kubernetes channel protocol over WebSocket ({@code v4.channel.k8s.io}, and {@code v5.channel.k8s.io}, which
 * adds the client's close of a channel): each binary message is one channel byte then data. Channels: 0 stdin, 1
 * stdout, 2 stderr, 3 error (a {@code Status} once the command ends), 4 terminal resize, 255 close (v5).
 */
public final class Channels {
    public static final String V5 = "v5.channel.k8s.io";
    public static final String V4 = "v4.channel.k8s.io";
    /** kubectl 1.31+'s port-forward: SPDY/3.1 frames tunnelled in binary messages (not the channel protocol). */
    public static final String SPDY_PORT_FORWARD = "SPDY/3.1+portforward.k8s.io";
    /** The subprotocols served, most preferred first (the Micronaut handshake picks the client's first of these). */
    public static final String SUBPROTOCOLS = V5 + "," + V4 + "," + SPDY_PORT_FORWARD;
    public static final int STDIN = 0;
    public static final int STDOUT = 1;
    public static final int STDERR = 2;
    public static final int ERROR = 3;
    public static final int RESIZE = 4;
    public static final int CLOSE = 255;

    private Channels() {
    }

    public static byte[] frame(int channel, byte[] data) {
        byte[] out = new byte[data.length + 1];
        out[0] = (byte) channel;
        System.arraycopy(data, 0, out, 1, data.length);
        return out;
    }

    public static int channel(byte[] message) {
        return message.length == 0 ? -1 : message[0] & 0xff;
    }

    public static byte[] data(byte[] message) {
        return message.length == 0 ? message : Arrays.copyOfRange(message, 1, message.length);
    }

    /** The error channel's Status after a command ended (the kubelet's: exit codes other than 0 as a cause). */
    public static byte[] exitStatus(List<String> command, int exitCode) {
        ObjectNode status = Json.object();
        status.putObject("metadata");
        if (exitCode == 0) {
            status.put("status", "Success");
        } else {
            status.put("status", "Failure");
            status.put("message", "command terminated with non-zero exit code: error executing command "
                    + "[" + String.join(" ", command) + "], exit code " + exitCode);
            status.put("reason", "NonZeroExitCode");
            ObjectNode cause = status.putObject("details").putArray("causes").addObject();
            cause.put("reason", "ExitCode");
            cause.put("message", String.valueOf(exitCode));
        }
        return Json.bytes(status);
    }

    /** The error channel's Status for a failure before or while running (an API error, as the kubelet sends it). */
    public static byte[] failure(KubeStatus status) {
        return Json.bytes(Json.status(status));
    }
}
