package io.eventplane.gateway.table;

import io.eventplane.model.Node;
import io.eventplane.model.NodeAddress;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.NodeSystemInfo;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.avro.specific.SpecificRecord;

/** {@code kubectl get nodes}: NAME STATUS ROLES AGE VERSION, plus addresses, OS, kernel and runtime when wide. */
final class NodeColumns implements Columns {
    private static final List<Column> COLUMNS = List.of(
            Column.nameColumn(),
            Column.of("Status", "The status of the node"),
            Column.of("Roles", "The roles of the node"),
            Column.ageColumn(),
            Column.of("Version", "Kubelet Version reported by the node."),
            Column.wide("Internal-IP", "List of addresses reachable to the node. Queried from cloud provider, if available."),
            Column.wide("External-IP", "List of addresses reachable to the node. Queried from cloud provider, if available."),
            Column.wide("OS-Image", "OS Image reported by the node from /etc/os-release (e.g. Debian GNU/Linux 7 (wheezy))."),
            Column.wide("Kernel-Version", "Kernel Version reported by the node from 'uname -r' (e.g. 3.16.0-0.bpo.4-amd64)."),
            Column.wide("Container-Runtime", "Container runtime version reported by the node through runtime remote API (e.g. containerd://1.4.2)."));

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(SpecificRecord object, Instant now) {
        Node node = (Node) object;
        ObjectMeta meta = node.getMetadata() == null ? new ObjectMeta() : node.getMetadata();
        NodeStatus status = node.getStatus() == null ? new NodeStatus() : node.getStatus();
        NodeSystemInfo info = status.getNodeInfo() == null ? new NodeSystemInfo() : status.getNodeInfo();
        return List.of(meta.getName(), status(node), roles(meta.getLabels()),
                Ages.since(meta.getCreationTimestamp(), now), nz(info.getKubeletVersion()),
                address(status, "InternalIP"), address(status, "ExternalIP"),
                unknown(info.getOsImage()), unknown(info.getKernelVersion()),
                unknown(info.getContainerRuntimeVersion()));
    }

    /** {@code Ready}, {@code NotReady} or {@code Unknown}, with {@code ,SchedulingDisabled} when cordoned. */
    static String status(Node node) {
        List<String> parts = new ArrayList<>();
        NodeStatus status = node.getStatus();
        if (status != null && status.getConditions() != null) {
            for (NodeCondition c : status.getConditions()) {
                if ("Ready".equals(c.getType())) {
                    parts.add("True".equals(c.getStatus()) ? "Ready" : "NotReady");
                }
            }
        }
        if (parts.isEmpty()) {
            parts.add("Unknown");
        }
        NodeSpec spec = node.getSpec();
        if (spec != null && Boolean.TRUE.equals(spec.getUnschedulable())) {
            parts.add("SchedulingDisabled");
        }
        return String.join(",", parts);
    }

    private static String roles(Map<String, String> labels) {
        TreeSet<String> roles = new TreeSet<>();
        if (labels != null) {
            labels.forEach((k, v) -> {
                if (k.startsWith("node-role.kubernetes.io/")) {
                    String role = k.substring("node-role.kubernetes.io/".length());
                    if (!role.isEmpty()) {
                        roles.add(role);
                    }
                } else if (k.equals("kubernetes.io/role") && !v.isEmpty()) {
                    roles.add(v);
                }
            });
        }
        return roles.isEmpty() ? "<none>" : String.join(",", roles);
    }

    private static String address(NodeStatus status, String type) {
        if (status.getAddresses() != null) {
            for (NodeAddress a : status.getAddresses()) {
                if (type.equals(a.getType())) {
                    return a.getAddress();
                }
            }
        }
        return "<none>";
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String unknown(String s) {
        return s == null || s.isEmpty() ? "<unknown>" : s;
    }
}
