package io.eventplane.client.usage;

import io.eventplane.usage.NodeUsage;
import io.eventplane.usage.PodUsage;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The latest resource usage the kubelets measured, as metrics-server holds it: one sample per node, each with the
 * node's running pods. What the metrics API serves and the horizontal pod autoscaler reads. Samples older than a few
 * windows (a node that stopped reporting) are not answered.
 */
public interface ResourceUsage {

    /** A pod's usage, with the time and window of the sample it came in and the node that measured it. */
    record PodSample(PodUsage pod, Instant time, Duration window, String node) {
    }

    /** The node's latest fresh sample. */
    Optional<NodeUsage> node(String name);

    /** Every node's latest fresh sample, by node name. */
    List<NodeUsage> nodes();

    /** The pod's usage from its node's latest fresh sample. */
    Optional<PodSample> pod(String namespace, String name);

    /** Nothing measured (a cluster without node-sim, tests). */
    ResourceUsage NONE = new ResourceUsage() {
        @Override
        public Optional<NodeUsage> node(String name) {
            return Optional.empty();
        }

        @Override
        public List<NodeUsage> nodes() {
            return List.of();
        }

        @Override
        public Optional<PodSample> pod(String namespace, String name) {
            return Optional.empty();
        }
    };
}
