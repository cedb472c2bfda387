package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetSpec;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.DaemonSetUpdateStrategy;
import io.eventplane.model.RollingUpdateDaemonSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** apps/v1 DaemonSet defaulting and validation (workloads.md §4.1: DS-01 to DS-03, DS-16). */
final class DaemonSetRules implements KindRules<DaemonSet> {
    static final List<String> STRATEGIES = List.of("OnDelete", "RollingUpdate");

    @Override
    public DaemonSet defaults(DaemonSet ds) {
        if (ds.getSpec() == null) {
            return ds;
        }
        DaemonSetSpec.Builder spec = DaemonSetSpec.newBuilder(ds.getSpec());
        DaemonSetUpdateStrategy strategy = spec.getUpdateStrategy() == null ? new DaemonSetUpdateStrategy()
                : DaemonSetUpdateStrategy.newBuilder(spec.getUpdateStrategy()).build();
        if (strategy.getType() == null || strategy.getType().isEmpty()) {
            strategy.setType("RollingUpdate"); // DS-16
        }
        if (strategy.getType().equals("RollingUpdate")) {
            RollingUpdateDaemonSet ru = strategy.getRollingUpdate() == null ? new RollingUpdateDaemonSet()
                    : RollingUpdateDaemonSet.newBuilder(strategy.getRollingUpdate()).build();
            if (ru.getMaxUnavailable() == null) {
                ru.setMaxUnavailable(1);
            }
            if (ru.getMaxSurge() == null) {
                ru.setMaxSurge(0);
            }
            strategy.setRollingUpdate(ru);
        }
        spec.setUpdateStrategy(strategy);
        if (spec.getRevisionHistoryLimit() == null) {
            spec.setRevisionHistoryLimit(10);
        }
        spec.setTemplate(Workloads.defaults(spec.getTemplate()));
        return DaemonSet.newBuilder(ds).setSpec(spec.build()).build();
    }

    /** The four scheduling counters are not omitempty in Kubernetes' status. */
    @Override
    public DaemonSet prepareForCreate(DaemonSet ds, Instant now) {
        return DaemonSet.newBuilder(ds).setStatus(DaemonSetStatus.newBuilder().setCurrentNumberScheduled(0)
                .setNumberMisscheduled(0).setDesiredNumberScheduled(0).setNumberReady(0).build()).build();
    }

    @Override
    public List<StatusCause> validate(DaemonSet ds) {
        List<StatusCause> causes = new ArrayList<>();
        DaemonSetSpec spec = ds.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        Workloads.selector("spec.selector", spec.getSelector(), spec.getTemplate(), "daemonset", causes); // DS-03
        Workloads.template("spec.template", spec.getTemplate(), Workloads.ALWAYS, "DaemonSet", causes); // DS-02
        Workloads.nonNegative("spec.minReadySeconds", spec.getMinReadySeconds(), causes);
        Workloads.nonNegative("spec.revisionHistoryLimit", spec.getRevisionHistoryLimit(), causes);
        DaemonSetUpdateStrategy strategy = spec.getUpdateStrategy();
        if (strategy != null) {
            String type = strategy.getType() == null ? "" : strategy.getType();
            if (!STRATEGIES.contains(type)) {
                causes.add(Causes.notSupported("spec.updateStrategy.type", type, STRATEGIES));
            } else if (type.equals("RollingUpdate")) {
                if (strategy.getRollingUpdate() == null) {
                    causes.add(Causes.required("spec.updateStrategy.rollingUpdate"));
                } else {
                    rollingUpdate(strategy.getRollingUpdate(), causes);
                }
            }
        }
        return causes;
    }

    /** Exactly one of maxUnavailable and maxSurge is non-zero. */
    private static void rollingUpdate(RollingUpdateDaemonSet ru, List<StatusCause> causes) {
        String path = "spec.updateStrategy.rollingUpdate";
        Workloads.intOrPercent(path + ".maxUnavailable", ru.getMaxUnavailable(), true, causes);
        Workloads.intOrPercent(path + ".maxSurge", ru.getMaxSurge(), true, causes);
        boolean unavailable = Workloads.intOrPercentValue(ru.getMaxUnavailable()) != 0;
        boolean surge = Workloads.intOrPercentValue(ru.getMaxSurge()) != 0;
        if (unavailable && surge) {
            causes.add(Causes.invalid(path + ".maxSurge", ru.getMaxSurge(), "may not be set when maxUnavailable is non-zero"));
        } else if (!unavailable && !surge) {
            causes.add(Causes.required(path + ".maxUnavailable", "cannot be 0 when maxSurge is 0"));
        }
    }

    /** DS-03, AC-DS-06: the selector is immutable. */
    @Override
    public List<StatusCause> validateUpdate(DaemonSet old, DaemonSet updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (old.getSpec() != null && updated.getSpec() != null) {
            Workloads.immutable("spec.selector", old.getSpec().getSelector(), updated.getSpec().getSelector(),
                    Workloads.show(updated.getSpec().getSelector()), causes);
        }
        return causes;
    }
}
