package io.eventplane.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The rows of the kubectl contract that the smoke and workload suites do not cover: explain, api-resources, the
 * patch types, label/annotate, edit through KUBE_EDITOR, diff, wait, and Kubernetes' error texts. Skipped without
 * kubectl on PATH.
 */
class KubectlContractTest {
    private static GatewayFixture f;
    private static Path dir;
    private static Kubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        assumeTrue(Kubectl.onPath() != null, "kubectl is not on PATH");
        f = GatewayFixture.start();
        dir = Files.createTempDirectory("kubectl-contract");
        kubectl = Kubectl.configure(dir, f.url());
    }

    @AfterAll
    static void stop() {
        if (f != null) {
            f.close();
        }
    }

    private static Kubectl.Result ok(String... args) throws IOException, InterruptedException {
        Kubectl.Result r = kubectl.run(args);
        assertEquals(0, r.exit(), () -> "kubectl " + String.join(" ", args) + ":\n" + r.out());
        return r;
    }

    @Test
    @DisplayName("kubectl explain walks the OpenAPI v3 schemas generated from Avro: nested records, lists, "
            + "IntOrString, Quantity maps and required fields")
    void explain() throws Exception {
        Kubectl.Result strategy = ok("explain", "deployment.spec.strategy");
        assertTrue(strategy.out().contains("GROUP:      apps"), strategy.out());
        assertTrue(strategy.out().contains("KIND:       Deployment"), strategy.out());
        assertTrue(strategy.out().contains("FIELD: strategy <DeploymentStrategy>"), strategy.out());
        assertTrue(strategy.out().matches("(?s).*rollingUpdate\\s+<RollingUpdateDeployment>.*"), strategy.out());
        assertTrue(strategy.out().matches("(?s).*type\\s+<string>\\s+Recreate or RollingUpdate\\..*"), strategy.out());

        Kubectl.Result surge = ok("explain", "deploy.spec.strategy.rollingUpdate.maxSurge");
        assertTrue(surge.out().contains("FIELD: maxSurge <IntOrString>"), surge.out());

        Kubectl.Result containers = ok("explain", "pod.spec.containers");
        assertTrue(containers.out().contains("KIND:       Pod"), containers.out());
        assertTrue(containers.out().contains("FIELD: containers <[]Container>"), containers.out());
        assertTrue(containers.out().matches("(?s).*\\bname\\s+<string> -required-.*"), containers.out());
        assertTrue(containers.out().matches("(?s).*\\bports\\s+<\\[]ContainerPort>.*"), containers.out());
        assertTrue(containers.out().matches("(?s).*\\benv\\s+<\\[]EnvVar>.*"), containers.out());

        Kubectl.Result limits = ok("explain", "pod.spec.containers.resources.limits");
        assertTrue(limits.out().contains("FIELD: limits <map[string]Quantity>"), limits.out());
        Kubectl.Result created = ok("explain", "pods.metadata.creationTimestamp");
        assertTrue(created.out().contains("FIELD: creationTimestamp <string>"), created.out());

        Kubectl.Result top = ok("explain", "cronjobs");
        assertTrue(top.out().matches("(?s).*GROUP:\\s+batch.*KIND:\\s+CronJob.*apiVersion\\s+<string>.*spec\\s+<CronJobSpec>.*"),
                top.out());
        Kubectl.Result events = ok("explain", "events.regarding", "--api-version=events.k8s.io/v1");
        assertTrue(events.out().contains("FIELD: regarding <ObjectReference>"), events.out());

        Kubectl.Result bogus = kubectl.run("explain", "deployment.spec.bogus");
        assertTrue(bogus.exit() != 0 && bogus.out().contains("field \"bogus\" does not exist"), bogus.out());
    }
}
