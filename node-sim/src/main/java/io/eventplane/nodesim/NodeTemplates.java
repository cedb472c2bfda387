package io.eventplane.nodesim;

import io.eventplane.core.Digests;
import io.eventplane.core.meta.Conditions;
import io.eventplane.model.DaemonEndpoint;
import io.eventplane.model.Lease;
import io.eventplane.model.LeaseSpec;
import io.eventplane.model.Node;
import io.eventplane.model.NodeAddress;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeDaemonEndpoints;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.NodeSystemInfo;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Set;
import java.util.List;
import java.util.Map;

/** The Node and Lease objects a kubelet of Kubernetes 1.32 registers and keeps up to date. Pure. */
public final class NodeTemplates {
    public static final String LEASE_NAMESPACE = "kube-node-lease";
    /** The region every simulated node is in (its zones are zone-a, zone-b, zone-c). */
    public static final String REGION = "sim-region-1";
    public static final String KUBELET_VERSION = "v1.32.5-eventplane";
    public static final String RUNTIME_VERSION = "eventplane-sim://0.1";

    private NodeTemplates() {
    }

    public static Node node(SimNode sim, NodeShape shape, Instant now) {
        return node(sim, shape, Set.of(), now);
    }

    /** A new Node reporting {@code pressures} True. */
    public static Node node(SimNode sim, NodeShape shape, Set<NodePressure.Kind> pressures, Instant now) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("beta.kubernetes.io/arch", "amd64");
        labels.put("beta.kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("kubernetes.io/hostname", sim.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("node.kubernetes.io/instance-type", shape.instanceType());
        labels.put("topology.kubernetes.io/region", REGION);
        labels.put("topology.kubernetes.io/zone", sim.zone());
        ObjectMeta meta = ObjectMeta.newBuilder().setName(sim.name()).setLabels(labels)
                .setAnnotations(Map.of("node.alpha.kubernetes.io/ttl", "0",
                        "volumes.kubernetes.io/controller-managed-attach-detach", "true"))
                .build();
        NodeSpec spec = NodeSpec.newBuilder().setPodCIDR(sim.podCIDR()).setPodCIDRs(List.of(sim.podCIDR()))
                .setProviderID("eventplane-sim://" + sim.name()).build();
        return Node.newBuilder().setMetadata(meta).setSpec(spec).setStatus(status(sim, shape, pressures, List.of(), now)).build();
    }

    public static NodeStatus status(SimNode sim, NodeShape shape, Instant now) {
        return status(sim, shape, Set.of(), List.of(), now);
    }

    /**
     * The status with {@code pressures} True and the other pressure conditions False; a condition whose status is the
     * same as in {@code previous} keeps its lastTransitionTime.
     */
    public static NodeStatus status(SimNode sim, NodeShape shape, Set<NodePressure.Kind> pressures,
                                    List<NodeCondition> previous, Instant now) {
        List<NodeCondition> conditions = new ArrayList<>();
        for (NodePressure.Kind k : NodePressure.Kind.values()) {
            conditions.add(NodePressure.condition(k, pressures.contains(k), find(previous, k.condition()), now));
        }
        NodeCondition ready = condition("Ready", "True", "KubeletReady", "kubelet is posting ready status", now);
        ready.setLastTransitionTime(Conditions.transitionTime(find(previous, "Ready"), "True", now));
        conditions.add(ready);
        return NodeStatus.newBuilder()
                .setCapacity(shape.capacity())
                .setAllocatable(shape.capacity())
                .setConditions(conditions)
                .setAddresses(List.of(
                        NodeAddress.newBuilder().setType("InternalIP").setAddress(sim.internalIP()).build(),
                        NodeAddress.newBuilder().setType("Hostname").setAddress(sim.name()).build()))
                .setDaemonEndpoints(NodeDaemonEndpoints.newBuilder()
                        .setKubeletEndpoint(DaemonEndpoint.newBuilder().setPort(10250).build()).build())
                .setNodeInfo(NodeSystemInfo.newBuilder()
                        .setMachineID(uuid("machine", sim.name()).replace("-", ""))
                        .setSystemUUID(uuid("system", sim.name()))
                        .setBootID(uuid("boot", sim.name()))
                        .setKernelVersion("6.1.0-eventplane-sim")
                        .setOsImage("Eventplane Simulated Linux")
                        .setContainerRuntimeVersion(RUNTIME_VERSION)
                        .setKubeletVersion(KUBELET_VERSION)
                        .setOperatingSystem("linux")
                        .setArchitecture("amd64")
                        .build())
                .build();
    }

    /** An existing node (found after a restart) with the status this kubelet reports now. */
    public static Node withFreshStatus(Node existing, SimNode sim, NodeShape shape, Instant now) {
        return withFreshStatus(existing, sim, shape, Set.of(), now);
    }

    /** An existing node with the status this kubelet reports now, under {@code pressures}. */
    public static Node withFreshStatus(Node existing, SimNode sim, NodeShape shape, Set<NodePressure.Kind> pressures,
                                       Instant now) {
        List<NodeCondition> previous = existing.getStatus() == null || existing.getStatus().getConditions() == null
                ? List.of() : existing.getStatus().getConditions();
        return Node.newBuilder(existing).setStatus(status(sim, shape, pressures, previous, now)).build();
    }

    private static NodeCondition find(List<NodeCondition> conditions, String type) {
        return Conditions.find(conditions, type).orElse(null);
    }

    public static boolean isReady(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return false;
        }
        return node.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** The node's Lease in kube-node-lease, owned by the node when its uid is known. */
    public static Lease lease(String nodeName, String nodeUid, int durationSeconds, Instant now) {
        ObjectMeta.Builder meta = ObjectMeta.newBuilder().setName(nodeName).setNamespace(LEASE_NAMESPACE);
        if (nodeUid != null) {
            meta.setOwnerReferences(List.of(OwnerReference.newBuilder().setApiVersion("v1").setKind("Node")
                    .setName(nodeName).setUid(nodeUid).build()));
        }
        return Lease.newBuilder().setMetadata(meta.build())
                .setSpec(LeaseSpec.newBuilder().setHolderIdentity(nodeName).setLeaseDurationSeconds(durationSeconds)
                        .setRenewTime(now).build())
                .build();
    }

    /** The same Lease (same resourceVersion, so the writer rejects it if someone else changed it) renewed now. */
    public static Lease renewed(Lease lease, String nodeName, int durationSeconds, Instant now) {
        LeaseSpec spec = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
        return Lease.newBuilder(lease).setSpec(LeaseSpec.newBuilder(spec).setHolderIdentity(nodeName)
                .setLeaseDurationSeconds(durationSeconds).setRenewTime(now).build()).build();
    }

    private static NodeCondition condition(String type, String status, String reason, String message, Instant now) {
        return NodeCondition.newBuilder().setType(type).setStatus(status).setReason(reason).setMessage(message)
                .setLastHeartbeatTime(now).setLastTransitionTime(now).build();
    }

    private static String uuid(String what, String name) {
        return Digests.nameUuid(what + "/" + name);
    }
}
