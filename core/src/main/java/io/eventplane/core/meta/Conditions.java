package io.eventplane.core.meta;

import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;

/**
 * Status conditions of every kind ({@code PodCondition}, {@code NodeCondition}, {@code DeploymentCondition}, ...): each
 * is an Avro record with {@code type}, {@code status}, {@code reason}, {@code message} and usually
 * {@code lastTransitionTime}, so one set of rules serves all, as apimachinery's meta.SetStatusCondition does. Pure:
 * lists and records are never modified, new ones are returned.
 */
public final class Conditions {
    private Conditions() {
    }

    /** The condition of {@code type}, if any. */
    public static <C extends SpecificRecord> Optional<C> find(List<C> conditions, String type) {
        if (conditions != null) {
            for (C c : conditions) {
                if (type.equals(ObjectAccess.field(c, "type"))) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    /** The status ("True", "False", "Unknown") of the condition of {@code type}, or null when there is none. */
    public static String status(List<? extends SpecificRecord> conditions, String type) {
        if (conditions != null) {
            for (SpecificRecord c : conditions) {
                if (type.equals(ObjectAccess.field(c, "type"))) {
                    return (String) ObjectAccess.field(c, "status");
                }
            }
        }
        return null;
    }

    public static boolean isTrue(List<? extends SpecificRecord> conditions, String type) {
        return "True".equals(status(conditions, type));
    }

    /**
     * {@code conditions} with {@code condition} in place of the one of its type (added last when there is none). When
     * the status does not change, the existing lastTransitionTime is kept (when it has one), so the time says when the
     * status last changed, not when it was last written; a condition whose status changes keeps the time it carries
     * (the caller sets it to now). Every other field, reason, message and the other times among them, is the new
     * condition's. A null list reads as empty; the list given is not modified.
     */
    public static <C extends SpecificRecord> List<C> set(List<C> conditions, C condition) {
        String type = (String) ObjectAccess.field(condition, "type");
        List<C> out = new ArrayList<>();
        boolean replaced = false;
        for (C c : conditions == null ? List.<C>of() : conditions) {
            if (!type.equals(ObjectAccess.field(c, "type"))) {
                out.add(c);
                continue;
            }
            replaced = true;
            out.add(Objects.equals(ObjectAccess.field(c, "status"), ObjectAccess.field(condition, "status"))
                    ? keepTransition(condition, c) : condition);
        }
        if (!replaced) {
            out.add(condition);
        }
        return out;
    }

    /** {@code conditions} without the one of {@code type}. */
    public static <C extends SpecificRecord> List<C> remove(List<C> conditions, String type) {
        List<C> out = new ArrayList<>();
        for (C c : conditions == null ? List.<C>of() : conditions) {
            if (!type.equals(ObjectAccess.field(c, "type"))) {
                out.add(c);
            }
        }
        return out;
    }

    /** Whether two condition lists say the same, ignoring times (a status write that would change nothing else). */
    public static boolean sameIgnoringTimes(List<? extends SpecificRecord> a, List<? extends SpecificRecord> b) {
        List<? extends SpecificRecord> x = a == null ? List.of() : a;
        List<? extends SpecificRecord> y = b == null ? List.of() : b;
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            for (String f : List.of("type", "status", "reason", "message")) {
                if (!Objects.equals(ObjectAccess.field(x.get(i), f), ObjectAccess.field(y.get(i), f))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The lastTransitionTime a condition now reporting {@code status} carries: {@code previous}'s (the condition of its
     * type before) when the status is the same and it has one, else {@code now}. For code that builds its conditions
     * afresh from the previous ones instead of {@link #set setting} them one by one.
     */
    public static Instant transitionTime(SpecificRecord previous, String status, Instant now) {
        if (previous != null && Objects.equals(ObjectAccess.field(previous, "status"), status)) {
            Instant since = transitionTime(previous);
            if (since != null) {
                return since;
            }
        }
        return now;
    }

    private static <C extends SpecificRecord> C keepTransition(C condition, C old) {
        Object since = ObjectAccess.field(old, "lastTransitionTime");
        if (since == null || Objects.equals(since, ObjectAccess.field(condition, "lastTransitionTime"))) {
            return condition;
        }
        return ObjectAccess.with(condition, "lastTransitionTime", since);
    }

    // ---- the two kinds whose conditions everyone reads

    /** A node's Ready status, "Unknown" when it reports none (Kubernetes reads a missing condition as Unknown). */
    public static String nodeReady(Node node) {
        String s = node.getStatus() == null ? null : status(node.getStatus().getConditions(), "Ready");
        return s == null ? "Unknown" : s;
    }

    /** The pod with {@code condition} set (replacing the one of its type), and the phase when one is given. */
    public static Pod withPodCondition(Pod pod, PodCondition condition, String phase) {
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        List<PodCondition> conditions = remove(status.getConditions(), condition.getType());
        conditions.add(condition);
        PodStatus.Builder b = PodStatus.newBuilder(status).setConditions(conditions);
        if (phase != null) {
            b.setPhase(phase);
        }
        return Pod.newBuilder(pod).setStatus(b.build()).build();
    }

    /** When a condition's status last changed: its lastTransitionTime, or null. */
    public static Instant transitionTime(SpecificRecord condition) {
        return (Instant) ObjectAccess.field(condition, "lastTransitionTime");
    }
}
