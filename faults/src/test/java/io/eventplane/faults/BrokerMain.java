package io.eventplane.faults;

import io.eventplane.testkit.EmbeddedKafka;
import java.nio.file.Path;

/**
 * A Kafka broker as a process of its own, so that a test can {@code kill -9} it: {@code BrokerMain <log dir> <port>
 * <controller port>}. Restarted with the same arguments it comes back on the same ports with the same data.
 */
public final class BrokerMain {
    private BrokerMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(Path.of(args[0])).port(Integer.parseInt(args[1]))
                .controllerPort(Integer.parseInt(args[2]))
                // as LocalCluster: a restart after kill -9 waits out the dead incarnation's session (9 s by default)
                .brokerProperty("broker.session.timeout.ms", "4000")
                .brokerProperty("broker.heartbeat.interval.ms", "1000")
                .build().start();
        System.out.println("BROKER READY " + kafka.bootstrapServers() + " in " + kafka.startupDuration().toMillis()
                + " ms");
        Thread.currentThread().join();
    }
}
