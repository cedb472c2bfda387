package io.eventplane.testkit.objects;

import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentSpec;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.DeploymentStrategy;
import io.eventplane.model.RollingUpdateDeployment;

/** A Deployment (see {@link WorkloadBuilder} for the selector and template); replicas and strategy unset. */
public final class DeploymentBuilder extends WorkloadBuilder<DeploymentBuilder> {
    private final DeploymentSpec.Builder spec = DeploymentSpec.newBuilder();
    private DeploymentStatus status;

    DeploymentBuilder(String name) {
        super(name);
    }

    public DeploymentBuilder replicas(int replicas) {
        spec.setReplicas(replicas);
        return this;
    }

    /** RollingUpdate with these bounds, each an Integer, a percentage String or null. */
    public DeploymentBuilder rollingUpdate(Object maxSurge, Object maxUnavailable) {
        spec.setStrategy(DeploymentStrategy.newBuilder().setType("RollingUpdate").setRollingUpdate(
                RollingUpdateDeployment.newBuilder().setMaxSurge(maxSurge).setMaxUnavailable(maxUnavailable).build())
                .build());
        return this;
    }

    /** The Recreate strategy. */
    public DeploymentBuilder recreate() {
        spec.setStrategy(DeploymentStrategy.newBuilder().setType("Recreate").build());
        return this;
    }

    public DeploymentBuilder paused() {
        spec.setPaused(true);
        return this;
    }

    public DeploymentBuilder minReadySeconds(int seconds) {
        spec.setMinReadySeconds(seconds);
        return this;
    }

    public DeploymentBuilder revisionHistoryLimit(int limit) {
        spec.setRevisionHistoryLimit(limit);
        return this;
    }

    public DeploymentBuilder progressDeadlineSeconds(int seconds) {
        spec.setProgressDeadlineSeconds(seconds);
        return this;
    }

    public DeploymentBuilder status(DeploymentStatus status) {
        this.status = status;
        return this;
    }

    public Deployment build() {
        return Deployment.newBuilder().setMetadata(buildMeta())
                .setSpec(spec.setSelector(buildSelector()).setTemplate(buildTemplate()).build())
                .setStatus(status).build();
    }
}
