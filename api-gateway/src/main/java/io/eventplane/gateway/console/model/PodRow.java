package io.eventplane.gateway.console.model;

import java.util.Map;

/**
 * What the console shows and filters of one pod, small enough to hold 150,000 of them: kubectl's STATUS and READY, the
 * node, the controlling owner and the resources it requests (for node allocation). Strings and the label map are the
 * decoded object's own (shared, not copied).
 *
 * @param status   kubectl's STATUS column (Running, ContainerCreating, Terminating, CrashLoopBackOff...)
 * @param owner    the controller owner as {@code Kind/name}, or null
 * @param created  creation time in epoch milliseconds (0 when unknown)
 */
public record PodRow(String key, String namespace, String name, String uid, long resourceVersion, String phase,
                     String status, int ready, int containers, int restarts, String node, String ip, String owner,
                     Map<String, String> labels, long cpuMilli, long memoryBytes, long created) {

    /** Succeeded and Failed pods hold no resources on their node. */
    public boolean terminal() {
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }
}
