package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PodDisruptionBudgetSpec;
import io.eventplane.model.PodDisruptionBudgetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** policy/v1 PodDisruptionBudget validation (workloads.md ). The spec is mutable; nothing is defaulted. */
final class PodDisruptionBudgetRules implements KindRules<PodDisruptionBudget> {
    static final List<String> EVICTION_POLICIES = List.of("AlwaysAllow", "IfHealthyBudget");

    /** The four counters are not omitempty in Kubernetes' status. */
    @Override
    public PodDisruptionBudget prepareForCreate(PodDisruptionBudget pdb, Instant now) {
        return PodDisruptionBudget.newBuilder(pdb).setStatus(PodDisruptionBudgetStatus.newBuilder()
                .setDisruptionsAllowed(0).setCurrentHealthy(0).setDesiredHealthy(0).setExpectedPods(0).build()).build();
    }

    @Override
    public List<StatusCause> validate(PodDisruptionBudget pdb) {
        List<StatusCause> causes = new ArrayList<>();
        PodDisruptionBudgetSpec spec = pdb.getSpec() == null ? new PodDisruptionBudgetSpec() : pdb.getSpec();
        if (spec.getMinAvailable() != null && spec.getMaxUnavailable() != null) {
            causes.add(Causes.invalidShown("spec", "policy.PodDisruptionBudgetSpec{...}",
                    "minAvailable and maxUnavailable cannot be both set"));
        }
        Workloads.intOrPercent("spec.minAvailable", spec.getMinAvailable(), true, causes);
        Workloads.intOrPercent("spec.maxUnavailable", spec.getMaxUnavailable(), true, causes);
        Workloads.wellFormed("spec.selector", spec.getSelector(), causes);
        String policy = spec.getUnhealthyPodEvictionPolicy();
        if (policy != null && !EVICTION_POLICIES.contains(policy)) {
            causes.add(Causes.notSupported("spec.unhealthyPodEvictionPolicy", policy, EVICTION_POLICIES));
        }
        return causes;
    }
}
