package io.eventplane.scheduler;

import io.eventplane.client.ServiceIdentities;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.LeaderElection;

/**
 * The scheduler as its own process. Configuration from the environment ({@link EventplaneConfig#fromEnvironment()});
 * {@code EVENTPLANE_SCHEDULER_ACTOR} names its clients (default {@code scheduler}); its commands are
 * {@code system:kube-scheduler}'s in the log. With leader election (the
 * default; {@code EVENTPLANE_SCHEDULER_LEADER_ELECT=false} turns it off) several may run: the one holding the Lease
 * kube-system/kube-scheduler schedules, the others stand by and take over within about 7 s of a crash, at once after a
 * clean stop.
 */
public final class SchedulerMain {
    private SchedulerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        String actor = EventplaneConfig.setting("EVENTPLANE_SCHEDULER_ACTOR", "scheduler");
        Controller scheduler = Scheduler.controller(config, actor).identity(ServiceIdentities.scheduler());
        if (!"false".equals(EventplaneConfig.setting("EVENTPLANE_SCHEDULER_LEADER_ELECT", "true"))) {
            scheduler.leaderElection(LeaderElection.Settings.defaults()); // run several for a standby
        }
        scheduler.start().runUntilShutdown();
    }
}
