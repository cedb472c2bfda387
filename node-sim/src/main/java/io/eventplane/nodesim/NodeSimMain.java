package io.eventplane.nodesim;

import io.eventplane.client.EventplaneConfig;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/**
 * Simulated nodes as their own process. Configuration from the environment: {@link EventplaneConfig#fromEnvironment()}
 * plus {@code EVENTPLANE_NODES} (3), {@code EVENTPLANE_NODE_PREFIX} ({@code node-}), {@code EVENTPLANE_NODE_CPU} (4),
 * {@code EVENTPLANE_NODE_MEMORY} (16Gi), {@code EVENTPLANE_NODE_PODS} (110).
 */
public final class NodeSimMain {
    private NodeSimMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        int count = Integer.parseInt(EventplaneConfig.setting("EVENTPLANE_NODES", "3"));
        NodeShape defaults = NodeShape.defaults();
        NodeShape shape = defaults.withCpu(EventplaneConfig.setting("EVENTPLANE_NODE_CPU", defaults.cpu()))
                .withMemory(EventplaneConfig.setting("EVENTPLANE_NODE_MEMORY", defaults.memory()))
                .withPods(EventplaneConfig.setting("EVENTPLANE_NODE_PODS", defaults.pods()));
        NodeSimSettings settings = NodeSimSettings.defaults()
                .withNamePrefix(EventplaneConfig.setting("EVENTPLANE_NODE_PREFIX", "node-"));
        NodeSimulator simulator = new NodeSimulator(config, count, shape, Clock.systemUTC(), settings).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulator.close();
            stopped.countDown();
        }, "node-sim-shutdown"));
        stopped.await();
    }
}
