package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.SharedClusterExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;
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
 * DaemonSets end to end with the real kubectl against the API gateway, the writer, the scheduler, three simulated
 * nodes and the controllers (DaemonSet, Deployment, ReplicaSet, disruption, garbage collector, PodGC) on a real
 * broker; nodes are added and removed at run time with {@code eventplane node add|remove}. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubectlDaemonSetTest {
    /** The seed's example (shared/examples), with the volumes the seed's text cuts off. */
    private static final String FLUENTD = """
            apiVersion: apps/v1
            kind: DaemonSet
            metadata:
              name: fluentd-elasticsearch
              namespace: kube-system
              labels:
                k8s-app: fluentd-logging
            spec:
              selector:
                matchLabels:
                  name: fluentd-elasticsearch
              template:
                metadata:
                  labels:
                    name: fluentd-elasticsearch
                spec:
                  tolerations:
                  - key: node-role.kubernetes.io/master
                    effect: NoSchedule
                  containers:
                  - name: fluentd-elasticsearch
                    image: quay.io/fluentd_elasticsearch/fluentd:v2.5.2
                    resources:
                      limits:
                        memory: 200Mi
                      requests:
                        cpu: 100m
                        memory: 200Mi
                    volumeMounts:
                    - name: varlog
                      mountPath: /var/log
                    - name: varlibdockercontainers
                      mountPath: /var/lib/docker/containers
                      readOnly: true
                  terminationGracePeriodSeconds: 30
                  volumes:
                  - name: varlog
                    hostPath:
                      path: /var/log
                  - name: varlibdockercontainers
                    hostPath:
                      path: /var/lib/docker/containers
            """;
    private static final String AGENT_AND_WEB = """
            apiVersion: apps/v1
            kind: DaemonSet
            metadata:
              name: node-agent
            spec:
              selector:
                matchLabels: {app: node-agent}
              template:
                metadata:
                  labels: {app: node-agent}
                spec:
                  containers:
                  - {name: agent, image: "busybox:1.36"}
            ---
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
            spec:
              replicas: 1
              selector:
                matchLabels: {app: web}
              template:
                metadata:
                  labels: {app: web}
                spec:
                  containers:
                  - {name: nginx, image: "nginx:1.14.2"}
            """;

    private KubectlCluster cluster;
    private Path dir;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        dir = tmp;
        cluster = KubectlCluster.start(tmp, "replicaset,deployment,daemonset,disruption,garbagecollector,podgc");
        Files.writeString(dir.resolve("fluentd.yaml"), FLUENTD);
        Files.writeString(dir.resolve("agent-and-web.yaml"), AGENT_AND_WEB);
        Files.writeString(dir.resolve("kube-system.yaml"), "{apiVersion: v1, kind: Namespace, metadata: {name: kube-system}}");
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    @DisplayName("DS-09 kubectl drain: without --ignore-daemonsets it cordons the node and refuses (DaemonSet-managed "
            + "pods); with it, it evicts only the Deployment's pod and the daemon pod stays on the cordoned node")
    void drain() throws Exception {
        ok("apply", "-f", dir.resolve("agent-and-web.yaml").toString());
        until(o -> o.matches("(?s).*node-agent\\s+3\\s+3\\s+3\\s+3\\s+3\\s.*"), "get", "ds");
        String node = until(o -> !o.isBlank(), "get", "pods", "-l", "app=web", "-o",
                "jsonpath={.items[?(@.status.phase==\"Running\")].spec.nodeName}").trim();
        String agent = ok("get", "pods", "-l", "app=node-agent", "--field-selector", "spec.nodeName=" + node,
                "-o", "name").trim();

        Kubectl.Result refused = kubectl("drain", node, "--timeout=60s");
        assertEquals(1, refused.exit(), refused.out());
        assertTrue(refused.out().contains("node/" + node + " cordoned"), refused.out());
        assertTrue(refused.out().contains("cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): "
                + "default/" + agent.substring("pod/".length())), refused.out());

        String drained = ok("drain", node, "--ignore-daemonsets", "--timeout=90s");
        assertTrue(drained.contains("Warning: ignoring DaemonSet-managed Pods: default/" + agent.substring(4)), drained);
        assertTrue(drained.contains("evicting pod default/web-"), drained);
        assertTrue(drained.contains("node/" + node + " drained"), drained);
        assertTrue(ok("get", "node", node).contains("SchedulingDisabled"));
        assertEquals(agent, ok("get", "pods", "-l", "app=node-agent", "--field-selector", "spec.nodeName=" + node,
                "-o", "name").trim(), "the daemon pod stays");
        String webNode = until(o -> !o.isBlank(), "get", "pods", "-l", "app=web", "-o",
                "jsonpath={.items[?(@.status.phase==\"Running\")].spec.nodeName}").trim();
        assertTrue(!webNode.equals(node), "the Deployment's pod runs elsewhere: " + webNode);

        ok("uncordon", node);
        ok("delete", "-f", dir.resolve("agent-and-web.yaml").toString());
        until(o -> o.contains("No resources found"), "get", "pods", "-l", "app in (node-agent,web)");
    }

    @Test
    @Order(2)
    @DisplayName("DS-04 DS-05 DS-07 DS-09 DS-13 DS-14 DS-16 AC-DS-01 AC-DS-03 AC-DS-05: the seed's fluentd-elasticsearch "
            + "with the real kubectl: one pod per node (one of them cordoned), a node added and removed at run time, the image rolled (rollout "
            + "status, history, undo), an orphaning delete and adoption, then the set deleted with its pods")
    void walkthrough() throws Exception {
        kubectl("apply", "-f", dir.resolve("kube-system.yaml").toString());
        ok("cordon", "node-3");
        assertEquals("daemonset.apps/fluentd-elasticsearch created\n", ok("apply", "-f", dir.resolve("fluentd.yaml").toString()));
        String ds = until(o -> o.matches("(?s).*fluentd-elasticsearch\\s+3\\s+3\\s+3\\s+3\\s+3\\s+<none>\\s.*"),
                "get", "ds", "-n", "kube-system");
        ok("uncordon", "node-3"); // the cordoned node got its pod too (DS-09)
        assertTrue(ds.matches("(?s)NAME\\s+DESIRED\\s+CURRENT\\s+READY\\s+UP-TO-DATE\\s+AVAILABLE\\s+NODE SELECTOR\\s+AGE\\s.*"), ds);
        assertEquals("node-1 node-2 node-3", nodesOfPods());
        String pod = ok("get", "pods", "-n", "kube-system", "-l", "name=fluentd-elasticsearch", "-o",
                "jsonpath={.items[0].spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"
                        + ".nodeSelectorTerms[0].matchFields[0].key} {.items[0].spec.tolerations[*].key}");
        assertTrue(pod.startsWith("metadata.name node-role.kubernetes.io/master node.kubernetes.io/not-ready "), pod);

        // ---- a node joins, and gets its pod
        String added = node("add", "--labels", "disk=ssd");
        assertTrue(added.contains("node/node-4 is Ready"), added);
        until(o -> o.matches("(?s).*fluentd-elasticsearch\\s+4\\s+4\\s+4\\s+4\\s+4\\s.*"), "get", "ds", "-n", "kube-system");
        assertEquals("node-1 node-2 node-3 node-4", nodesOfPods());

        // ---- a rolling update, its history and a rollback
        assertTrue(ok("set", "image", "-n", "kube-system", "ds/fluentd-elasticsearch",
                "fluentd-elasticsearch=quay.io/fluentd_elasticsearch/fluentd:v2.6.0").contains("image updated"));
        String status = ok("rollout", "status", "-n", "kube-system", "ds/fluentd-elasticsearch", "--timeout=120s");
        assertTrue(status.endsWith("daemon set \"fluentd-elasticsearch\" successfully rolled out\n"), status);
        assertEquals("v2.6.0 v2.6.0 v2.6.0 v2.6.0", images());
        String history = ok("rollout", "history", "-n", "kube-system", "ds/fluentd-elasticsearch");
        assertTrue(history.matches("(?s).*REVISION\\s+CHANGE-CAUSE\\s+1\\s+<none>\\s+2\\s+<none>\\s*"), history);
        String revision2 = ok("rollout", "history", "-n", "kube-system", "ds/fluentd-elasticsearch", "--revision=2");
        assertTrue(revision2.matches("(?s).*Image:\\s+quay.io/fluentd_elasticsearch/fluentd:v2.6.0\\s.*"), revision2);
        assertTrue(ok("rollout", "undo", "-n", "kube-system", "ds/fluentd-elasticsearch").contains("rolled back"));
        status = ok("rollout", "status", "-n", "kube-system", "ds/fluentd-elasticsearch", "--timeout=120s");
        assertTrue(status.endsWith("successfully rolled out\n"), status);
        assertEquals("v2.5.2 v2.5.2 v2.5.2 v2.5.2", images());
        history = ok("rollout", "history", "-n", "kube-system", "ds/fluentd-elasticsearch");
        assertTrue(history.matches("(?s).*REVISION\\s+CHANGE-CAUSE\\s+2\\s+<none>\\s+3\\s+<none>\\s*"), history);

        // ---- a node leaves: its pod goes with it
        assertTrue(node("remove", "node-4").contains("node/node-4 and its Lease deleted"));
        until(o -> o.matches("(?s).*fluentd-elasticsearch\\s+3\\s+3\\s+3\\s+3\\s+3\\s.*"), "get", "ds", "-n", "kube-system");
        until(o -> !o.contains("node-4"), "get", "pods", "-n", "kube-system", "-o", "wide");

        // ---- an orphaning delete leaves the pods; the same DaemonSet again adopts them and replaces none
        String pods = ok("get", "pods", "-n", "kube-system", "-o", "name");
        ok("delete", "ds", "fluentd-elasticsearch", "-n", "kube-system", "--cascade=orphan");
        until(o -> o.contains("No resources found"), "get", "ds", "-n", "kube-system");
        assertEquals(pods, ok("get", "pods", "-n", "kube-system", "-o", "name"));
        ok("apply", "-f", dir.resolve("fluentd.yaml").toString());
        until(o -> o.matches("(?s).*fluentd-elasticsearch\\s+3\\s+3\\s+3\\s+3\\s+3\\s.*"), "get", "ds", "-n", "kube-system");
        String uid = ok("get", "ds", "fluentd-elasticsearch", "-n", "kube-system", "-o", "jsonpath={.metadata.uid}");
        String owners = until(o -> o.equals((uid + " ").repeat(3).trim()), "get", "pods", "-n", "kube-system", "-o",
                "jsonpath={.items[*].metadata.ownerReferences[0].uid}");
        assertEquals(pods, ok("get", "pods", "-n", "kube-system", "-o", "name"), "adopted, none replaced: " + owners);

        // ---- deleting the set deletes its pods and revisions
        ok("delete", "ds", "fluentd-elasticsearch", "-n", "kube-system");
        until(o -> o.contains("No resources found"), "get", "pods", "-n", "kube-system");
        until(o -> o.contains("No resources found"), "get", "controllerrevisions", "-n", "kube-system");
    }

    /** The nodes the DaemonSet's running pods are bound to, sorted. */
    private String nodesOfPods() throws Exception {
        String out = ok("get", "pods", "-n", "kube-system", "-l", "name=fluentd-elasticsearch", "-o",
                "jsonpath={.items[*].spec.nodeName}");
        String[] nodes = out.trim().split("\\s+");
        Arrays.sort(nodes);
        return String.join(" ", nodes);
    }

    /** The image tags of the DaemonSet's pods, once every pod runs one image and is Ready. */
    private String images() throws Exception {
        return until(o -> o.trim().split(" ").length > 0 && Arrays.stream(o.trim().split(" ")).distinct().count() == 1,
                "get", "pods", "-n", "kube-system", "-l", "name=fluentd-elasticsearch", "-o",
                "jsonpath={.items[*].spec.containers[0].image}").trim()
                .replace("quay.io/fluentd_elasticsearch/fluentd:", "");
    }

    /** {@code eventplane node ...} against this cluster's API; asserts it succeeds and returns what it printed. */
    private String node(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--server", cluster.gateway().url()));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int exit = NodeCommand.run(Options.parse(all.toArray(String[]::new)), print, print);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, text);
        return text;
    }

    private Kubectl.Result kubectl(String... args) throws Exception {
        return new Kubectl(dir).run(args);
    }

    private String ok(String... args) throws Exception {
        return new Kubectl(dir).ok(args);
    }

    /** Runs the command until its output satisfies the condition (the cluster converges asynchronously). */
    private String until(Predicate<String> condition, String... args) throws Exception {
        return new Kubectl(dir).until(condition, args);
    }
}
