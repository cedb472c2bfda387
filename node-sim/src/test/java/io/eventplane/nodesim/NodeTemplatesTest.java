package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Lease;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeTemplatesTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");

    @Test
    @DisplayName("a node registers with its capacity, labels, Ready condition, addresses and kubelet version")
    void registeredNode() {
        Node node = NodeTemplates.node(SimNode.of("node-", 2), NodeShape.defaults(), T0);

        assertEquals("node-2", node.getMetadata().getName());
        Map<String, String> labels = node.getMetadata().getLabels();
        assertEquals("node-2", labels.get("kubernetes.io/hostname"));
        assertEquals("linux", labels.get("kubernetes.io/os"));
        assertEquals("amd64", labels.get("kubernetes.io/arch"));
        assertEquals("zone-b", labels.get("topology.kubernetes.io/zone"));
        assertEquals("sim-region-1", labels.get("topology.kubernetes.io/region"));
        assertEquals("sim.4c16g", labels.get("node.kubernetes.io/instance-type"));
        assertEquals("4", node.getStatus().getCapacity().get("cpu"));
        assertEquals("16Gi", node.getStatus().getAllocatable().get("memory"));
        assertEquals("110", node.getStatus().getAllocatable().get("pods"));
        List<NodeCondition> conditions = node.getStatus().getConditions();
        assertEquals(List.of("MemoryPressure", "DiskPressure", "PIDPressure", "Ready"),
                conditions.stream().map(NodeCondition::getType).toList());
        NodeCondition ready = conditions.get(3);
        assertEquals("True", ready.getStatus());
        assertEquals("KubeletReady", ready.getReason());
        assertEquals("kubelet is posting ready status", ready.getMessage());
        assertTrue(conditions.subList(0, 3).stream().allMatch(c -> c.getStatus().equals("False")));
        assertEquals("InternalIP", node.getStatus().getAddresses().get(0).getType());
        assertTrue(node.getStatus().getAddresses().get(0).getAddress().startsWith("10."));
        assertEquals("node-2", node.getStatus().getAddresses().get(1).getAddress());
        assertEquals("v1.32.5-eventplane", node.getStatus().getNodeInfo().getKubeletVersion());
        assertEquals("eventplane-sim://0.1", node.getStatus().getNodeInfo().getContainerRuntimeVersion());
        assertEquals("10.244.2.0/24", node.getSpec().getPodCIDR());
        assertTrue(NodeTemplates.isReady(node));
    }

    @Test
    @DisplayName("nodes spread over zone-a, zone-b and zone-c and never share an address or a pod subnet")
    void uniqueIdentities() {
        Set<String> zones = new HashSet<>();
        Set<String> addresses = new HashSet<>();
        Set<String> subnets = new HashSet<>();
        for (int i = 1; i <= 5000; i++) {
            SimNode n = SimNode.of("node-", i);
            zones.add(n.zone());
            assertTrue(addresses.add(n.internalIP()), n.internalIP());
            assertTrue(subnets.add(n.podSubnet()), n.podSubnet());
        }
        assertEquals(Set.of("zone-a", "zone-b", "zone-c"), zones);
        assertEquals("10.244.1", SimNode.of("node-", 1).podSubnet());
    }

    @Test
    @DisplayName("a node's lease is held by the node for 40 s, and renewing it keeps its resourceVersion")
    void lease() {
        Lease lease = NodeTemplates.lease("node-1", "uid-1", 40, T0);
        assertEquals("kube-node-lease", lease.getMetadata().getNamespace());
        assertEquals("node-1", lease.getSpec().getHolderIdentity());
        assertEquals(40, lease.getSpec().getLeaseDurationSeconds());
        assertEquals("uid-1", lease.getMetadata().getOwnerReferences().get(0).getUid());

        Lease stored = Lease.newBuilder(lease).setMetadata(ObjectMeta.newBuilder(lease.getMetadata())
                .setResourceVersion("33").build()).build();
        Lease renewed = NodeTemplates.renewed(stored, "node-1", 40, T0.plusSeconds(10));

        assertEquals("33", renewed.getMetadata().getResourceVersion());
        assertEquals(T0.plusSeconds(10), renewed.getSpec().getRenewTime());
    }
}
