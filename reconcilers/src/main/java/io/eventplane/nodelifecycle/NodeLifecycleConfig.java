package io.eventplane.nodelifecycle;

import java.time.Duration;

/**
 * The node lifecycle controller's settings, with kube-controller-manager's defaults.
 *
 * @param monitorGracePeriod         a node whose Lease is not renewed for this long becomes Ready=Unknown (40 s)
 * @param evictionRate               nodes per second that get the NoExecute taint in a healthy zone (0.1)
 * @param secondaryEvictionRate      the same in a partially disrupted zone of a large cluster (0.01)
 * @param unhealthyZoneThreshold     fraction of not-Ready nodes (at least 3) that makes a zone partially disrupted (0.55)
 * @param largeClusterSizeThreshold  above this many nodes a zone is large; smaller disrupted zones stop evicting (50)
 * @param terminatedPodGcThreshold   terminated pods kept before the oldest are deleted (12,500; 0 turns it off)
 */
public record NodeLifecycleConfig(Duration monitorGracePeriod, double evictionRate, double secondaryEvictionRate,
                                  double unhealthyZoneThreshold, int largeClusterSizeThreshold,
                                  int terminatedPodGcThreshold) {

    public static NodeLifecycleConfig defaults() {
        return new NodeLifecycleConfig(Duration.ofSeconds(40), 0.1, 0.01, 0.55, 50, 12_500);
    }

    public NodeLifecycleConfig withMonitorGracePeriod(Duration d) {
        return new NodeLifecycleConfig(d, evictionRate, secondaryEvictionRate, unhealthyZoneThreshold,
                largeClusterSizeThreshold, terminatedPodGcThreshold);
    }

    public NodeLifecycleConfig withTerminatedPodGcThreshold(int n) {
        return new NodeLifecycleConfig(monitorGracePeriod, evictionRate, secondaryEvictionRate, unhealthyZoneThreshold,
                largeClusterSizeThreshold, n);
    }
}
