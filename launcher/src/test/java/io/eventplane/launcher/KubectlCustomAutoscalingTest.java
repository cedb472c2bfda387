package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.reconcile.Controller;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 26 item 3 end to end: a CustomResourceDefinition with the scale subresource, an operator
 * ({@link WebAppOperator}) keeping a Deployment for each custom object, {@code kubectl scale} on the custom object,
 * and {@code kubectl autoscale} making the horizontal pod autoscaler scale it up under the simulated nodes' CPU load
 * and back down after, as {@link KubectlAutoscalingTest} does for a ReplicaSet. The kubelets sample every second.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlCustomAutoscalingTest {
    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: webapps.shop.example.com
            spec:
              group: shop.example.com
              scope: Namespaced
              names:
                plural: webapps
                singular: webapp
                kind: WebApp
                shortNames: [wa]
              versions:
              - name: v1
                served: true
                storage: true
                schema:
                  openAPIV3Schema:
                    type: object
                    properties:
                      spec:
                        type: object
                        properties:
                          replicas: {type: integer, minimum: 0}
                          image: {type: string}
                      status:
                        type: object
                        properties:
                          replicas: {type: integer}
                          selector: {type: string}
                subresources:
                  status: {}
                  scale:
                    specReplicasPath: .spec.replicas
                    statusReplicasPath: .status.replicas
                    labelSelectorPath: .status.selector
                additionalPrinterColumns:
                - {name: Desired, type: integer, jsonPath: .spec.replicas}
                - {name: Current, type: integer, jsonPath: .status.replicas}
            """;
    /** 150m of CPU shared by the Ready pods: 50% of a pod's 100m request with 3 of them. */
    private static final String SHOP = """
            apiVersion: shop.example.com/v1
            kind: WebApp
            metadata:
              name: shop
              annotations:
                sim.eventplane.io/cpu-load: 150m
            spec:
              replicas: 1
              image: registry.k8s.io/pause:3.10
            """;
    private static final String SCALE = "/apis/shop.example.com/v1/namespaces/default/webapps/shop/scale";

    private KubectlCluster cluster;
    private Kubectl kubectl;
    private Controller operator;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(new ControlLoop().withUsageInterval(Duration.ofSeconds(1)), tmp,
                "deployment,replicaset,horizontalpodautoscaling", null);
        operator = Controller.keyed(cluster.loop().config(), "webapp-operator", "webapp-operator", Clock.systemUTC(),
                new WebAppOperator()).start();
        kubectl = cluster.kubectl();
        Files.writeString(kubectl.dir().resolve("crd.yaml"), CRD);
        Files.writeString(kubectl.dir().resolve("shop.yaml"), SHOP);
    }

    @AfterAll
    void stop() {
        if (operator != null) {
            operator.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    @DisplayName("CRD-40 kubectl scale on a custom object with the scale subresource: the operator's Deployment "
            + "follows spec.replicas, its status.replicas and status.selector come back through /scale and the "
            + "printer columns")
    void kubectlScale() throws Exception {
        kubectl.ok("apply", "-f", kubectl.dir().resolve("crd.yaml").toString());
        kubectl.until(o -> o.contains("webapps"), 30, "api-resources", "--api-group=shop.example.com");
        kubectl.ok("apply", "-f", kubectl.dir().resolve("shop.yaml").toString());
        kubectl.until(o -> o.equals("1 app=shop"), 60, "get", "webapp", "shop", "-o",
                "jsonpath={.status.replicas} {.status.selector}");

        assertEquals("webapp.shop.example.com/shop scaled\n", kubectl.ok("scale", "webapp/shop", "--replicas=3"));
        kubectl.until(o -> o.equals("3"), 60, "get", "deployment", "shop", "-o", "jsonpath={.spec.replicas}");
        String table = kubectl.until(o -> o.matches("(?s).*\\nshop\\s+3\\s+3\\s+.*"), 60, "get", "wa");
        assertTrue(table.startsWith("NAME") && table.contains("DESIRED") && table.contains("CURRENT"), table);
        JsonNode scale = Http.JSON.readTree(kubectl.ok("get", "--raw", SCALE));
        assertEquals("autoscaling/v1 Scale", scale.path("apiVersion").asText() + " " + scale.path("kind").asText());
        assertEquals(3, scale.path("spec").path("replicas").asInt(), scale.toString());
        assertEquals(3, scale.path("status").path("replicas").asInt(), scale.toString());
        assertEquals("app=shop", scale.path("status").path("selector").asText(), scale.toString());
        // --current-replicas is a precondition kubectl checks against the scale subresource
        String refused = kubectl.fails("scale", "webapp/shop", "--current-replicas=2", "--replicas=4");
        assertTrue(refused.contains("Expected replicas to be 2, was 3"), refused);
    }

    @Test
    @Order(2)
    @DisplayName("CRD-41 kubectl autoscale on a custom object: the HPA measures the pods of its scale's selector, "
            + "scales it up when the simulated CPU load rises and back to its minimum when it falls; kubectl get hpa "
            + "shows REFERENCE, TARGETS and REPLICAS")
    void kubectlAutoscale() throws Exception {
        // 150m over 3 Ready pods: 50m each, 50% of the request
        kubectl.until(o -> o.lines().filter(l -> l.matches("shop-\\S+\\s+50m\\s+.*")).count() == 3, 90,
                "top", "pods", "-l", "app=shop");
        assertEquals("horizontalpodautoscaler.autoscaling/shop autoscaled\n",
                kubectl.ok("autoscale", "webapp/shop", "--min=3", "--max=10", "--cpu-percent=50"));
        // a short scale-down window instead of the default 300 s, as a user would set it
        kubectl.ok("patch", "horizontalpodautoscalers.v2.autoscaling", "shop", "--type=merge", "-p",
                "{\"spec\":{\"behavior\":{\"scaleDown\":{\"stabilizationWindowSeconds\":20}}}}");
        kubectl.until(o -> o.matches("(?s).*\\nshop\\s+WebApp/shop\\s+cpu: 50%/50%\\s+3\\s+10\\s+3\\s+.*"), 60,
                "get", "hpa");

        // the load rises: 1200m over 3 pods is 400% of the request
        kubectl.ok("annotate", "--overwrite", "webapp", "shop", "sim.eventplane.io/cpu-load=1200m");
        kubectl.until(o -> o.equals("10"), 120, "get", "webapp", "shop", "-o", "jsonpath={.spec.replicas}");
        kubectl.until(o -> o.equals("10"), 60, "get", "deployment", "shop", "-o", "jsonpath={.spec.replicas}");
        kubectl.until(o -> o.matches("(?s).*\\nshop\\s+WebApp/shop\\s+cpu: \\d+%/50%\\s+3\\s+10\\s+10\\s+.*"), 60,
                "get", "hpa");
        String describe = kubectl.ok("describe", "hpa", "shop");
        assertTrue(describe.contains("SuccessfulRescale") && describe.contains("above target"), describe);
        assertTrue(describe.contains("WebApp/shop"), describe);

        // the load falls: 100m over 10 pods is 10%; after the 20 s window, down to minReplicas
        kubectl.ok("annotate", "--overwrite", "webapp", "shop", "sim.eventplane.io/cpu-load=100m");
        kubectl.until(o -> o.equals("3"), 120, "get", "webapp", "shop", "-o", "jsonpath={.spec.replicas}");
        kubectl.until(o -> o.equals("3 app=shop"), 90, "get", "webapp", "shop", "-o",
                "jsonpath={.status.replicas} {.status.selector}");
        kubectl.until(o -> o.contains("All metrics below target"), 30, "describe", "hpa", "shop");
    }
}
