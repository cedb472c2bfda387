package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.DeploymentStrategy;
import io.eventplane.model.RollingUpdateDeployment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** apps/v1 Deployment defaulting and validation (workloads.md §1.1: DEP-01 to DEP-13). */
final class DeploymentRules implements KindRules<Deployment> {
    static final List<String> STRATEGIES = List.of("Recreate", "RollingUpdate");

    @Override
    public Deployment defaults(Deployment d) {
        if (d.getSpec() == null) {
            return d;
        }
        DeploymentSpec.Builder spec = DeploymentSpec.newBuilder(d.getSpec());
        if (spec.getReplicas() == null) {
            spec.setReplicas(1); // DEP-03
        }
        DeploymentStrategy strategy = spec.getStrategy() == null ? new DeploymentStrategy()
                : DeploymentStrategy.newBuilder(spec.getStrategy()).build();
        if (strategy.getType() == null || strategy.getType().isEmpty()) {
            strategy.setType("RollingUpdate"); // DEP-07
        }
        if (strategy.getType().equals("RollingUpdate")) {
            RollingUpdateDeployment ru = strategy.getRollingUpdate() == null ? new RollingUpdateDeployment()
                    : RollingUpdateDeployment.newBuilder(strategy.getRollingUpdate()).build();
            if (ru.getMaxUnavailable() == null) {
                ru.setMaxUnavailable("25%"); // DEP-08
            }
            if (ru.getMaxSurge() == null) {
                ru.setMaxSurge("25%"); // DEP-09
            }
            strategy.setRollingUpdate(ru);
        }
        spec.setStrategy(strategy);
        if (spec.getRevisionHistoryLimit() == null) {
            spec.setRevisionHistoryLimit(10); // DEP-12
        }
        if (spec.getProgressDeadlineSeconds() == null) {
            spec.setProgressDeadlineSeconds(600); // DEP-10
        }
        spec.setTemplate(Workloads.defaults(spec.getTemplate()));
        return Deployment.newBuilder(d).setSpec(spec.build()).build();
    }

    /** The controller reports status; a new Deployment has none yet. */
    @Override
    public Deployment prepareForCreate(Deployment d, Instant now) {
        return Deployment.newBuilder(d).setStatus(new DeploymentStatus()).build();
    }

    @Override
    public List<StatusCause> validate(Deployment d) {
        List<StatusCause> causes = new ArrayList<>();
        DeploymentSpec spec = d.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        Workloads.nonNegative("spec.replicas", spec.getReplicas(), causes);
        Workloads.selector("spec.selector", spec.getSelector(), spec.getTemplate(), "deployment", causes);
        Workloads.template("spec.template", spec.getTemplate(), Workloads.ALWAYS, "ReplicaSet", causes);
        DeploymentStrategy strategy = spec.getStrategy();
        if (strategy != null) {
            String type = strategy.getType() == null ? "" : strategy.getType();
            if (!STRATEGIES.contains(type)) {
                causes.add(Causes.notSupported("spec.strategy.type", type, STRATEGIES));
            } else if (type.equals("Recreate") && strategy.getRollingUpdate() != null) {
                causes.add(Causes.forbidden("spec.strategy.rollingUpdate",
                        "may not be specified when strategy `type` is 'Recreate'"));
            } else if (type.equals("RollingUpdate") && strategy.getRollingUpdate() != null) {
                rollingUpdate(strategy.getRollingUpdate(), causes);
            }
        }
        Workloads.nonNegative("spec.minReadySeconds", spec.getMinReadySeconds(), causes);
        Workloads.nonNegative("spec.revisionHistoryLimit", spec.getRevisionHistoryLimit(), causes);
        Integer deadline = spec.getProgressDeadlineSeconds();
        if (deadline != null) {
            Workloads.nonNegative("spec.progressDeadlineSeconds", deadline, causes);
            int minReady = spec.getMinReadySeconds() == null ? 0 : spec.getMinReadySeconds();
            if (deadline <= minReady) { // DEP-10
                causes.add(Causes.invalid("spec.progressDeadlineSeconds", deadline, "must be greater than minReadySeconds"));
            }
        }
        return causes;
    }

    /** DEP-08, DEP-09: non-negative ints or percentages, maxUnavailable at most 100%, not both zero. */
    private static void rollingUpdate(RollingUpdateDeployment ru, List<StatusCause> causes) {
        String path = "spec.strategy.rollingUpdate";
        Workloads.intOrPercent(path + ".maxUnavailable", ru.getMaxUnavailable(), true, causes);
        Workloads.intOrPercent(path + ".maxSurge", ru.getMaxSurge(), false, causes);
        if (Workloads.intOrPercentValue(ru.getMaxUnavailable()) == 0 && Workloads.intOrPercentValue(ru.getMaxSurge()) == 0) {
            Object v = ru.getMaxUnavailable() == null ? 0 : ru.getMaxUnavailable();
            causes.add(Causes.invalid(path + ".maxUnavailable", v, "may not be 0 when `maxSurge` is 0"));
        }
    }

    /** DEP-05: in apps/v1 the selector is immutable. */
    @Override
    public List<StatusCause> validateUpdate(Deployment old, Deployment updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (old.getSpec() != null && updated.getSpec() != null) {
            Workloads.immutable("spec.selector", old.getSpec().getSelector(), updated.getSpec().getSelector(),
                    Workloads.show(updated.getSpec().getSelector()), causes);
        }
        return causes;
    }
}
