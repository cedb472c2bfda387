package io.eventplane.nodesim;

import io.eventplane.client.EventplaneConfig;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/**
 * Simulated nodes as their own process. Configuration from the environment: {@link EventplaneConfig#fromEnvironment()}
 * plus {@code EVENTPLANE_NODES} (3), {@code EVENTPLANE_NODE_PREFIX} ({@code node-}), {@code EVENTPLANE_NODE_CPU} (4),
 * {@code EVENTPLANE_NODE_MEMORY} (16Gi), {@code EVENTPLANE_NODE_PODS} (110).
 *
 * <p>What the simulated programs do: {@code EVENTPLANE_NODESIM_IMAGES} (missing and slow images, {@link ImageRules})
 * and {@code EVENTPLANE_NODESIM_STAGES}, the path of a stage file ({@link Stages}; none by default: a plain pod starts
 * and stays Ready). A stage file that cannot be used stops node-sim before it starts, with the file, line and field.
 * Per pod, the {@code sim.eventplane.io/} annotations ({@link PodBehavior}). See docs/node-sim.md.
 */
public final class NodeSimMain {
    private NodeSimMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        try {
            Stages.fromEnvironment(); // checked before anything starts
        } catch (Stages.InvalidStages e) {
            System.err.println("node-sim: " + e.getMessage());
            System.exit(2);
        }
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
