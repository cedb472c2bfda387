package io.eventplane.testkit.objects;

import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.model.ReplicaSetStatus;

/** A ReplicaSet (see {@link WorkloadBuilder} for the selector and template); replicas unset. */
public final class ReplicaSetBuilder extends WorkloadBuilder<ReplicaSetBuilder> {
    private final ReplicaSetSpec.Builder spec = ReplicaSetSpec.newBuilder();
    private ReplicaSetStatus status;

    ReplicaSetBuilder(String name) {
        super(name);
    }

    public ReplicaSetBuilder replicas(int replicas) {
        spec.setReplicas(replicas);
        return this;
    }

    public ReplicaSetBuilder minReadySeconds(int seconds) {
        spec.setMinReadySeconds(seconds);
        return this;
    }

    public ReplicaSetBuilder status(ReplicaSetStatus status) {
        this.status = status;
        return this;
    }

    public ReplicaSet build() {
        return ReplicaSet.newBuilder().setMetadata(buildMeta())
                .setSpec(spec.setSelector(buildSelector()).setTemplate(buildTemplate()).build())
                .setStatus(status).build();
    }
}
