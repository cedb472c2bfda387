package io.eventplane.launcher;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eventplane.gateway.GatewayServer;
import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.testkit.FreePorts;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The fixture of the real-kubectl tests: a {@link ControlLoop} (writer, view, scheduler, simulated nodes) with the
 * controllers a test names, a gateway over it on a free port, and the real kubectl with its kubeconfig in the test's
 * directory. Skips the test class when kubectl is not on the PATH.
 */
final class KubectlCluster implements AutoCloseable {
    private final ControlLoop loop;
    private GatewayServer gateway;
    private Kubectl kubectl;

    private KubectlCluster(ControlLoop loop) {
        this.loop = loop;
    }

    /** A new loop with {@code controllers} (kube-controller-manager's names, comma-separated; null: none). */
    static KubectlCluster start(Path dir, String controllers) throws IOException {
        return start(new ControlLoop(), dir, controllers, null);
    }

    /**
     * {@code loop} (configured, not started) with {@code controllers}, and a gateway that allocates Services from
     * {@code network} (null: the gateway's default, no allocation).
     */
    static KubectlCluster start(ControlLoop loop, Path dir, String controllers, ServiceNetwork network)
            throws IOException {
        assumeTrue(Kubectl.path() != null, "kubectl is not on PATH");
        KubectlCluster cluster = new KubectlCluster(loop);
        try {
            loop.start(dir.resolve("loop"));
            if (controllers != null) {
                loop.startControllers(controllers);
            }
            cluster.gateway = network == null ? GatewayServer.start(loop.config(), FreePorts.next(), "127.0.0.1")
                    : GatewayServer.start(loop.config(), FreePorts.next(), "127.0.0.1", network);
            cluster.kubectl = Kubectl.against(dir, cluster.gateway.url());
            return cluster;
        } catch (IOException | RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
    }

    ControlLoop loop() {
        return loop;
    }

    GatewayServer gateway() {
        return gateway;
    }

    /** kubectl against the gateway; its directory ({@link Kubectl#dir()}) is the test's, for manifests too. */
    Kubectl kubectl() {
        return kubectl;
    }

    @Override
    public void close() {
        if (gateway != null) {
            gateway.close();
        }
        loop.close();
    }
}
