package io.eventplane.controllers.replicaset;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.controllers.ControllerService;
import java.time.Clock;

/**
 * The ReplicaSet controller as its own process; with the argument {@code rc} (or
 * {@code EVENTPLANE_CONTROLLER_KIND=ReplicationController}) the ReplicationController manager instead. Configuration
 * from the environment ({@link EventplaneConfig#fromEnvironment()}); {@code EVENTPLANE_CONTROLLER_ACTOR} names it.
 */
public final class ReplicaSetMain {
    private ReplicaSetMain() {
    }

    /** The controller for ReplicaSets, not started. */
    public static ControllerService replicaSets(EventplaneConfig config, String actor, Clock clock) {
        return new ControllerService(config, actor, "replicaset-controller", clock, ReplicaReconciler.replicaSets());
    }

    /** The manager for ReplicationControllers, not started. */
    public static ControllerService replicationControllers(EventplaneConfig config, String actor, Clock clock) {
        return new ControllerService(config, actor, "replication-controller", clock,
                ReplicaReconciler.replicationControllers());
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        boolean rc = (args.length > 0 && args[0].equals("rc"))
                || EventplaneConfig.setting("EVENTPLANE_CONTROLLER_KIND", "ReplicaSet").equals("ReplicationController");
        String actor = EventplaneConfig.setting("EVENTPLANE_CONTROLLER_ACTOR",
                rc ? "replication-controller" : "replicaset-controller");
        (rc ? replicationControllers(config, actor, Clock.systemUTC())
                : replicaSets(config, actor, Clock.systemUTC())).start().runUntilShutdown();
    }
}
