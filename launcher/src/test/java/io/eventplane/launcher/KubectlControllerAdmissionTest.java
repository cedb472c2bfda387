package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 with the real kubectl: pods a controller creates go through admission as the API's do (ResourceQuota,
 * LimitRanger), against the API gateway, the writer, the scheduler, simulated nodes and the controllers on a real
 * broker and registry. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlControllerAdmissionTest {
    private static final String NS = "limited";
    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(tmp, "replicaset,deployment,garbagecollector,namespace,serviceaccount,"
                + "resourcequota");
        kubectl = cluster.kubectl();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private List<String> lines(String... args) throws Exception {
        String out = kubectl.ok(args);
        return out.isBlank() ? List.of() : Arrays.asList(out.split("\n"));
    }

    private List<String> runningPods() throws Exception {
        return lines("get", "pods", "-n", NS, "--no-headers").stream().filter(l -> l.contains("Running")).toList();
    }

    @Test
    @DisplayName("DEP-54 RS-23 issue 16: kubectl create deployment --replicas=4 under quota pods=2 runs exactly 2 pods "
            + "with the LimitRange defaults; FailedCreate Events carry the exceeded-quota message and the ReplicaSet "
            + "(and Deployment) report ReplicaFailure; raising the quota to 4 brings the other 2 and clears it")
    void deploymentUnderQuota() throws Exception {
        kubectl.ok("create", "namespace", NS);
        kubectl.until(o -> o.contains("default"), "get", "serviceaccounts", "-n", NS);
        assertEquals("resourcequota/pods created\n", kubectl.ok("create", "quota", "pods", "--hard=pods=2", "-n", NS));
        kubectl.until(o -> o.contains("pods: 0/2"), "get", "quota", "pods", "-n", NS, "--no-headers");
        Kubectl.Result lr = kubectl.runWithStdin("""
                apiVersion: v1
                kind: LimitRange
                metadata:
                  name: defaults
                spec:
                  limits:
                  - type: Container
                    default: {cpu: 500m, memory: 256Mi}
                    defaultRequest: {cpu: 100m, memory: 64Mi}
                """, "apply", "-n", NS, "-f", "-");
        assertEquals("limitrange/defaults created\n", lr.out(), lr.out());

        assertEquals("deployment.apps/web created\n",
                kubectl.ok("create", "deployment", "web", "--image=nginx:1.27", "--replicas=4", "-n", NS));
        kubectl.until(o -> o.contains("ReplicaFailure"), 90, "get", "rs", "-n", NS, "-o",
                "jsonpath={.items[0].status.conditions}");
        kubectl.until(o -> o.split("Running").length == 3, 90, "get", "pods", "-n", NS, "--no-headers");
        String rsName = kubectl.ok("get", "rs", "-n", NS, "-o", "jsonpath={.items[0].metadata.name}");
        String failure = "Error creating: pods \"" + rsName + "-\" is forbidden: exceeded quota: pods, requested: "
                + "pods=1, used: pods=2, limited: pods=2";
        assertEquals("True FailedCreate " + failure, kubectl.ok("get", "rs", rsName, "-n", NS, "-o",
                "jsonpath={.status.conditions[?(@.type==\"ReplicaFailure\")]['status','reason','message']}"));
        String events = kubectl.until(o -> o.contains("FailedCreate"), "get", "events", "-n", NS, "-o",
                "jsonpath={range .items[*]}{.type} {.reason} {.involvedObject.kind}/{.involvedObject.name}: "
                        + "{.message}{\"\\n\"}{end}");
        assertTrue(events.contains("Warning FailedCreate ReplicaSet/" + rsName + ": " + failure + "\n"), events);
        kubectl.until(o -> o.contains("FailedCreate"), 60, "get", "deployment", "web", "-n", NS, "-o",
                "jsonpath={.status.conditions[?(@.type==\"ReplicaFailure\")].reason}");

        List<String> pods = lines("get", "pods", "-n", NS, "-o", "jsonpath={range .items[*]}"
                + "{.spec.containers[0].resources.requests.cpu} {.spec.containers[0].resources.requests.memory} "
                + "{.spec.containers[0].resources.limits.cpu} {.spec.containers[0].resources.limits.memory} "
                + "{.metadata.annotations.kubernetes\\.io/limit-ranger}{\"\\n\"}{end}");
        assertEquals(List.of(
                "100m 64Mi 500m 256Mi LimitRanger plugin set: cpu, memory request for container nginx; cpu, memory limit for container nginx",
                "100m 64Mi 500m 256Mi LimitRanger plugin set: cpu, memory request for container nginx; cpu, memory limit for container nginx"),
                pods);
        assertEquals(2, runningPods().size());
        kubectl.until(o -> o.contains("pods: 2/2"), "get", "quota", "pods", "-n", NS, "--no-headers");

        kubectl.ok("patch", "quota", "pods", "-n", NS, "--type=merge", "-p", "{\"spec\":{\"hard\":{\"pods\":\"4\"}}}");
        kubectl.until(o -> o.split("Running").length == 5, 120, "get", "pods", "-n", NS, "--no-headers");
        kubectl.until(o -> !o.contains("ReplicaFailure"), 60, "get", "rs", rsName, "-n", NS, "-o",
                "jsonpath={.status.conditions}");
        kubectl.until(o -> o.contains("4/4"), 60, "get", "deployment", "web", "-n", NS, "--no-headers");
        kubectl.until(o -> o.isEmpty(), 60, "get", "deployment", "web", "-n", NS, "-o",
                "jsonpath={.status.conditions[?(@.type==\"ReplicaFailure\")].reason}");
        assertEquals(4, runningPods().size());
    }
}
