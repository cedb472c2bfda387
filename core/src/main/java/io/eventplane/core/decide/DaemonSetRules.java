package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetSpec;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.DaemonSetUpdateStrategy;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.RollingUpdateDaemonSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** apps/v1 DaemonSet defaulting and validation (workloads.md §4.1: DS-01 to DS-03, DS-16). */
final class DaemonSetRules implements KindRules<DaemonSet> {
    /** apps/v1 keeps the template generation in this annotation (Kubernetes' DeprecatedTemplateGeneration). */
    static final String TEMPLATE_GENERATION = "deprecated.daemonset.template.generation";
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

    /**
     * The four scheduling counters are not omitempty in Kubernetes' status. The template generation starts at 1
     * (DS-16: the DaemonSet controller labels its pods {@code pod-template-generation} with it).
     */
    @Override
    public DaemonSet prepareForCreate(DaemonSet ds, Instant now) {
        return DaemonSet.newBuilder(withTemplateGeneration(ds, 1)).setStatus(DaemonSetStatus.newBuilder()
                .setCurrentNumberScheduled(0).setNumberMisscheduled(0).setDesiredNumberScheduled(0).setNumberReady(0)
                .build()).build();
    }

    /**
     * The template generation is server-owned, as kube-apiserver's DaemonSet strategy keeps it: one more when the
     * template changed, the stored one otherwise (whatever the update says).
     */
    @Override
    public DaemonSet prepareForUpdate(DaemonSet old, DaemonSet updated) {
        long generation = templateGeneration(old);
        boolean changed = old.getSpec() == null || updated.getSpec() == null
                || !Objects.equals(old.getSpec().getTemplate(), updated.getSpec().getTemplate());
        return withTemplateGeneration(updated, changed ? generation + 1 : generation);
    }

    /** The stored template generation; 1 for a DaemonSet stored before it was kept. */
    static long templateGeneration(DaemonSet ds) {
        Map<String, String> a = ds.getMetadata() == null ? null : ds.getMetadata().getAnnotations();
        String value = a == null ? null : a.get(TEMPLATE_GENERATION);
        try {
            return value == null ? 1 : Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static DaemonSet withTemplateGeneration(DaemonSet ds, long generation) {
        ObjectMeta meta = ds.getMetadata() == null ? new ObjectMeta() : ds.getMetadata();
        Map<String, String> a = meta.getAnnotations() == null ? new HashMap<>() : new HashMap<>(meta.getAnnotations());
        a.put(TEMPLATE_GENERATION, Long.toString(generation));
        return DaemonSet.newBuilder(ds).setMetadata(ObjectMeta.newBuilder(meta).setAnnotations(a).build()).build();
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
