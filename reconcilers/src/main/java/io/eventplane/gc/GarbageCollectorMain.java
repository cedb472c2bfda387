package io.eventplane.gc;

import io.eventplane.client.EventplaneConfig;
import java.util.concurrent.CountDownLatch;

/**
 * The garbage collector as its own process. Configuration from the environment ({@link EventplaneConfig#fromEnvironment()});
 * {@code EVENTPLANE_GC_ACTOR} names it in the log (default {@code garbage-collector}).
 */
public final class GarbageCollectorMain {
    private GarbageCollectorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        String actor = EventplaneConfig.setting("EVENTPLANE_GC_ACTOR", "garbage-collector");
        GarbageCollectorService gc = new GarbageCollectorService(config, actor).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gc.close();
            stopped.countDown();
        }, "garbage-collector-shutdown"));
        stopped.await();
    }
}
