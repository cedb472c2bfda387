package io.eventplane.gateway.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SelectorsTest {

    @Test
    @DisplayName("label selectors: equality, inequality, sets, existence and numeric comparison")
    void labels() {
        Map<String, String> l = Map.of("app", "web", "tier", "front", "n", "5");
        assertTrue(LabelSelector.parse("app=web,tier==front").matches(l));
        assertTrue(LabelSelector.parse("app in (db, web),!missing,n>3").matches(l));
        assertFalse(LabelSelector.parse("app notin (web)").matches(l));
        assertTrue(LabelSelector.parse("missing!=x").matches(l));
        assertFalse(LabelSelector.parse("missing").matches(l));
        assertTrue(LabelSelector.parse("").matches(null));
        assertThrows(ApiException.class, () -> LabelSelector.parse("app in (x"));
        assertThrows(ApiException.class, () -> LabelSelector.parse("a b c"));
    }

    @Test
    @DisplayName("field selectors read the object's fields, absent fields read as empty, unknown fields are refused")
    void fields() {
        Pod pod = Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("p").setNamespace("ns").build())
                .setSpec(PodSpec.newBuilder().setNodeName("n1").build())
                .setStatus(PodStatus.newBuilder().setPhase("Running").build()).build();
        assertTrue(FieldSelector.parse("metadata.name=p,spec.nodeName==n1", Kinds.POD).matches(pod));
        assertTrue(FieldSelector.parse("status.phase!=Pending,status.podIP=", Kinds.POD).matches(pod));
        assertTrue(FieldSelector.parse("spec.hostNetwork=false", Kinds.POD).matches(pod));
        assertFalse(FieldSelector.parse("metadata.namespace=other", Kinds.POD).matches(pod));
        assertEquals("p", FieldSelector.parse("metadata.name=p", Kinds.POD).exactName());
        ApiException e = assertThrows(ApiException.class, () -> FieldSelector.parse("spec.nodeName=x", Kinds.NODE));
        assertEquals(400, e.status().code());
    }

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
