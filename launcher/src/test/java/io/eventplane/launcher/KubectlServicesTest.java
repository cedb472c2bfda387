package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.eventplane.gateway.GatewayServer;
import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.testkit.FreePorts;
import io.eventplane.testkit.SharedClusterExtension;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 end to end with the real kubectl: a Deployment exposed as a Service gets a cluster IP of the service CIDR,
 * and its Endpoints and EndpointSlice list the pods' IPs (node-sim's) on the target port; expose of a pod, a
 * ReplicaSet and a Service; a NodePort in use refused. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlServicesTest {
    private final ControlLoop loop = new ControlLoop();
    private GatewayServer gateway;
    private Path dir;

    private record Result(int exit, String out) {
    }

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        assumeTrue(kubectlPath() != null, "kubectl is not on PATH");
        dir = tmp;
        loop.start(tmp.resolve("loop")).startControllers("replicaset,deployment,endpoint,endpointslice");
        gateway = GatewayServer.start(loop.config(), FreePorts.next(), "127.0.0.1", ServiceNetwork.defaults());
        Kubeconfig.write(dir.resolve("kubeconfig"), gateway.url());
    }

    @AfterAll
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        loop.close();
    }

    private static String kubectlPath() {
        for (String p : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            File k = new File(p, "kubectl");
            if (k.canExecute()) {
                return k.getPath();
            }
        }
        return null;
    }

    private Result kubectl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(kubectlPath(), "--kubeconfig", dir.resolve("kubeconfig").toString()));
        cmd.addAll(Arrays.asList(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", dir.toString());
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish");
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private String ok(String... args) throws Exception {
        Result r = kubectl(args);
        assertEquals(0, r.exit(), () -> "kubectl " + String.join(" ", args) + ":\n" + r.out());
        return r.out();
    }

    /** Runs the command until its output satisfies the condition (the cluster converges asynchronously). */
    private String until(Predicate<String> condition, String... args) throws Exception {
        String last = "";
        for (int i = 0; i < 300; i++) {
            last = kubectl(args).out();
            if (condition.test(last)) {
                return last;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("kubectl " + String.join(" ", args) + " never matched; last output:\n" + last);
    }

    /**
     * What {@code kubectl create deployment NAME --image=nginx --replicas=N --port=P} makes. Applied from a file: kubectl
     * posts its generators' objects as protobuf, which this gateway accepts for Namespaces only so far (415 otherwise;
     * kubectl does not fall back to JSON).
     */
    private static String deployment(String name, int replicas, int port) {
        return """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: %1$s, labels: {app: %1$s}}
                spec:
                  replicas: %2$d
                  selector: {matchLabels: {app: %1$s}}
                  template:
                    metadata: {labels: {app: %1$s}}
                    spec: {containers: [{name: nginx, image: nginx, ports: [{containerPort: %3$d}]}]}
                """.formatted(name, replicas, port);
    }

    /** What {@code kubectl create service nodeport NAME --tcp=80:8080 --node-port=PORT} makes. */
    private static String nodePort(String name, int port) {
        return """
                apiVersion: v1
                kind: Service
                metadata: {name: %1$s, labels: {app: %1$s}}
                spec:
                  type: NodePort
                  selector: {app: %1$s}
                  ports: [{name: 80-8080, port: 80, targetPort: 8080, nodePort: %2$d, protocol: TCP}]
                """.formatted(name, port);
    }

    private String manifest(String name, String yaml) throws Exception {
        Path file = dir.resolve(name + ".yaml");
        java.nio.file.Files.writeString(file, yaml);
        return file.toString();
    }

    @Test
    @DisplayName("kubectl expose deployment web --port=80 --target-port=8080: kubectl get svc,ep,endpointslices shows the "
            + "allocated cluster IP and the pods' IPs")
    void exposeDeployment() throws Exception {
        assertEquals("deployment.apps/web created\n", ok("apply", "-f", manifest("web", deployment("web", 2, 8080))));
        String pods = until(o -> o.lines().filter(l -> l.matches("web-\\S+\\s+1/1\\s+Running\\s.*\\d+\\.\\d+\\.\\d+\\.\\d+.*"))
                .count() == 2, "get", "pods", "-l", "app=web", "-o", "wide", "--no-headers");
        List<String> podIps = new ArrayList<>();
        Matcher ip = Pattern.compile("Running\\s+\\d+\\s+\\S+\\s+(\\d+\\.\\d+\\.\\d+\\.\\d+)").matcher(pods);
        while (ip.find()) {
            podIps.add(ip.group(1));
        }
        assertEquals(2, podIps.size(), pods);

        assertEquals("service/web exposed\n", ok("expose", "deployment", "web", "--port=80", "--target-port=8080"));
        String all = until(o -> podIps.stream().allMatch(a -> o.contains(a + ":8080")) && o.contains("endpointslice"),
                "get", "svc,ep,endpointslices");
        Matcher svc = Pattern.compile("service/web\\s+ClusterIP\\s+(10\\.\\d+\\.\\d+\\.\\d+)\\s+<none>\\s+80/TCP\\s+")
                .matcher(all);
        assertTrue(svc.find(), all);
        assertTrue(ServiceNetwork.defaults().clusterIps().allocatable(svc.group(1)), all);
        assertTrue(all.contains("service/kubernetes"), all);
        assertTrue(Pattern.compile("service/kubernetes\\s+ClusterIP\\s+10\\.96\\.0\\.1\\s+<none>\\s+443/TCP").matcher(all)
                .find(), all);
        String slice = all.lines().filter(l -> l.startsWith("endpointslice.discovery.k8s.io/web-")).findFirst()
                .orElseThrow(() -> new AssertionError(all));
        assertTrue(slice.matches("endpointslice\\.discovery\\.k8s\\.io/web-\\S+\\s+IPv4\\s+8080\\s+\\S+\\s+\\S+"), slice);
        podIps.forEach(a -> assertTrue(slice.contains(a), slice));
        String selector = ok("get", "svc", "web", "-o", "jsonpath={.spec.selector}");
        assertEquals("{\"app\":\"web\"}", selector);
        String ipAddress = ok("get", "ipaddresses", svc.group(1), "--no-headers");
        assertTrue(ipAddress.matches(Pattern.quote(svc.group(1)) + "\\s+services/default/web\\s*\n"), ipAddress);
    }

    @Test
    @DisplayName("kubectl expose pod, rs and service; a NodePort Service asking for a node port in use is refused with "
            + "Kubernetes' message")
    void exposeOthersAndNodePorts() throws Exception {
        ok("apply", "-f", manifest("api", deployment("api", 1, 9000)));
        String pod = until(o -> o.matches("(?s)pod/api-\\S+\\s*"), "get", "pods", "-l", "app=api", "-o", "name").trim();
        assertEquals("service/api-pod exposed\n", ok("expose", pod, "--name=api-pod", "--port=9000"));
        String rs = until(o -> o.startsWith("replicaset.apps/api-"), "get", "rs", "-l", "app=api", "-o", "name").trim();
        assertEquals("service/api-rs exposed\n", ok("expose", rs, "--name=api-rs", "--port=90", "--target-port=9000"));
        assertEquals("service/api-again exposed\n", ok("expose", "service", "api-rs", "--name=api-again", "--port=91",
                "--type=NodePort"));
        String ports = ok("get", "svc", "api-again", "--no-headers");
        assertTrue(ports.matches("api-again\\s+NodePort\\s+10\\.\\S+\\s+<none>\\s+91:3\\d{4}/TCP\\s+.*\\n"), ports);

        // kubectl create service posts protobuf (415 here so far, see deployment()): the same Services from files
        assertEquals("service/np created\n", ok("create", "-f", manifest("np", nodePort("np", 30080))));
        Result taken = kubectl("create", "-f", manifest("np2", nodePort("np2", 30080)));
        assertEquals(1, taken.exit(), taken.out());
        assertEquals("The Service \"np2\" is invalid: spec.ports[0].nodePort: Invalid value: 30080: provided port is "
                + "already allocated\n", taken.out());
        Result outside = kubectl("create", "-f", manifest("bad", """
                apiVersion: v1
                kind: Service
                metadata: {name: bad}
                spec: {clusterIP: 192.168.9.9, selector: {app: bad}, ports: [{port: 80}]}
                """));
        assertEquals(1, outside.exit(), outside.out());
        assertEquals("The Service \"bad\" is invalid: spec.clusterIPs: Invalid value: []string{\"192.168.9.9\"}: "
                + "failed to allocate IP 192.168.9.9: the provided network does not match the current range\n",
                outside.out());
        String eps = until(o -> o.matches("(?s).*api-pod\\s+\\d+\\.\\d+\\.\\d+\\.\\d+:9000\\s.*"), "get", "endpoints");
        assertTrue(eps.matches("(?s).*np\\s+<none>\\s.*"), "a NodePort without pods has no endpoints:\n" + eps);
    }
}
