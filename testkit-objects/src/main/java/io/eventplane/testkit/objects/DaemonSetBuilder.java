package io.eventplane.testkit.objects;

import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetSpec;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.DaemonSetUpdateStrategy;
import io.eventplane.model.RollingUpdateDaemonSet;

/** A DaemonSet (see {@link WorkloadBuilder} for the selector and template); update strategy unset (RollingUpdate). */
public final class DaemonSetBuilder extends WorkloadBuilder<DaemonSetBuilder> {
    private final DaemonSetSpec.Builder spec = DaemonSetSpec.newBuilder();
    private DaemonSetStatus status;

    DaemonSetBuilder(String name) {
        super(name);
    }

    /** The OnDelete update strategy. */
    public DaemonSetBuilder onDelete() {
        spec.setUpdateStrategy(DaemonSetUpdateStrategy.newBuilder().setType("OnDelete").build());
        return this;
    }

    /** RollingUpdate with these bounds, each an Integer, a percentage String or null. */
    public DaemonSetBuilder rollingUpdate(Object maxUnavailable, Object maxSurge) {
        spec.setUpdateStrategy(DaemonSetUpdateStrategy.newBuilder().setType("RollingUpdate").setRollingUpdate(
                RollingUpdateDaemonSet.newBuilder().setMaxUnavailable(maxUnavailable).setMaxSurge(maxSurge).build())
                .build());
        return this;
    }

    public DaemonSetBuilder minReadySeconds(int seconds) {
        spec.setMinReadySeconds(seconds);
        return this;
    }

    public DaemonSetBuilder revisionHistoryLimit(int limit) {
        spec.setRevisionHistoryLimit(limit);
        return this;
    }

    public DaemonSetBuilder status(DaemonSetStatus status) {
        this.status = status;
        return this;
    }

    public DaemonSet build() {
        return DaemonSet.newBuilder().setMetadata(buildMeta())
                .setSpec(spec.setSelector(buildSelector()).setTemplate(buildTemplate()).build())
                .setStatus(status).build();
    }
}
