package io.eventplane.controllers.endpoint;

import static io.eventplane.controllers.ServiceFixtures.service;
import static io.eventplane.controllers.ServiceFixtures.web;
import static io.eventplane.testkit.objects.KubeObjects.container;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.controllers.Workloads;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.EndpointAddress;
import io.eventplane.model.EndpointSubset;
import io.eventplane.model.Endpoints;
import io.eventplane.model.Pod;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The endpoints controller in the simulated cluster: a Service's Endpoints follow the pods it selects (issue 16). */
class EndpointsControllerTest {
    private final SimulatedCluster cluster = new SimulatedCluster();

    private Endpoints endpoints(String name) {
        return (Endpoints) cluster.object(Kinds.ENDPOINTS, name);
    }

    private static List<String> ips(List<EndpointAddress> addresses) {
        return addresses == null ? List.of() : addresses.stream().map(EndpointAddress::getIp).sorted().toList();
    }

    private List<String> podIps() {
        return cluster.list(Pod.class).stream().map(p -> p.getStatus().getPodIP()).sorted().toList();
    }

    @Test
    @DisplayName("POD-1.8, POD-7.7: the Endpoints of a Service list its Ready pods' IPs with the named target port "
            + "resolved, node and pod")
    void readyPods() {
        cluster.create(web(3));
        cluster.create(service("""
                metadata: {name: web, namespace: default, labels: {app: web}}
                spec: {clusterIP: 10.96.0.20, selector: {app: web}, ports: [{name: http, port: 80, targetPort: http}]}
                """));
        cluster.settle();
        Endpoints ep = endpoints("web");
        assertEquals(1, ep.getSubsets().size());
        EndpointSubset subset = ep.getSubsets().get(0);
        assertEquals(podIps(), ips(subset.getAddresses()));
        assertEquals(3, podIps().stream().distinct().count(), "each pod has its own IP");
        assertNull(subset.getNotReadyAddresses());
        assertEquals("http", subset.getPorts().get(0).getName());
        assertEquals(8080, subset.getPorts().get(0).getPort());
        assertEquals("TCP", subset.getPorts().get(0).getProtocol());
        EndpointAddress a = subset.getAddresses().get(0);
        assertEquals("Pod", a.getTargetRef().getKind());
        assertTrue(a.getNodeName().startsWith("node-"), a.getNodeName());
        assertEquals(Map.of("app", "web"), ep.getMetadata().getLabels(), "the Service's labels (it has a cluster IP)");
    }

    @Test
    @DisplayName("POD-7.7: a pod that stops being Ready moves to notReadyAddresses, and back when Ready again; "
            + "publishNotReadyAddresses lists it as ready")
    void readiness() {
        cluster.autoReady = false;
        cluster.create(web(2));
        cluster.create(service("""
                metadata: {name: web, namespace: default}
                spec: {selector: {app: web}, ports: [{port: 80, targetPort: 8080}]}
                """));
        cluster.create(service("""
                metadata: {name: web-peers, namespace: default}
                spec: {clusterIP: None, publishNotReadyAddresses: true, selector: {app: web}, ports: [{port: 80}]}
                """));
        cluster.settle();
        assertEquals(podIps(), ips(endpoints("web").getSubsets().get(0).getNotReadyAddresses()));
        assertEquals(podIps(), ips(endpoints("web-peers").getSubsets().get(0).getAddresses()));
        assertEquals("", endpoints("web-peers").getMetadata().getLabels().get("service.kubernetes.io/headless"));
        Pod first = cluster.list(Pod.class).get(0);
        cluster.makeReady(first);
        cluster.settle();
        EndpointSubset subset = endpoints("web").getSubsets().get(0);
        assertEquals(List.of(first.getStatus().getPodIP()), ips(subset.getAddresses()));
        assertEquals(1, ips(subset.getNotReadyAddresses()).size());
        cluster.makeUnready(cluster.get(Pod.class, first.getMetadata().getName()));
        cluster.settle();
        assertEquals(2, ips(endpoints("web").getSubsets().get(0).getNotReadyAddresses()).size());
    }

    @Test
    @DisplayName("a named target port resolves per pod: a pod without that port serves only the ports it has")
    void namedPorts() {
        cluster.create(web(1));
        cluster.create(KubeObjects.pod("plain").labels("app", "web").containers(container("c").image("nginx")).build());
        cluster.create(service("""
                metadata: {name: web, namespace: default}
                spec:
                  selector: {app: web}
                  ports: [{name: http, port: 80, targetPort: http}, {name: metrics, port: 9090}]
                """));
        cluster.settle();
        List<EndpointSubset> subsets = endpoints("web").getSubsets();
        assertEquals(2, subsets.size(), subsets.toString());
        EndpointSubset both = subsets.stream().filter(s -> s.getPorts().size() == 2).findFirst().orElseThrow();
        EndpointSubset metricsOnly = subsets.stream().filter(s -> s.getPorts().size() == 1).findFirst().orElseThrow();
        assertEquals(List.of("http", "metrics"), both.getPorts().stream().map(p -> p.getName()).toList());
        assertEquals("metrics", metricsOnly.getPorts().get(0).getName());
        assertEquals(List.of(cluster.get(Pod.class, "plain").getStatus().getPodIP()), ips(metricsOnly.getAddresses()));
    }

    @Test
    @DisplayName("STS-X05: a pod naming the Service as subdomain gets its hostname on its address")
    void hostname() {
        Pod p = KubeObjects.pod("db-0").labels("app", "db").containers(container("c").image("postgres")).build();
        p.getSpec().setHostname("db-0");
        p.getSpec().setSubdomain("db");
        cluster.create(p);
        cluster.create(service("""
                metadata: {name: db, namespace: default}
                spec: {clusterIP: None, selector: {app: db}, ports: [{port: 5432}]}
                """));
        cluster.settle();
        assertEquals("db-0", endpoints("db").getSubsets().get(0).getAddresses().get(0).getHostname());
    }

    @Test
    @DisplayName("POD-12.8: a terminating pod leaves the Endpoints at once; a deleted Service's Endpoints are deleted")
    void deletion() {
        cluster.create(web(2));
        cluster.create(service("""
                metadata: {name: web, namespace: default}
                spec: {selector: {app: web}, ports: [{port: 80}]}
                """));
        cluster.settle();
        Pod victim = cluster.list(Pod.class).get(0);
        cluster.delete(Kinds.POD, victim.getMetadata().getName());
        cluster.stepEndpoints();
        assertTrue(!ips(endpoints("web").getSubsets().get(0).getAddresses()).contains(victim.getStatus().getPodIP()));
        cluster.settle();
        assertEquals(podIps(), ips(endpoints("web").getSubsets().get(0).getAddresses()));
        cluster.delete(Kinds.SERVICE, "web");
        cluster.settle();
        assertNull(endpoints("web"));
    }

    @Test
    @DisplayName("a Service without selector is left alone: the Endpoints a user wrote stay as written")
    void selectorless() {
        cluster.create(service("""
                metadata: {name: external-db, namespace: default}
                spec: {ports: [{port: 5432}]}
                """));
        cluster.create(KubeJson.get().parseObject("""
                metadata: {name: external-db, namespace: default}
                subsets: [{addresses: [{ip: 192.0.2.42}], ports: [{port: 5432}]}]
                """.getBytes(StandardCharsets.UTF_8), Endpoints.class, FieldValidation.STRICT, null));
        cluster.create(web(1));
        cluster.settle();
        assertEquals(List.of("192.0.2.42"), ips(endpoints("external-db").getSubsets().get(0).getAddresses()));
    }

    @Test
    @DisplayName("RC-17, AC-RC-08: a canary behind one Service: RC-stable (9) and RC-canary (1) give 10 endpoints")
    void canary() {
        cluster.create(Workloads.nginxRc("stable", 9, Map.of("tier", "frontend", "environment", "prod", "track",
                "stable"), null));
        cluster.create(Workloads.nginxRc("canary", 1, Map.of("tier", "frontend", "environment", "prod", "track",
                "canary"), null));
        cluster.create(service("""
                metadata: {name: frontend, namespace: default}
                spec: {selector: {tier: frontend, environment: prod}, ports: [{port: 80}]}
                """));
        cluster.settle();
        assertEquals(10, ips(endpoints("frontend").getSubsets().get(0).getAddresses()).size());
    }
}
