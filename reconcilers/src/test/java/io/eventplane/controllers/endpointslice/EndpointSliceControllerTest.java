package io.eventplane.controllers.endpointslice;

import static io.eventplane.controllers.ServiceFixtures.service;
import static io.eventplane.controllers.ServiceFixtures.web;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Pod;
import io.eventplane.model.Service;
import io.eventplane.model.discovery.Endpoint;
import io.eventplane.model.discovery.EndpointSlice;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The EndpointSlice controller in the simulated cluster (issue 16). */
class EndpointSliceControllerTest {
    private final SimulatedCluster cluster = new SimulatedCluster();
    private static final String WEB = """
            metadata: {name: web, namespace: default, labels: {tier: front}}
            spec: {clusterIP: 10.96.0.20, selector: {app: web}, ports: [{name: http, port: 80, targetPort: http}]}
            """;

    private List<EndpointSlice> slices(String service) {
        return cluster.list(EndpointSlice.class).stream()
                .filter(s -> service.equals(s.getMetadata().getLabels().get("kubernetes.io/service-name")))
                .sorted(Comparator.comparing(s -> s.getMetadata().getName())).toList();
    }

    private static Endpoint endpointOf(EndpointSlice slice, String pod) {
        return slice.getEndpoints().stream().filter(e -> e.getTargetRef().getName().equals(pod)).findFirst().orElse(null);
    }

    @Test
    @DisplayName("a Service's pods as one IPv4 EndpointSlice: ready and serving, named port resolved, labelled with "
            + "the Service and managed-by, owned by the Service")
    void slice() {
        cluster.create(web(3));
        cluster.create(service(WEB));
        cluster.settle();
        List<EndpointSlice> slices = slices("web");
        assertEquals(1, slices.size());
        EndpointSlice s = slices.get(0);
        assertTrue(s.getMetadata().getName().matches("web-[bcdfghjklmnpqrstvwxz2456789]{5}"), s.getMetadata().getName());
        assertEquals("web-", s.getMetadata().getGenerateName());
        assertEquals(Map.of("kubernetes.io/service-name", "web", "endpointslice.kubernetes.io/managed-by",
                "endpointslice-controller.k8s.io", "tier", "front"), s.getMetadata().getLabels());
        Service svc = cluster.get(Service.class, "web");
        assertEquals(svc.getMetadata().getUid(), s.getMetadata().getOwnerReferences().get(0).getUid());
        assertEquals(true, s.getMetadata().getOwnerReferences().get(0).getController());
        assertEquals("IPv4", s.getAddressType());
        assertEquals(8080, s.getPorts().get(0).getPort());
        assertEquals("http", s.getPorts().get(0).getName());
        assertEquals(3, s.getEndpoints().size());
        for (Pod p : cluster.list(Pod.class)) {
            Endpoint e = endpointOf(s, p.getMetadata().getName());
            assertEquals(List.of(p.getStatus().getPodIP()), e.getAddresses());
            assertEquals(true, e.getConditions().getReady());
            assertEquals(true, e.getConditions().getServing());
            assertEquals(false, e.getConditions().getTerminating());
            assertEquals(p.getSpec().getNodeName(), e.getNodeName());
            assertEquals(p.getMetadata().getUid(), e.getTargetRef().getUid());
        }
    }

    @Test
    @DisplayName("POD-12.8, POD-6.13: a deleted pod stays in the slice, ready=false, serving, terminating, until it is "
            + "gone; an unready pod is neither ready nor serving")
    void terminatingAndUnready() {
        cluster.create(web(2));
        cluster.create(service(WEB));
        cluster.settle();
        Pod victim = cluster.list(Pod.class).get(0);
        String name = victim.getMetadata().getName();
        cluster.delete(Kinds.POD, name);
        cluster.stepEndpoints();
        Endpoint e = endpointOf(slices("web").get(0), name);
        assertEquals(false, e.getConditions().getReady());
        assertEquals(true, e.getConditions().getServing());
        assertEquals(true, e.getConditions().getTerminating());
        cluster.settle();
        assertNull(endpointOf(slices("web").get(0), name));
        Pod other = cluster.list(Pod.class).get(0);
        cluster.makeUnready(other);
        cluster.stepEndpoints();
        Endpoint unready = endpointOf(slices("web").get(0), other.getMetadata().getName());
        assertEquals(false, unready.getConditions().getReady());
        assertEquals(false, unready.getConditions().getServing());
    }

    @Test
    @DisplayName("a Service that selects no pod has one empty placeholder slice; one without selector gets none")
    void placeholderAndSelectorless() {
        cluster.create(service(WEB));
        cluster.create(service("""
                metadata: {name: external, namespace: default}
                spec: {ports: [{port: 5432}]}
                """));
        cluster.settle();
        assertEquals(1, slices("web").size());
        assertNull(slices("web").get(0).getEndpoints());
        assertNull(slices("web").get(0).getPorts());
        assertEquals(List.of(), slices("external"));
    }

    @Test
    @DisplayName("at most 100 endpoints per slice: 150 pods fill two slices; scaled to 40, one is left")
    void maxEndpointsPerSlice() {
        cluster.create(web(150));
        cluster.create(service(WEB));
        cluster.settle();
        assertEquals(List.of(100, 50), slices("web").stream().map(s -> s.getEndpoints().size()).toList());
        var d = cluster.deployment("web");
        d.getSpec().setReplicas(40);
        cluster.update(d);
        cluster.settle();
        assertEquals(List.of(40), slices("web").stream().map(s -> s.getEndpoints().size()).toList());
    }
}
