package io.eventplane.nodesim;

import java.time.Duration;

/**
 * How the simulated kubelets behave.
 *
 * @param namePrefix         node names are this plus 1..N ({@code node-1})
 * @param startDelayMin      shortest time from ContainerCreating to Running
 * @param startDelayMax      longest such time (the delay is drawn uniformly between the two)
 * @param shutdownDelay      how long a deleted pod takes to stop, at most its grace period
 * @param leaseRenewInterval how often each node renews its Lease (a kubelet: 10 s)
 * @param leaseDurationSeconds the Lease's duration (a kubelet: 40 s)
 * @param retryAfter         when a command sent for a pod shows no effect in the view after this, decide again
 * @param seed               seed of the random delays, for repeatable runs
 */
public record NodeSimSettings(String namePrefix, Duration startDelayMin, Duration startDelayMax, Duration shutdownDelay,
                              Duration leaseRenewInterval, int leaseDurationSeconds, Duration retryAfter, long seed) {

    public static NodeSimSettings defaults() {
        return new NodeSimSettings("node-", Duration.ZERO, Duration.ofMillis(500), Duration.ofMillis(200),
                Duration.ofSeconds(10), 40, Duration.ofSeconds(5), 1L);
    }

    public NodeSimSettings withNamePrefix(String prefix) {
        return new NodeSimSettings(prefix, startDelayMin, startDelayMax, shutdownDelay, leaseRenewInterval,
                leaseDurationSeconds, retryAfter, seed);
    }

    public NodeSimSettings withStartDelay(Duration min, Duration max) {
        return new NodeSimSettings(namePrefix, min, max, shutdownDelay, leaseRenewInterval, leaseDurationSeconds,
                retryAfter, seed);
    }

    public NodeSimSettings withShutdownDelay(Duration delay) {
        return new NodeSimSettings(namePrefix, startDelayMin, startDelayMax, delay, leaseRenewInterval,
                leaseDurationSeconds, retryAfter, seed);
    }

    public NodeSimSettings withLeaseRenewInterval(Duration interval) {
        return new NodeSimSettings(namePrefix, startDelayMin, startDelayMax, shutdownDelay, interval,
                leaseDurationSeconds, retryAfter, seed);
    }
}
