package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.PersistentVolumeClaimSpec;
import io.eventplane.model.PersistentVolumeClaimStatus;
import io.eventplane.model.RollingUpdateStatefulSetStrategy;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.eventplane.model.StatefulSetSpec;
import io.eventplane.model.StatefulSetStatus;
import io.eventplane.model.StatefulSetUpdateStrategy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** apps/v1 StatefulSet defaulting and validation (workloads.md §3.1, STS-14, STS-20, STS-X01 to STS-X04). */
final class StatefulSetRules implements KindRules<StatefulSet> {
    static final List<String> POLICIES = List.of("OrderedReady", "Parallel");
    static final List<String> RETENTION = List.of("Retain", "Delete");

    @Override
    public StatefulSet defaults(StatefulSet sts) {
        if (sts.getSpec() == null) {
            return sts;
        }
        StatefulSetSpec.Builder spec = StatefulSetSpec.newBuilder(sts.getSpec());
        if (spec.getPodManagementPolicy() == null || spec.getPodManagementPolicy().isEmpty()) {
            spec.setPodManagementPolicy("OrderedReady"); // STS-14
        }
        StatefulSetUpdateStrategy strategy = spec.getUpdateStrategy() == null ? new StatefulSetUpdateStrategy()
                : StatefulSetUpdateStrategy.newBuilder(spec.getUpdateStrategy()).build();
        if (strategy.getType() == null || strategy.getType().isEmpty()) {
            strategy.setType("RollingUpdate"); // STS-20
            if (strategy.getRollingUpdate() == null) {
                strategy.setRollingUpdate(new RollingUpdateStatefulSetStrategy());
            }
        }
        // As Kubernetes: an explicit RollingUpdate without rollingUpdate stays without it.
        if (strategy.getType().equals("RollingUpdate") && strategy.getRollingUpdate() != null
                && strategy.getRollingUpdate().getPartition() == null) {
            strategy.setRollingUpdate(RollingUpdateStatefulSetStrategy.newBuilder(strategy.getRollingUpdate())
                    .setPartition(0).build());
        }
        spec.setUpdateStrategy(strategy);
        StatefulSetPersistentVolumeClaimRetentionPolicy retention = spec.getPersistentVolumeClaimRetentionPolicy() == null
                ? new StatefulSetPersistentVolumeClaimRetentionPolicy()
                : StatefulSetPersistentVolumeClaimRetentionPolicy.newBuilder(spec.getPersistentVolumeClaimRetentionPolicy()).build();
        if (retention.getWhenDeleted() == null || retention.getWhenDeleted().isEmpty()) {
            retention.setWhenDeleted("Retain"); // STS-X03
        }
        if (retention.getWhenScaled() == null || retention.getWhenScaled().isEmpty()) {
            retention.setWhenScaled("Retain");
        }
        spec.setPersistentVolumeClaimRetentionPolicy(retention);
        if (spec.getReplicas() == null) {
            spec.setReplicas(1); // STS-02
        }
        if (spec.getRevisionHistoryLimit() == null) {
            spec.setRevisionHistoryLimit(10); // STS-X01
        }
        spec.setTemplate(Workloads.defaults(spec.getTemplate()));
        if (spec.getVolumeClaimTemplates() != null) {
            List<PersistentVolumeClaim> claims = new ArrayList<>();
            for (PersistentVolumeClaim c : spec.getVolumeClaimTemplates()) {
                claims.add(claimDefaults(c));
            }
            spec.setVolumeClaimTemplates(claims);
        }
        return StatefulSet.newBuilder(sts).setSpec(spec.build()).build();
    }

    /** A claim's own defaults: volumeMode Filesystem and phase Pending, as on any PersistentVolumeClaim. */
    private static PersistentVolumeClaim claimDefaults(PersistentVolumeClaim c) {
        PersistentVolumeClaim.Builder b = PersistentVolumeClaim.newBuilder(c);
        PersistentVolumeClaimSpec spec = c.getSpec() == null ? new PersistentVolumeClaimSpec()
                : PersistentVolumeClaimSpec.newBuilder(c.getSpec()).build();
        if (spec.getVolumeMode() == null) {
            spec.setVolumeMode("Filesystem");
        }
        PersistentVolumeClaimStatus status = c.getStatus() == null ? new PersistentVolumeClaimStatus()
                : PersistentVolumeClaimStatus.newBuilder(c.getStatus()).build();
        if (status.getPhase() == null || status.getPhase().isEmpty()) {
            status.setPhase("Pending");
        }
        return b.setSpec(spec).setStatus(status).build();
    }

    /** replicas and availableReplicas are not omitempty in Kubernetes' status. */
    @Override
    public StatefulSet prepareForCreate(StatefulSet sts, Instant now) {
        return StatefulSet.newBuilder(sts)
                .setStatus(StatefulSetStatus.newBuilder().setReplicas(0).setAvailableReplicas(0).build()).build();
    }

    @Override
    public List<StatusCause> validate(StatefulSet sts) {
        List<StatusCause> causes = new ArrayList<>();
        StatefulSetSpec spec = sts.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        String policy = spec.getPodManagementPolicy() == null ? "" : spec.getPodManagementPolicy();
        if (!POLICIES.contains(policy)) {
            causes.add(Causes.invalid("spec.podManagementPolicy", policy, "must be 'OrderedReady' or 'Parallel'"));
        }
        StatefulSetUpdateStrategy strategy = spec.getUpdateStrategy();
        if (strategy != null) {
            String type = strategy.getType() == null ? "" : strategy.getType();
            switch (type) {
                case "OnDelete" -> {
                    if (strategy.getRollingUpdate() != null) {
                        causes.add(Causes.invalidShown("spec.updateStrategy.rollingUpdate", "{...}",
                                "only allowed for updateStrategy 'RollingUpdate'"));
                    }
                }
                case "RollingUpdate" -> {
                    RollingUpdateStatefulSetStrategy ru = strategy.getRollingUpdate();
                    if (ru != null) {
                        Workloads.nonNegative("spec.updateStrategy.rollingUpdate.partition", ru.getPartition(), causes);
                        if (ru.getMaxUnavailable() != null) {
                            Workloads.intOrPercent("spec.updateStrategy.rollingUpdate.maxUnavailable",
                                    ru.getMaxUnavailable(), true, causes);
                            if (Workloads.intOrPercentValue(ru.getMaxUnavailable()) == 0) {
                                causes.add(Causes.invalid("spec.updateStrategy.rollingUpdate.maxUnavailable",
                                        ru.getMaxUnavailable(), "must be greater than 0"));
                            }
                        }
                    }
                }
                default -> causes.add(Causes.invalid("spec.updateStrategy", type, "must be 'RollingUpdate' or 'OnDelete'"));
            }
        }
        StatefulSetPersistentVolumeClaimRetentionPolicy retention = spec.getPersistentVolumeClaimRetentionPolicy();
        if (retention != null) {
            retention("spec.persistentVolumeClaimRetentionPolicy.whenDeleted", retention.getWhenDeleted(), causes);
            retention("spec.persistentVolumeClaimRetentionPolicy.whenScaled", retention.getWhenScaled(), causes);
        }
        Workloads.nonNegative("spec.replicas", spec.getReplicas(), causes);
        Workloads.nonNegative("spec.minReadySeconds", spec.getMinReadySeconds(), causes);
        Workloads.nonNegative("spec.revisionHistoryLimit", spec.getRevisionHistoryLimit(), causes);
        if (spec.getOrdinals() != null) {
            Workloads.nonNegative("spec.ordinals.start", spec.getOrdinals().getStart(), causes);
        }
        Workloads.selector("spec.selector", spec.getSelector(), spec.getTemplate(), "statefulset", causes); // STS-01
        Workloads.template("spec.template", spec.getTemplate(), Workloads.ALWAYS, "StatefulSet", causes);
        if (spec.getVolumeClaimTemplates() != null) {
            for (int i = 0; i < spec.getVolumeClaimTemplates().size(); i++) {
                PersistentVolumeClaim c = spec.getVolumeClaimTemplates().get(i);
                String f = "spec.volumeClaimTemplates[" + i + "]";
                Names.subdomain(f + ".metadata.name", c.getMetadata() == null ? null : c.getMetadata().getName())
                        .ifPresent(causes::add);
                if (c.getSpec() == null || c.getSpec().getAccessModes() == null || c.getSpec().getAccessModes().isEmpty()) {
                    causes.add(Causes.required(f + ".spec.accessModes", "at least 1 access mode is required"));
                }
            }
        }
        return causes;
    }

    private static void retention(String field, String value, List<StatusCause> causes) {
        if (value != null && !RETENTION.contains(value)) {
            causes.add(Causes.notSupported(field, value, RETENTION));
        }
    }

    /** Kubernetes lets an update change only these spec fields of a StatefulSet. */
    @Override
    public List<StatusCause> validateUpdate(StatefulSet old, StatefulSet updated) {
        if (old.getSpec() == null || updated.getSpec() == null) {
            return List.of();
        }
        StatefulSetSpec o = old.getSpec();
        StatefulSetSpec masked = StatefulSetSpec.newBuilder(updated.getSpec())
                .setReplicas(o.getReplicas())
                .setTemplate(o.getTemplate())
                .setUpdateStrategy(o.getUpdateStrategy())
                .setMinReadySeconds(o.getMinReadySeconds())
                .setOrdinals(o.getOrdinals())
                .setRevisionHistoryLimit(o.getRevisionHistoryLimit())
                .setPersistentVolumeClaimRetentionPolicy(o.getPersistentVolumeClaimRetentionPolicy())
                .build();
        if (!masked.equals(o)) {
            return List.of(Causes.forbidden("spec", "updates to statefulset spec for fields other than 'replicas', "
                    + "'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', "
                    + "'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
        }
        return List.of();
    }
}
