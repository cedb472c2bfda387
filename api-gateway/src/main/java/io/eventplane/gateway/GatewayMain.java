package io.eventplane.gateway;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.log.SnapshotService;
import java.util.concurrent.CountDownLatch;

/**
 * The API gateway as its own process. Configuration from the environment: the log as
 * {@link EventplaneConfig#fromEnvironment()} reads it, plus {@code EVENTPLANE_API_PORT} (default 8080: the gateway
 * speaks plain HTTP; 6443 would suggest TLS, which it does not terminate) and {@code EVENTPLANE_API_HOST} (default
 * 0.0.0.0, as a service in a pod; the launcher binds loopback instead). No authentication: keep it on a private
 * network.
 */
public final class GatewayMain {
    private GatewayMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        // Avro refuses to decode generated classes outside trusted packages (stack.md pitfall 1).
        if (System.getProperty("org.apache.avro.SERIALIZABLE_PACKAGES") == null) {
            System.setProperty("org.apache.avro.SERIALIZABLE_PACKAGES", "io.eventplane");
        }
        if (System.getProperty("log4j2.configurationFile") == null) {
            System.setProperty("log4j2.configurationFile", "log4j2-gateway.xml");
        }
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        int port = Integer.parseInt(EventplaneConfig.setting("EVENTPLANE_API_PORT", "8080"));
        String host = EventplaneConfig.setting("EVENTPLANE_API_HOST", "0.0.0.0");
        GatewayServer gateway = GatewayServer.start(config, port, host);
        // Snapshots bound the cost of time travel and audit; one writer of them is enough (EVENTPLANE_SNAPSHOTS=false
        // on all gateways but one when running several).
        SnapshotService snapshots = Boolean.parseBoolean(EventplaneConfig.setting("EVENTPLANE_SNAPSHOTS", "true"))
                ? SnapshotService.fromEnvironment(config).start() : null;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (snapshots != null) {
                snapshots.close();
            }
            gateway.close();
            stopped.countDown();
        }, "gateway-shutdown"));
        stopped.await();
    }
}
