package io.eventplane.testkit.objects;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.Taint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A node: a name (no namespace), an empty spec and no status. Capacity and conditions add a status; conditions keep
 * the order they are given in.
 */
public final class NodeBuilder extends MetaBuilder<NodeBuilder> {
    private final NodeSpec.Builder spec = NodeSpec.newBuilder();
    private NodeStatus.Builder status;
    private Map<String, String> capacity;
    private Map<String, String> allocatable;
    private final List<UnaryOperator<NodeStatus.Builder>> statusEdits = new ArrayList<>();

    NodeBuilder(String name) {
        super(name, null);
    }

    /** Capacity and allocatable both set to these quantities (a null one is left out). */
    public NodeBuilder capacity(String cpu, String memory, String pods) {
        status();
        capacity = quantities(cpu, memory, pods);
        allocatable = capacity;
        return this;
    }

    /** Allocatable only, when it differs from capacity (a null quantity is left out). */
    public NodeBuilder allocatable(String cpu, String memory, String pods) {
        status();
        allocatable = quantities(cpu, memory, pods);
        return this;
    }

    /** Adds the Ready condition with this status ("True", "False", "Unknown"). */
    public NodeBuilder ready(String status) {
        return condition("Ready", status);
    }

    /** Adds Ready=True. */
    public NodeBuilder ready() {
        return ready("True");
    }

    /** Adds a condition of this type and status. */
    public NodeBuilder condition(String type, String status) {
        return condition(NodeCondition.newBuilder().setType(type).setStatus(status).build());
    }

    /** Adds this condition. */
    public NodeBuilder condition(NodeCondition condition) {
        NodeStatus.Builder s = status();
        List<NodeCondition> conditions = new ArrayList<>();
        if (s.getConditions() != null) {
            conditions.addAll(s.getConditions());
        }
        conditions.add(condition);
        s.setConditions(conditions);
        return this;
    }

    /** The taints (none: unset). */
    public NodeBuilder taints(Taint... taints) {
        spec.setTaints(listOrNull(taints));
        return this;
    }

    /** Cordoned: spec.unschedulable true. */
    public NodeBuilder unschedulable() {
        spec.setUnschedulable(true);
        return this;
    }

    /** Any other status field, applied last (adds a status). */
    public NodeBuilder status(UnaryOperator<NodeStatus.Builder> edit) {
        status();
        statusEdits.add(edit);
        return this;
    }

    public Node build() {
        NodeStatus built = null;
        if (status != null) {
            NodeStatus.Builder b = status.setCapacity(copy(capacity)).setAllocatable(copy(allocatable));
            for (UnaryOperator<NodeStatus.Builder> edit : statusEdits) {
                b = edit.apply(b);
            }
            built = b.build();
        }
        return Node.newBuilder().setMetadata(buildMeta()).setSpec(spec.build()).setStatus(built).build();
    }

    private NodeStatus.Builder status() {
        if (status == null) {
            status = NodeStatus.newBuilder();
        }
        return status;
    }

    private static Map<String, String> quantities(String cpu, String memory, String pods) {
        Map<String, String> out = ContainerBuilder.quantities(cpu, memory);
        if (pods != null) {
            out.put("pods", pods);
        }
        return out;
    }
}
