package io.eventplane.scheduler;

import io.eventplane.client.EventplaneConfig;
import java.util.concurrent.CountDownLatch;

/**
 * The scheduler as its own process. Configuration from the environment ({@link EventplaneConfig#fromEnvironment()});
 * {@code EVENTPLANE_SCHEDULER_ACTOR} names it in the log (default {@code scheduler}).
 */
public final class SchedulerMain {
    private SchedulerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        String actor = EventplaneConfig.setting("EVENTPLANE_SCHEDULER_ACTOR", "scheduler");
        SchedulerService scheduler = new SchedulerService(config, actor).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            scheduler.close();
            stopped.countDown();
        }, "scheduler-shutdown"));
        stopped.await();
    }
}
