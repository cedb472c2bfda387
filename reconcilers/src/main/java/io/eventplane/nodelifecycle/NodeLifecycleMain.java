package io.eventplane.nodelifecycle;

import io.eventplane.client.EventplaneConfig;
import java.util.concurrent.CountDownLatch;

/**
 * The node lifecycle controller and pod garbage collector as their own process. Configuration from the environment
 * ({@link EventplaneConfig#fromEnvironment()}, {@link NodeLifecycleService#fromEnvironment()});
 * {@code EVENTPLANE_NODE_LIFECYCLE_ACTOR} names it in the log (default {@code node-controller}).
 */
public final class NodeLifecycleMain {
    private NodeLifecycleMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        String actor = EventplaneConfig.setting("EVENTPLANE_NODE_LIFECYCLE_ACTOR", "node-controller");
        NodeLifecycleService service = new NodeLifecycleService(config, actor).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.close();
            stopped.countDown();
        }, "node-controller-shutdown"));
        stopped.await();
    }
}
