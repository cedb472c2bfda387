package io.eventplane.testkit.objects;

import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.RollingUpdateStatefulSetStrategy;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetOrdinals;
import io.eventplane.model.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.eventplane.model.StatefulSetSpec;
import io.eventplane.model.StatefulSetStatus;
import io.eventplane.model.StatefulSetUpdateStrategy;

/**
 * A StatefulSet (see {@link WorkloadBuilder} for the selector and template) with serviceName = its name; replicas,
 * pod management and update strategy unset (the API server's defaults: 1, OrderedReady, RollingUpdate).
 */
public final class StatefulSetBuilder extends WorkloadBuilder<StatefulSetBuilder> {
    private final StatefulSetSpec.Builder spec = StatefulSetSpec.newBuilder();
    private StatefulSetStatus status;

    StatefulSetBuilder(String name) {
        super(name);
        spec.setServiceName(name);
    }

    public StatefulSetBuilder replicas(int replicas) {
        spec.setReplicas(replicas);
        return this;
    }

    /** The governing Service's name (null: none). */
    public StatefulSetBuilder serviceName(String serviceName) {
        spec.setServiceName(serviceName);
        return this;
    }

    /** podManagementPolicy Parallel (OrderedReady when unset). */
    public StatefulSetBuilder parallel() {
        spec.setPodManagementPolicy("Parallel");
        return this;
    }

    public StatefulSetBuilder podManagementPolicy(String policy) {
        spec.setPodManagementPolicy(policy);
        return this;
    }

    /** The OnDelete update strategy. */
    public StatefulSetBuilder onDelete() {
        spec.setUpdateStrategy(StatefulSetUpdateStrategy.newBuilder().setType("OnDelete").build());
        return this;
    }

    /** RollingUpdate with this partition (ordinals below it keep the old revision) and maxUnavailable (or null). */
    public StatefulSetBuilder rollingUpdate(Integer partition, Object maxUnavailable) {
        spec.setUpdateStrategy(StatefulSetUpdateStrategy.newBuilder().setType("RollingUpdate").setRollingUpdate(
                RollingUpdateStatefulSetStrategy.newBuilder().setPartition(partition).setMaxUnavailable(maxUnavailable)
                        .build()).build());
        return this;
    }

    /** The claims each pod gets, one per template (none: unset). */
    public StatefulSetBuilder volumeClaimTemplates(PersistentVolumeClaim... claims) {
        spec.setVolumeClaimTemplates(listOrNull(claims));
        return this;
    }

    /** What happens to the claims when the set is deleted and when it is scaled down: Retain or Delete. */
    public StatefulSetBuilder claimRetention(String whenDeleted, String whenScaled) {
        spec.setPersistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy.newBuilder()
                .setWhenDeleted(whenDeleted).setWhenScaled(whenScaled).build());
        return this;
    }

    /** The first ordinal (0 when unset). */
    public StatefulSetBuilder ordinalsStart(int start) {
        spec.setOrdinals(StatefulSetOrdinals.newBuilder().setStart(start).build());
        return this;
    }

    public StatefulSetBuilder minReadySeconds(int seconds) {
        spec.setMinReadySeconds(seconds);
        return this;
    }

    public StatefulSetBuilder revisionHistoryLimit(int limit) {
        spec.setRevisionHistoryLimit(limit);
        return this;
    }

    public StatefulSetBuilder status(StatefulSetStatus status) {
        this.status = status;
        return this;
    }

    public StatefulSet build() {
        return StatefulSet.newBuilder().setMetadata(buildMeta())
                .setSpec(spec.setSelector(buildSelector()).setTemplate(buildTemplate()).build())
                .setStatus(status).build();
    }
}
