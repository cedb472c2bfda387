package io.eventplane.scheduler;

/** The scheduler's decision for one pod. */
public sealed interface Placement {

    /** Bind the pod to {@code node}, the best of {@code feasible} nodes that fit. */
    record Bind(String node, long score, int feasible) implements Placement {
    }

    /**
     * The pod cannot be placed now: {@code PodScheduled=False} with this reason ({@code Unschedulable},
     * {@code SchedulingGated}) and Kubernetes' message ("0/3 nodes are available: 3 Insufficient cpu.").
     */
    record Unschedulable(String reason, String message) implements Placement {
    }
}
