package io.eventplane.testkit.objects;

import io.eventplane.model.LabelSelector;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerSpec;
import io.eventplane.model.ReplicationControllerStatus;

/**
 * A ReplicationController (see {@link WorkloadBuilder}); its selector is the plain map of the selector's matchLabels,
 * and {@link #withoutSelector()} leaves it for the API server to default from the template labels.
 */
public final class ReplicationControllerBuilder extends WorkloadBuilder<ReplicationControllerBuilder> {
    private final ReplicationControllerSpec.Builder spec = ReplicationControllerSpec.newBuilder();
    private ReplicationControllerStatus status;

    ReplicationControllerBuilder(String name) {
        super(name);
    }

    public ReplicationControllerBuilder replicas(int replicas) {
        spec.setReplicas(replicas);
        return this;
    }

    public ReplicationControllerBuilder minReadySeconds(int seconds) {
        spec.setMinReadySeconds(seconds);
        return this;
    }

    public ReplicationControllerBuilder status(ReplicationControllerStatus status) {
        this.status = status;
        return this;
    }

    public ReplicationController build() {
        LabelSelector selector = buildSelector();
        return ReplicationController.newBuilder().setMetadata(buildMeta())
                .setSpec(spec.setSelector(selector == null ? null : selector.getMatchLabels())
                        .setTemplate(buildTemplate()).build())
                .setStatus(status).build();
    }
}
