package io.eventplane.controllers.disruption;

import io.eventplane.core.meta.Conditions;
import io.eventplane.core.meta.PodStates;
import io.eventplane.core.meta.IntOrPercent;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.Condition;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PodDisruptionBudgetSpec;
import io.eventplane.model.PodDisruptionBudgetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * The disruption controller's decision for one PodDisruptionBudget, as Kubernetes' computes it: the pods its selector
 * matches, how many are expected (the pods themselves for an integer minAvailable; otherwise the scale of their
 * controllers), how many must stay healthy, how many are healthy (Ready, not terminating, not just evicted), and from
 * these {@code disruptionsAllowed} with the DisruptionAllowed condition. Evictions the API granted are kept in
 * {@code disruptedPods} until the pod is gone or {@link #DELETION_TIMEOUT} passed.
 */
public final class DisruptionDecider {
    /** How long an eviction the API granted counts against the budget before the pod must be gone. */
    public static final Duration DELETION_TIMEOUT = Duration.ofMinutes(2);

    /** The new status, and when to look again (an entry of disruptedPods expiring), or null. */
    public record Result(PodDisruptionBudgetStatus status, Instant recheckAt) {
    }

    private DisruptionDecider() {
    }

    /**
     * @param pods           the pods of the budget's namespace
     * @param controllerScale the replicas of a pod's controller (by its owner reference), or null when unknown
     */
    public static Result decide(PodDisruptionBudget pdb, List<Pod> pods, Function<OwnerReference, Integer> controllerScale,
                                Instant now) {
        PodDisruptionBudgetSpec spec = pdb.getSpec();
        List<Pod> matching = new ArrayList<>();
        for (Pod p : pods) {
            Map<String, String> labels = p.getMetadata() == null || p.getMetadata().getLabels() == null ? Map.of()
                    : p.getMetadata().getLabels();
            if (spec != null && spec.getSelector() != null && !LabelSelectors.isEmpty(spec.getSelector())
                    && LabelSelectors.matches(spec.getSelector(), labels) && !PodStates.isTerminal(p)) {
                matching.add(p);
            }
        }
        PodDisruptionBudgetStatus old = pdb.getStatus();
        Map<String, Instant> disrupted = new HashMap<>();
        Instant recheck = null;
        if (old != null && old.getDisruptedPods() != null) {
            for (Map.Entry<String, Instant> e : old.getDisruptedPods().entrySet()) {
                Instant expiry = e.getValue().plus(DELETION_TIMEOUT);
                boolean stillThere = matching.stream().anyMatch(p -> p.getMetadata().getName().equals(e.getKey())
                        && !PodStates.isTerminating(p));
                if (stillThere && expiry.isAfter(now)) {
                    disrupted.put(e.getKey(), e.getValue());
                    recheck = recheck == null || expiry.isBefore(recheck) ? expiry : recheck;
                }
            }
        }
        int expected;
        int desired;
        Object minAvailable = spec == null ? null : spec.getMinAvailable();
        Object maxUnavailable = spec == null ? null : spec.getMaxUnavailable();
        if (minAvailable instanceof Integer min) {
            expected = matching.size();
            desired = min;
        } else {
            expected = expectedFromControllers(matching, controllerScale);
            if (maxUnavailable != null) {
                desired = Math.max(0, expected - IntOrPercent.resolve(maxUnavailable, expected, true));
            } else if (minAvailable != null) {
                desired = IntOrPercent.resolve(minAvailable, expected, true);
            } else {
                desired = expected; // neither given: Kubernetes defaults minAvailable to 1; validation requires one
            }
        }
        int healthy = 0;
        for (Pod p : matching) {
            if (PodStates.isReady(p) && !PodStates.isTerminating(p) && !disrupted.containsKey(p.getMetadata().getName())) {
                healthy++;
            }
        }
        int allowed = Math.max(0, healthy - desired);
        long generation = pdb.getMetadata() == null || pdb.getMetadata().getGeneration() == null ? 0
                : pdb.getMetadata().getGeneration();
        boolean sufficient = allowed > 0;
        Condition previous = old == null ? null : Conditions.find(old.getConditions(), "DisruptionAllowed").orElse(null);
        String status = sufficient ? "True" : "False";
        Instant transition = Conditions.transitionTime(previous, status, now);
        Condition condition = Condition.newBuilder().setType("DisruptionAllowed").setStatus(status)
                .setObservedGeneration(generation).setLastTransitionTime(transition)
                .setReason(sufficient ? "SufficientPods" : "InsufficientPods").setMessage("").build();
        PodDisruptionBudgetStatus next = PodDisruptionBudgetStatus.newBuilder()
                .setObservedGeneration(generation)
                .setDisruptedPods(disrupted.isEmpty() ? null : disrupted)
                .setDisruptionsAllowed(allowed)
                .setCurrentHealthy(healthy)
                .setDesiredHealthy(desired)
                .setExpectedPods(expected)
                .setConditions(List.of(condition))
                .build();
        return new Result(next, recheck);
    }

    /** The sum of the scales of the pods' controllers; a pod without a known controller counts as one. */
    static int expectedFromControllers(List<Pod> pods, Function<OwnerReference, Integer> controllerScale) {
        Set<String> counted = new LinkedHashSet<>();
        int expected = 0;
        for (Pod p : pods) {
            OwnerReference controller = controllerOf(p.getMetadata());
            Integer scale = controller == null ? null : controllerScale.apply(controller);
            if (scale == null) {
                expected++;
            } else if (counted.add(controller.getUid())) {
                expected += scale;
            }
        }
        return expected;
    }

    private static OwnerReference controllerOf(ObjectMeta meta) {
        if (meta == null || meta.getOwnerReferences() == null) {
            return null;
        }
        return meta.getOwnerReferences().stream().filter(o -> Boolean.TRUE.equals(o.getController())).findFirst()
                .orElse(null);
    }

    /** Whether two statuses say the same (so no write is needed). */
    public static boolean same(PodDisruptionBudgetStatus a, PodDisruptionBudgetStatus b) {
        return Objects.equals(a, b);
    }
}
