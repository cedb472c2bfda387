package io.eventplane.gateway.table;

import io.eventplane.model.Pod;
import java.time.Instant;
import java.util.List;

/** The READY, STATUS and RESTARTS cells the gateway's Table for a pod carries: what `kubectl get pods -w` prints. */
public final class KubectlPodRow {
    private KubectlPodRow() {
    }

    /** "READY STATUS RESTARTS", the restarts without their "(5s ago)". */
    public static String of(Pod pod) {
        List<Object> cells = new PodColumns().cells(pod, Instant.now());
        String restarts = cells.get(3).toString();
        int space = restarts.indexOf(' ');
        return cells.get(1) + " " + cells.get(2) + " " + (space < 0 ? restarts : restarts.substring(0, space));
    }
}
