package io.eventplane.testkit.objects;

import io.eventplane.model.LabelSelector;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PodDisruptionBudgetSpec;
import io.eventplane.model.PodDisruptionBudgetStatus;

/** A PodDisruptionBudget in namespace default selecting app=&lt;name&gt;; minAvailable and maxUnavailable unset. */
public final class PodDisruptionBudgetBuilder extends MetaBuilder<PodDisruptionBudgetBuilder> {
    private final PodDisruptionBudgetSpec.Builder spec = PodDisruptionBudgetSpec.newBuilder();
    private LabelSelector selector;
    private PodDisruptionBudgetStatus status;

    PodDisruptionBudgetBuilder(String name) {
        super(name, "default");
        selector = KubeObjects.matchLabels("app", name);
    }

    /** An Integer, a percentage String ("50%") or null. */
    public PodDisruptionBudgetBuilder minAvailable(Object intOrPercent) {
        spec.setMinAvailable(intOrPercent);
        return this;
    }

    /** An Integer, a percentage String ("50%") or null. */
    public PodDisruptionBudgetBuilder maxUnavailable(Object intOrPercent) {
        spec.setMaxUnavailable(intOrPercent);
        return this;
    }

    /** The selector's matchLabels, given as key, value, key, value... */
    public PodDisruptionBudgetBuilder selector(String... keysAndValues) {
        return selector(KubeObjects.matchLabels(keysAndValues));
    }

    /** The selector (null: none, which selects no pods). */
    public PodDisruptionBudgetBuilder selector(LabelSelector selector) {
        this.selector = selector;
        return this;
    }

    /** IfHealthyBudget or AlwaysAllow. */
    public PodDisruptionBudgetBuilder unhealthyPodEvictionPolicy(String policy) {
        spec.setUnhealthyPodEvictionPolicy(policy);
        return this;
    }

    public PodDisruptionBudgetBuilder status(PodDisruptionBudgetStatus status) {
        this.status = status;
        return this;
    }

    public PodDisruptionBudget build() {
        return PodDisruptionBudget.newBuilder().setMetadata(buildMeta())
                .setSpec(spec.setSelector(KubeObjects.copy(selector)).build()).setStatus(status).build();
    }
}
