package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.PriorityClass;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * scheduling.k8s.io/v1 PriorityClass (ValidatePriorityClass and its update): user classes at most 1000000000,
 * system-* names reserved for the two system classes, value and preemptionPolicy immutable.
 *
 * <p>Not here: "at most one globalDefault class" spans objects; the API's Priority admission checks it, as Kubernetes'
 * admission plugin does.
 */
final class PriorityClassRules implements KindRules<PriorityClass> {
    static final int HIGHEST_USER_DEFINABLE = 1_000_000_000;
    static final String SYSTEM_PREFIX = "system-";
    /** The system classes: name to value (neither is a global default). */
    static final Map<String, Integer> SYSTEM_CLASSES = SystemPriorityClasses.VALUES;
    /** In Kubernetes' order (not sorted), as its message lists them. */
    static final List<String> PREEMPTION_POLICIES = List.of("PreemptLowerPriority", "Never");

    /** SetDefaults_PriorityClass; value is not omitempty in Go, so it is 0 when not given. */
    @Override
    public PriorityClass defaults(PriorityClass pc) {
        PriorityClass.Builder out = PriorityClass.newBuilder(pc);
        if (pc.getValue() == null) {
            out.setValue(0);
        }
        if (pc.getPreemptionPolicy() == null) {
            out.setPreemptionPolicy("PreemptLowerPriority");
        }
        return out.build();
    }

    @Override
    public PriorityClass prepareForCreate(PriorityClass pc, Instant now) {
        return pc;
    }

    @Override
    public List<StatusCause> validate(PriorityClass pc) {
        List<StatusCause> causes = new ArrayList<>();
        String name = pc.getMetadata() == null || pc.getMetadata().getName() == null ? "" : pc.getMetadata().getName();
        int value = pc.getValue() == null ? 0 : pc.getValue();
        boolean globalDefault = Boolean.TRUE.equals(pc.getGlobalDefault());
        if (name.startsWith(SYSTEM_PREFIX)) {
            String error = systemClassError(name, value, globalDefault);
            if (error != null) {
                causes.add(Causes.forbidden("metadata.name", "priority class names with '" + SYSTEM_PREFIX
                        + "' prefix are reserved for system use only. error: " + error));
            }
        } else if (value > HIGHEST_USER_DEFINABLE) {
            causes.add(Causes.forbidden("value", "maximum allowed value of a user defined priority is "
                    + HIGHEST_USER_DEFINABLE));
        }
        String policy = pc.getPreemptionPolicy();
        if (policy != null) {
            if (policy.isEmpty()) {
                causes.add(Causes.required("preemptionPolicy"));
            } else if (!PREEMPTION_POLICIES.contains(policy)) {
                causes.add(Causes.notSupported("preemptionPolicy", policy, PREEMPTION_POLICIES));
            }
        }
        return causes;
    }

    /** IsKnownSystemPriorityClass's error, or null for a known system class with its value. */
    private static String systemClassError(String name, int value, boolean globalDefault) {
        Integer expected = SYSTEM_CLASSES.get(name);
        if (expected == null) {
            return name + " is not a known system priority class";
        }
        if (expected != value) {
            return "value of " + name + " PriorityClass must be " + expected;
        }
        return globalDefault ? "globalDefault of " + name + " PriorityClass must be false" : null;
    }

    /** The system classes always exist: Kubernetes' registry refuses to delete them. */
    @Override
    public Optional<Rejection> refuseDelete(PriorityClass pc) {
        String name = pc.getMetadata() == null ? null : pc.getMetadata().getName();
        if (name != null && SYSTEM_CLASSES.containsKey(name)) {
            return Optional.of(Rejection.forbidden("priorityclasses.scheduling.k8s.io", name,
                    "this is a system priority class and cannot be deleted"));
        }
        return Optional.empty();
    }

    @Override
    public List<StatusCause> validateUpdate(PriorityClass old, PriorityClass updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (!Objects.equals(old.getValue(), updated.getValue())) {
            causes.add(Causes.forbidden("value", "may not be changed in an update."));
        }
        if (!Objects.equals(old.getPreemptionPolicy(), updated.getPreemptionPolicy())) {
            causes.add(Causes.invalid("preemptionPolicy", Objects.toString(updated.getPreemptionPolicy(), "null"),
                    "field is immutable"));
        }
        return causes;
    }
}
