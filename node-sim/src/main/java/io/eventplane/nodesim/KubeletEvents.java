package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.model.ObjectReference;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The Events a kubelet of Kubernetes 1.32 records about pods and its node, worded as it words them. Pure. */
public final class KubeletEvents {
    private KubeletEvents() {
    }

    /**
     * A kubelet starting on its node: Starting, then, when it reports the node's status, one event per condition it
     * sets and NodeReady, about the Node as the kubelet refers to it (uid = node name).
     *
     * @param statusReported whether this start reports the node's status (a new node, or one that was not Ready)
     */
    public static List<EventNotice> nodeStarting(String nodeName, boolean statusReported) {
        ObjectReference node = ObjectReferences.node(nodeName);
        List<EventNotice> out = new ArrayList<>();
        out.add(EventNotice.normal(node, "Starting", "Starting kubelet."));
        if (statusReported) {
            for (String status : List.of("NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID")) {
                out.add(EventNotice.normal(node, status, "Node " + nodeName + " status is now: " + status));
            }
            out.add(EventNotice.normal(node, "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods"));
            out.add(EventNotice.normal(node, "NodeReady", "Node " + nodeName + " status is now: NodeReady"));
        }
        return out;
    }

    /** A stable, plausible image size (20-200 MB) derived from the image's name. */
    static long imageSize(String normalizedImage) {
        long h = 1125899906842597L;
        for (byte b : normalizedImage.getBytes(StandardCharsets.UTF_8)) {
            h = 31 * h + b;
        }
        return 20_000_000L + Math.floorMod(h, 180_000_000L);
    }

    /** A duration as Go prints a time.Duration truncated to milliseconds: 0s, 512ms, 1.5s, 2m3.25s. */
    static String go(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms < 1000) {
            return ms + "ms";
        }
        StringBuilder sb = new StringBuilder();
        long hours = ms / 3_600_000;
        long minutes = ms / 60_000 % 60;
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            sb.append(minutes).append('m');
        }
        long seconds = ms / 1000 % 60;
        long fraction = ms % 1000;
        sb.append(seconds);
        if (fraction > 0) {
            String f = String.format("%03d", fraction);
            sb.append('.').append(f.replaceAll("0+$", ""));
        }
        return sb.append('s').toString();
    }
}
