package io.eventplane.nodesim;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.decide.PodRules;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The kubelet's node-pressure eviction under memory pressure (POD-14.5), on declared memory use. A pod's use is the
 * annotation {@code sim.eventplane.io/memory-usage} (a quantity, for the whole pod); without it a pod uses exactly
 * its memory requests, so it is not a candidate. Only pods using more than their requests are candidates (POD-14.5);
 * they are taken in this order: lower priority first, then BestEffort before Burstable before Guaranteed, then the
 * larger use above requests, then by name. The kubelet evicts one pod per eviction round while the pressure lasts.
 * Pure.
 */
public final class PressureEviction {
    public static final String USAGE_ANNOTATION = PodBehavior.PREFIX + "memory-usage";

    private PressureEviction() {
    }

    /** The pod to evict among the running pods of a node under memory pressure, if any is a candidate. */
    public static Optional<Pod> next(List<Pod> running) {
        return next(running, PressureEviction::usage);
    }

    /**
     * As {@link #next(List)}, with each pod's memory use in bytes as {@code usage} says (node-sim's last usage sample,
     * which follows time-varying and load-driven declarations).
     */
    public static Optional<Pod> next(List<Pod> running, java.util.function.ToLongFunction<Pod> usage) {
        record Candidate(Pod pod, int priority, int qos, long excess) {
        }
        List<Candidate> candidates = new ArrayList<>();
        for (Pod p : running) {
            long excess = usage.applyAsLong(p) - NodeAdmission.request(p.getSpec(), "memory");
            if (excess > 0) {
                Integer priority = p.getSpec().getPriority();
                candidates.add(new Candidate(p, priority == null ? 0 : priority, qosRank(p), excess));
            }
        }
        return candidates.stream().min(Comparator.comparingInt(Candidate::priority)
                        .thenComparingInt(Candidate::qos)
                        .thenComparing(Comparator.comparingLong(Candidate::excess).reversed())
                        .thenComparing(c -> c.pod().getMetadata().getNamespace() + "/" + c.pod().getMetadata().getName()))
                .map(Candidate::pod);
    }

    /** The pod's declared memory use in bytes (its requests when undeclared or unreadable). */
    static long usage(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        String v = a == null ? null : a.get(USAGE_ANNOTATION);
        if (v == null || !Quantity.isValid(v.trim())) {
            return NodeAdmission.request(pod.getSpec(), "memory");
        }
        return Quantity.parse(v.trim()).value();
    }

    private static int qosRank(Pod pod) {
        String qos = pod.getStatus() != null && pod.getStatus().getQosClass() != null ? pod.getStatus().getQosClass()
                : PodRules.qosClass(pod.getSpec());
        return switch (qos) {
            case "BestEffort" -> 0;
            case "Burstable" -> 1;
            default -> 2;
        };
    }

    /**
     * The pod as the kubelet leaves it after a hard eviction (grace period 0): Failed, reason Evicted, the
     * DisruptionTarget condition (TerminationByKubelet), not ready, and its running containers killed (137).
     */
    public static Pod evicted(Pod pod, Instant now) {
        String message = "The node was low on resource: memory. ";
        PodStatus old = pod.getStatus();
        List<PodCondition> conditions = new ArrayList<>();
        for (PodCondition c : old.getConditions() == null ? List.<PodCondition>of() : old.getConditions()) {
            if (c.getType().equals("DisruptionTarget")) {
                continue;
            }
            boolean readiness = c.getType().equals("Ready") || c.getType().equals("ContainersReady");
            conditions.add(readiness && "True".equals(c.getStatus())
                    ? PodCondition.newBuilder(c).setStatus("False").setReason("PodFailed").setLastTransitionTime(now).build() : c);
        }
        conditions.add(PodCondition.newBuilder().setType("DisruptionTarget").setStatus("True")
                .setReason("TerminationByKubelet").setMessage(message).setLastTransitionTime(now).build());
        return Pod.newBuilder(pod).setStatus(PodStatus.newBuilder(old).setPhase("Failed").setReason("Evicted")
                .setMessage(message).setConditions(conditions)
                .setContainerStatuses(killed(old.getContainerStatuses(), now))
                .setInitContainerStatuses(killed(old.getInitContainerStatuses(), now)).build()).build();
    }

    private static List<ContainerStatus> killed(List<ContainerStatus> statuses, Instant now) {
        if (statuses == null) {
            return null;
        }
        List<ContainerStatus> out = new ArrayList<>();
        for (ContainerStatus s : statuses) {
            if (s.getState() != null && s.getState().getRunning() != null) {
                ContainerStateTerminated t = ContainerStateTerminated.newBuilder().setExitCode(137).setReason("Error")
                        .setStartedAt(s.getState().getRunning().getStartedAt()).setFinishedAt(now)
                        .setContainerID(s.getContainerID()).build();
                out.add(ContainerStatus.newBuilder(s).setState(ContainerState.newBuilder().setTerminated(t).build())
                        .setReady(false).setStarted(false).build());
            } else {
                out.add(s);
            }
        }
        return out;
    }
}
