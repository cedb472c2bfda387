package io.eventplane.nodesim;

import io.eventplane.client.EventplaneConfig;
import java.time.Clock;
import java.util.concurrent.CountDownLatch;

/**
 * Simulated nodes as their own process. Configuration from the environment: {@link EventplaneConfig#fromEnvironment()}
 * plus {@code EVENTPLANE_NODES} (3), {@code EVENTPLANE_NODE_PREFIX} ({@code node-}), {@code EVENTPLANE_NODE_CPU} (4),
 * {@code EVENTPLANE_NODE_MEMORY} (16Gi), {@code EVENTPLANE_NODE_PODS} (110) and {@code EVENTPLANE_NODESIM_PRESSURE}
 * ({@link NodePressure#parseConfig}, e.g. {@code node-3=memory;node-5=disk,pid}).
 *
 * <p>What the simulated programs do: {@code EVENTPLANE_NODESIM_IMAGES} (missing and slow images, {@link ImageRules})
 * and {@code EVENTPLANE_NODESIM_STAGES}, the path of a stage file ({@link Stages}; none by default: a plain pod starts
 * and stays Ready). A stage file that cannot be used stops node-sim before it starts, with the file, line and field.
 * Run-to-completion defaults ({@link RunDefaults}): {@code EVENTPLANE_NODESIM_INIT_RUN} (1s: an init container
 * completes) and {@code EVENTPLANE_NODESIM_COMPLETION_RUN} (10s: a container of a Never or OnFailure pod completes),
 * each a duration or {@code never}; the stage file's {@code runToCompletion} block wins.
 * Per pod, the {@code sim.eventplane.io/} annotations ({@link PodBehavior}). See docs/node-sim.md.
 *
 * <p>Sharding ({@link NodeSharding}, {@link ShardSettings#fromEnvironment()}): every instance started with the same
 * nodes (count and prefix) shares them with the others: {@code EVENTPLANE_NODESIM_ID} (this instance's identity, a DNS
 * label unique among them; default the host name, a pod's name in Kubernetes), {@code EVENTPLANE_NODESIM_LEASE_SECONDS}
 * (15: a crashed instance's nodes are taken over this long after its last renewal) and
 * {@code EVENTPLANE_NODESIM_RENEW_SECONDS} (5). A clean stop hands the nodes over at once.
 */
public final class NodeSimMain {
    private NodeSimMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        try {
            Stages.fromEnvironment(); // checked before anything starts
            RunDefaults.fromEnvironment();
        } catch (IllegalArgumentException e) {
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
