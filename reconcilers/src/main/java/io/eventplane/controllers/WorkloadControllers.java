package io.eventplane.controllers;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.controllers.deployment.DeploymentMain;
import io.eventplane.controllers.replicaset.ReplicaSetMain;
import java.time.Clock;
import java.util.List;

/**
 * The workload controllers of this module (Deployment, ReplicaSet, ReplicationController, and the disruption
 * controller that keeps PodDisruptionBudgets' status current) started side by side
 * in one JVM, for {@code eventplane up} and tests. Each is still its own service with its own view, sender and actor,
 * exactly as when it runs as its own process ({@link DeploymentMain}, {@link ReplicaSetMain}).
 */
public final class WorkloadControllers implements AutoCloseable {
    private final List<ControllerService> services;

    private WorkloadControllers(List<ControllerService> services) {
        this.services = services;
    }

    public static WorkloadControllers start(EventplaneConfig config, Clock clock) {
        List<ControllerService> services = List.of(
                ReplicaSetMain.replicaSets(config, "replicaset-controller", clock),
                ReplicaSetMain.replicationControllers(config, "replication-controller", clock),
                DeploymentMain.create(config, "deployment-controller", clock),
                io.eventplane.controllers.disruption.DisruptionMain.create(config, "disruption-controller", clock));
        services.forEach(ControllerService::start);
        return new WorkloadControllers(services);
    }

    public boolean isReady() {
        return services.stream().allMatch(ControllerService::isReady);
    }

    @Override
    public void close() {
        for (ControllerService s : services) {
            s.close();
        }
    }
}
