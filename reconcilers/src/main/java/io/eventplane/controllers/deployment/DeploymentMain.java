package io.eventplane.controllers.deployment;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.controllers.ControllerService;
import java.time.Clock;

/**
 * The Deployment controller as its own process. Configuration from the environment
 * ({@link EventplaneConfig#fromEnvironment()}); {@code EVENTPLANE_CONTROLLER_ACTOR} names it (default
 * {@code deployment-controller}).
 */
public final class DeploymentMain {
    private DeploymentMain() {
    }

    /** The controller, not started. */
    public static ControllerService create(EventplaneConfig config, String actor, Clock clock) {
        return new ControllerService(config, actor, "deployment-controller", clock, new DeploymentReconciler());
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        String actor = EventplaneConfig.setting("EVENTPLANE_CONTROLLER_ACTOR", "deployment-controller");
        create(config, actor, Clock.systemUTC()).start().runUntilShutdown();
    }
}
