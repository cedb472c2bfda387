package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Simulated load and the horizontal pod autoscaler with the real kubectl, in wall time: the seed's ReplicaSet
 * {@code frontend} under a declared workload load ({@code sim.eventplane.io/cpu-load}, shared by its Ready pods),
 * {@code kubectl top nodes|pods} from the metrics API, and an autoscaling/v2 HPA that scales it up when the load rises
 * and back down when it falls (a 20 s scale-down window here instead of the default 300 s). The kubelets sample every
 * second instead of every 15 s.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlAutoscalingTest {
    private static final String FRONTEND = """
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata:
              name: frontend
              labels:
                app: guestbook
                tier: frontend
              annotations:
                sim.eventplane.io/cpu-load: 150m
            spec:
              replicas: 3
              selector:
                matchLabels:
                  tier: frontend
              template:
                metadata:
                  labels:
                    tier: frontend
                spec:
                  containers:
                  - name: php-redis
                    image: us-docker.pkg.dev/google-samples/containers/gke/gb-frontend:v5
                    resources:
                      requests:
                        cpu: 100m
                        memory: 64Mi
            """;
    private static final String SCALER = """
            apiVersion: autoscaling/v2
            kind: HorizontalPodAutoscaler
            metadata:
              name: frontend-scaler
            spec:
              scaleTargetRef:
                apiVersion: apps/v1
                kind: ReplicaSet
                name: frontend
              minReplicas: 3
              maxReplicas: 10
              metrics:
              - type: Resource
                resource:
                  name: cpu
                  target:
                    type: Utilization
                    averageUtilization: 50
              behavior:
                scaleDown:
                  stabilizationWindowSeconds: 20
            """;

    /** The seed's autoscaling/v1 example (shared/examples/horizontalpodautoscaler-frontend-scaler.yaml). */
    private static final String SEED_SCALER = """
            apiVersion: autoscaling/v1
            kind: HorizontalPodAutoscaler
            metadata:
              name: frontend-scaler
            spec:
              scaleTargetRef:
                kind: ReplicaSet
                name: frontend
              minReplicas: 3
              maxReplicas: 10
              targetCPUUtilizationPercentage: 50
            """;

    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(new ControlLoop().withUsageInterval(Duration.ofSeconds(1)), tmp,
                "replicaset,horizontalpodautoscaling", null);
        kubectl = cluster.kubectl();
        Files.writeString(kubectl.dir().resolve("frontend.yaml"), FRONTEND);
        Files.writeString(kubectl.dir().resolve("scaler.yaml"), SCALER);
        Files.writeString(kubectl.dir().resolve("seed-scaler.yaml"), SEED_SCALER);
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("RS-19 (its HPA written as autoscaling/v2): kubectl top shows the declared load; the HPA scales frontend up when it rises and "
            + "back to its minimum when it falls; kubectl get hpa shows the targets")
    void frontendScales() throws Exception {
        kubectl.ok("apply", "-f", kubectl.dir().resolve("frontend.yaml").toString());
        // 150m shared by 3 Ready pods: 50m each
        String pods = kubectl.until(o -> o.split("\n").length == 4 && o.matches("(?s).*frontend-\\S+\\s+50m\\s+.*"),
                90, "top", "pods", "-l", "tier=frontend");
        assertTrue(pods.startsWith("NAME"), pods);
        String nodes = kubectl.until(o -> o.contains("CPU(cores)") && o.split("\n").length == 4, 30, "top", "nodes");
        assertTrue(nodes.matches("(?s).*\\n\\S+\\s+\\d+m\\s+\\d+%\\s+\\d+Mi\\s+\\d+%.*"), nodes);
        // --containers: one row per container, from PodMetrics' containers
        String containers = kubectl.ok("top", "pods", "-l", "tier=frontend", "--containers");
        assertTrue(containers.startsWith("POD"), containers);
        assertEquals(3, containers.lines().filter(l -> l.strip().matches("frontend-\\S+\\s+php-redis\\s+50m\\s+\\d+Mi")).count(),
                containers);
        // --sort-by=cpu: highest first
        List<Integer> cpus = kubectl.ok("top", "nodes", "--sort-by=cpu").lines().skip(1)
                .map(l -> Integer.parseInt(l.split("\\s+")[1].replace("m", ""))).toList();
        assertEquals(cpus.stream().sorted(java.util.Comparator.reverseOrder()).toList(), cpus);

        kubectl.ok("apply", "-f", kubectl.dir().resolve("scaler.yaml").toString());
        kubectl.until(o -> o.matches("(?s).*frontend-scaler\\s+ReplicaSet/frontend\\s+cpu: 50%/50%\\s+3\\s+10\\s+3\\s+.*"),
                60, "get", "hpa");

        // the load rises: 1200m over 3 pods is 400% of the request; +4 pods per 15 s up to the maximum
        kubectl.ok("annotate", "--overwrite", "rs", "frontend", "sim.eventplane.io/cpu-load=1200m");
        kubectl.until(o -> o.equals("10"), 120, "get", "rs", "frontend", "-o", "jsonpath={.spec.replicas}");
        String describe = kubectl.ok("describe", "hpa", "frontend-scaler");
        assertTrue(describe.contains("SuccessfulRescale"), describe);
        assertTrue(describe.contains("above target"), describe);

        // the load falls: 100m over 10 pods is 10%; after the 20 s window, down to minReplicas
        kubectl.ok("annotate", "--overwrite", "rs", "frontend", "sim.eventplane.io/cpu-load=100m");
        kubectl.until(o -> o.equals("3"), 120, "get", "rs", "frontend", "-o", "jsonpath={.spec.replicas}");
        kubectl.until(o -> o.contains("All metrics below target"), 30, "describe", "hpa", "frontend-scaler");
    }

    @Test
    @DisplayName("AC-RS-08 / RS-19: the seed's autoscaling/v1 HPA applies, kubectl get hpa shows it, it reads back as v1 and as "
            + "v2 (a cpu Utilization metric); kubectl autoscale deployment creates one too")
    void autoscalingV1() throws Exception {
        kubectl.ok("create", "namespace", "seed");
        String applied = kubectl.ok("apply", "-n", "seed", "-f", kubectl.dir().resolve("seed-scaler.yaml").toString());
        assertTrue(applied.contains("horizontalpodautoscaler.autoscaling/frontend-scaler created"), applied);
        kubectl.until(o -> o.matches("(?s).*frontend-scaler\\s+ReplicaSet/frontend\\s+cpu: \\S+/50%\\s+3\\s+10\\s+.*"),
                30, "get", "hpa", "-n", "seed");

        String v1 = kubectl.ok("get", "horizontalpodautoscalers.v1.autoscaling", "frontend-scaler", "-n", "seed", "-o", "yaml");
        assertTrue(v1.contains("apiVersion: autoscaling/v1"), v1);
        assertTrue(v1.contains("targetCPUUtilizationPercentage: 50"), v1);
        assertTrue(v1.contains("kind: ReplicaSet"), v1);
        String v2 = kubectl.ok("get", "horizontalpodautoscalers.v2.autoscaling", "frontend-scaler", "-n", "seed", "-o",
                "jsonpath={.apiVersion} {.spec.metrics[0].resource.name} {.spec.metrics[0].resource.target.averageUtilization}");
        assertEquals("autoscaling/v2 cpu 50", v2);
        // applied again unchanged: the v1 object the server holds equals the file's
        String again = kubectl.ok("apply", "-n", "seed", "-f", kubectl.dir().resolve("seed-scaler.yaml").toString());
        assertTrue(again.contains("unchanged"), again);

        kubectl.ok("create", "deployment", "x", "-n", "seed", "--image=registry.k8s.io/pause:3.10");
        String autoscaled = kubectl.ok("autoscale", "deployment", "x", "-n", "seed", "--cpu-percent=50", "--min=1", "--max=5");
        assertTrue(autoscaled.contains("horizontalpodautoscaler.autoscaling/x autoscaled"), autoscaled);
        kubectl.until(o -> o.matches("(?s).*\\nx\\s+Deployment/x\\s+cpu: \\S+/50%\\s+1\\s+5\\s+.*"), 30, "get", "hpa", "-n", "seed");
        assertEquals("50", kubectl.ok("get", "horizontalpodautoscalers.v1.autoscaling", "x", "-n", "seed", "-o",
                "jsonpath={.spec.targetCPUUtilizationPercentage}"));
    }
}
