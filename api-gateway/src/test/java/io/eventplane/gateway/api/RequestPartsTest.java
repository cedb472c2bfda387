package io.eventplane.gateway.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.Kinds;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RequestPartsTest {

    @Test
    @DisplayName("Accept headers: Table is chosen only when it comes before plain JSON; aggregated discovery needs v2")
    void mediaTypes() {
        assertEquals("v1", MediaTypes.tableVersion("application/json;as=Table;v=v1;g=meta.k8s.io,application/json"));
        assertEquals("v1beta1", MediaTypes.tableVersion("application/json;as=Table;v=v1beta1;g=meta.k8s.io"));
        assertEquals(null, MediaTypes.tableVersion("application/json,application/json;as=Table;v=v1;g=meta.k8s.io"));
        assertEquals(null, MediaTypes.tableVersion("application/vnd.kubernetes.protobuf,application/json"));
        assertTrue(MediaTypes.wantsAggregatedDiscovery(
                "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"));
        assertFalse(MediaTypes.wantsAggregatedDiscovery(
                "application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json"));
    }

    @Test
    @DisplayName("resource paths: namespaced, cluster-scoped, all namespaces, subresources and the namespace kind")
    void paths() {
        ResourcePath p = ResourcePath.parse("", "v1", java.util.List.of("namespaces", "ns", "pods", "x", "status")).orElseThrow();
        assertEquals(Kinds.POD, p.kind());
        assertEquals("ns", p.namespace());
        assertEquals("status", p.subresource());
        ResourcePath ns = ResourcePath.parse("", "v1", java.util.List.of("namespaces", "ns", "status")).orElseThrow();
        assertEquals(Kinds.NAMESPACE, ns.kind());
        assertEquals("ns", ns.name());
        assertEquals(Kinds.POD, ResourcePath.parse("", "v1", java.util.List.of("pods")).orElseThrow().kind());
        assertTrue(ResourcePath.parse("", "v1", java.util.List.of("pods", "x")).isEmpty());
        assertEquals(Kinds.LEASE, ResourcePath.parse("coordination.k8s.io", "v1",
                java.util.List.of("namespaces", "kube-node-lease", "leases", "n1")).orElseThrow().kind());
        assertTrue(ResourcePath.parse("", "v1", java.util.List.of("watch", "nodes")).orElseThrow().watchPrefix());
    }
}
