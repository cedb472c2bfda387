package io.eventplane.faults;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.controllers.ControllerManager;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.topology.WriterService;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * The writer and one gateway in this JVM, on fresh topics of the JVM's shared broker and registry, with the
 * serviceaccount controller: pods are admitted as their namespace's default account, which it creates.
 */
final class WriterAndGateway implements AutoCloseable {
    final EventplaneConfig config;
    final WriterService writer;
    final GatewayServer gateway;
    final ControllerRuntime accounts;
    final Api api;

    private WriterAndGateway(EventplaneConfig config, WriterService writer, GatewayServer gateway,
                             ControllerRuntime accounts) {
        this.config = config;
        this.writer = writer;
        this.gateway = gateway;
        this.accounts = accounts;
        this.api = new Api(gateway.url());
    }

    static WriterAndGateway start(String name, ObjectDecider decider) throws InterruptedException {
        return start(name, decider, 200);
    }

    /** As the other start, with the writer's transaction commit interval (short: many writes, each awaited). */
    static WriterAndGateway start(String name, ObjectDecider decider, long commitIntervalMs)
            throws InterruptedException {
        SharedCluster cluster = SharedCluster.get().startAll();
        String prefix = SharedCluster.uniqueName(name);
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics(prefix), 1);
        WriterService writer = new WriterService(config, Path.of("target", "writer-" + UUID.randomUUID()), commitIntervalMs,
                decider == null ? new ObjectDecider(RulesRegistry.standard()) : decider).start();
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!writer.isReady()) {
            if (System.nanoTime() > deadline) {
                writer.close();
                throw new IllegalStateException("the writer did not start");
            }
            Thread.sleep(50);
        }
        GatewayServer gateway = GatewayServer.start(config, 0, "127.0.0.1");
        ControllerRuntime accounts = ControllerManager.start(config, Clock.systemUTC(), "serviceaccount", false);
        while (!accounts.isReady()) {
            if (System.nanoTime() > deadline) {
                accounts.close();
                gateway.close();
                writer.close();
                throw new IllegalStateException("the serviceaccount controller did not start");
            }
            Thread.sleep(50);
        }
        return new WriterAndGateway(config, writer, gateway, accounts);
    }

    @Override
    public void close() {
        accounts.close();
        gateway.close();
        writer.close();
    }
}
