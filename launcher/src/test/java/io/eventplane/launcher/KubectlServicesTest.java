package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.gateway.alloc.ServiceNetwork;
import io.eventplane.testkit.SharedClusterExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 * Issue 16 end to end with the real kubectl: a Deployment made by {@code kubectl create deployment} and exposed as a
 * Service gets a cluster IP of the service CIDR, and its Endpoints and EndpointSlice list the pods' IPs (node-sim's)
 * on the target port; expose of a pod, a ReplicaSet and a Service; {@code kubectl create service} (protobuf bodies) with
 * a node port in use and a cluster IP outside the range refused. Skipped without kubectl.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class KubectlServicesTest {
    private KubectlCluster cluster;
    private Kubectl kubectl;

    @BeforeAll
    void start(@TempDir Path tmp) throws Exception {
        cluster = KubectlCluster.start(new ControlLoop(), tmp, "replicaset,deployment,endpoint,endpointslice",
                ServiceNetwork.defaults());
        kubectl = cluster.kubectl();
    }

    @AfterAll
    void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("kubectl create deployment web, kubectl expose deployment web --port=80 --target-port=8080: kubectl get "
            + "svc,ep,endpointslices shows the allocated cluster IP and the pods' IPs")
    void exposeDeployment() throws Exception {
        assertEquals("deployment.apps/web created\n",
                kubectl.ok("create", "deployment", "web", "--image=nginx", "--replicas=2", "--port=8080"));
        String pods = kubectl.until(o -> o.lines()
                        .filter(l -> l.matches("web-\\S+\\s+1/1\\s+Running\\s.*\\d+\\.\\d+\\.\\d+\\.\\d+.*")).count() == 2,
                "get", "pods", "-l", "app=web", "-o", "wide", "--no-headers");
        List<String> podIps = new ArrayList<>();
        Matcher ip = Pattern.compile("Running\\s+\\d+\\s+\\S+\\s+(\\d+\\.\\d+\\.\\d+\\.\\d+)").matcher(pods);
        while (ip.find()) {
            podIps.add(ip.group(1));
        }
        assertEquals(2, podIps.size(), pods);

        assertEquals("service/web exposed\n", kubectl.ok("expose", "deployment", "web", "--port=80", "--target-port=8080"));
        String all = kubectl.until(o -> podIps.stream().allMatch(a -> o.contains(a + ":8080")) && o.contains("endpointslice"),
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
        String selector = kubectl.ok("get", "svc", "web", "-o", "jsonpath={.spec.selector}");
        assertEquals("{\"app\":\"web\"}", selector);
        String ipAddress = kubectl.ok("get", "ipaddresses", svc.group(1), "--no-headers");
        assertTrue(ipAddress.matches(Pattern.quote(svc.group(1)) + "\\s+services/default/web\\s*\n"), ipAddress);
    }

    @Test
    @DisplayName("kubectl expose pod, rs and service; kubectl create service nodeport asking for a node port in use and "
            + "kubectl create service clusterip asking for an IP outside the range are refused with Kubernetes' messages")
    void exposeOthersAndNodePorts() throws Exception {
        kubectl.ok("create", "deployment", "api", "--image=nginx", "--port=9000");
        String pod = kubectl.until(o -> o.matches("(?s)pod/api-\\S+\\s*"), "get", "pods", "-l", "app=api", "-o", "name")
                .trim();
        assertEquals("service/api-pod exposed\n", kubectl.ok("expose", pod, "--name=api-pod", "--port=9000"));
        String rs = kubectl.until(o -> o.startsWith("replicaset.apps/api-"), "get", "rs", "-l", "app=api", "-o", "name")
                .trim();
        assertEquals("service/api-rs exposed\n",
                kubectl.ok("expose", rs, "--name=api-rs", "--port=90", "--target-port=9000"));
        assertEquals("service/api-again exposed\n", kubectl.ok("expose", "service", "api-rs", "--name=api-again",
                "--port=91", "--type=NodePort"));
        String ports = kubectl.ok("get", "svc", "api-again", "--no-headers");
        assertTrue(ports.matches("api-again\\s+NodePort\\s+10\\.\\S+\\s+<none>\\s+91:3\\d{4}/TCP\\s+.*\\n"), ports);

        assertEquals("service/np created\n",
                kubectl.ok("create", "service", "nodeport", "np", "--tcp=80:8080", "--node-port=30080"));
        assertEquals("{\"app\":\"np\"} 30080 8080", kubectl.ok("get", "svc", "np", "-o",
                "jsonpath={.spec.selector} {.spec.ports[0].nodePort} {.spec.ports[0].targetPort}"));
        Kubectl.Result taken = kubectl.run("create", "service", "nodeport", "np2", "--tcp=80:8080", "--node-port=30080");
        assertEquals(1, taken.exit(), taken.out());
        assertEquals("error: failed to create NodePort service: Service \"np2\" is invalid: spec.ports[0].nodePort: "
                + "Invalid value: 30080: provided port is already allocated\n", taken.out());
        Kubectl.Result outside = kubectl.run("create", "service", "clusterip", "bad", "--clusterip=192.168.9.9",
                "--tcp=80:80");
        assertEquals(1, outside.exit(), outside.out());
        assertEquals("error: failed to create ClusterIP service: Service \"bad\" is invalid: spec.clusterIPs: "
                + "Invalid value: []string{\"192.168.9.9\"}: failed to allocate IP 192.168.9.9: the provided network "
                + "does not match the current range\n", outside.out());
        String eps = kubectl.until(o -> o.matches("(?s).*api-pod\\s+\\d+\\.\\d+\\.\\d+\\.\\d+:9000\\s.*"), "get",
                "endpoints");
        assertTrue(eps.matches("(?s).*np\\s+<none>\\s.*"), "a NodePort without pods has no endpoints:\n" + eps);
    }
}
