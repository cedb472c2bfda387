package io.eventplane.controllers.disruption;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.controllers.ControllerService;
import java.time.Clock;

/** The disruption controller as its own process: keeps every PodDisruptionBudget's status current. */
public final class DisruptionMain {
    private DisruptionMain() {
    }

    /** The controller, not started. */
    public static ControllerService create(EventplaneConfig config, String actor, Clock clock) {
        return new ControllerService(config, actor, "disruption-controller", clock, new DisruptionReconciler());
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        String actor = EventplaneConfig.setting("EVENTPLANE_CONTROLLER_ACTOR", "disruption-controller");
        create(config, actor, Clock.systemUTC()).start().runUntilShutdown();
    }
}
