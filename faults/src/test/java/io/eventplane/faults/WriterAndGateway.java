package io.eventplane.faults;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.gateway.GatewayServer;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.topology.WriterGroup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

/** The writer and one gateway in this JVM, on fresh topics of the JVM's shared broker and registry. */
final class WriterAndGateway implements AutoCloseable {
    final EventplaneConfig config;
    final WriterGroup writer;
    final GatewayServer gateway;
    final Api api;

    private WriterAndGateway(EventplaneConfig config, WriterGroup writer, GatewayServer gateway) {
        this.config = config;
        this.writer = writer;
        this.gateway = gateway;
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
                new Topics(prefix), EventplaneConfig.configuredPartitions());
        WriterGroup writer = new WriterGroup(config, Path.of("target", "writer-" + UUID.randomUUID()), commitIntervalMs,
                EventplaneConfig.configuredWriters(),
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
        WriterAndGateway started = new WriterAndGateway(config, writer, gateway);
        // Pods are admitted as their namespace's default ServiceAccount. It is created here once, as the
        // serviceaccount controller would, rather than by running the controller, whose writes would move the log
        // under the fuzzer's "a refusal leaves the log unchanged" check.
        try {
            int code = started.api.post("/api/v1/namespaces/default/serviceaccounts",
                    "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\",\"metadata\":{\"name\":\"default\"}}")
                    .statusCode();
            if (code != 201 && code != 409) {
                throw new IllegalStateException("the default ServiceAccount was answered " + code);
            }
        } catch (java.io.IOException e) {
            started.close();
            throw new IllegalStateException("the default ServiceAccount could not be created", e);
        }
        return started;
    }

    @Override
    public void close() {
        gateway.close();
        writer.close();
    }
}
