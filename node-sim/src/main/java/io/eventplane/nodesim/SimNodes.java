package io.eventplane.nodesim;

import io.eventplane.client.Commands;
import io.eventplane.client.ServiceIdentities;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Node;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The nodes one node-sim instance is configured with, and what its parts ({@link NodeMembership},
 * {@link NodeHeartbeat}, {@link KubeletLoop}) share about them: which it simulates now (given by its membership,
 * {@link NodeSharding}), which are failed ({@link NodeFailure}: no lease, no status, no pod work until the annotation
 * goes), each node's command builder (actor {@code system:node:<node>}, group {@code system:nodes}), and the pressures node-sim's configuration puts it
 * under, and the nodes added and removed at run time ({@link NodeRoster}). Read from the view's and the membership's
 * threads too, hence concurrent.
 */
final class SimNodes {
    private final Map<Integer, SimNode> byIndex = new ConcurrentSkipListMap<>();
    private final Map<String, SimNode> nodes = new ConcurrentHashMap<>();
    private final Map<String, Commands> commands = new ConcurrentHashMap<>();
    private final Clock clock;
    /** How many nodes the configuration names ({@code <prefix>1..configured}). */
    private final int configured;
    /** Pressures node-sim's configuration puts nodes under ({@code EVENTPLANE_NODESIM_PRESSURE}), by node name. */
    private final Map<String, Set<NodePressure.Kind>> configuredPressure;
    /** The nodes this instance simulates now ({@link NodeSharding}); the others belong to other instances. */
    private final Set<String> owned = ConcurrentHashMap.newKeySet();
    /** Nodes told to fail: no lease renewal, no status, no pod work. */
    private final Set<String> failed = ConcurrentHashMap.newKeySet();

    /** Nodes {@code <prefix>1..count}. */
    SimNodes(String prefix, int count, Clock clock, Map<String, Set<NodePressure.Kind>> configuredPressure) {
        this.clock = clock;
        this.configured = count;
        for (int i = 1; i <= count; i++) {
            add(SimNode.of(prefix, i));
        }
        this.configuredPressure = configuredPressure;
    }

    /** A node joins (configured, or added at run time); answers whether it was not there. */
    boolean add(SimNode n) {
        if (nodes.putIfAbsent(n.name(), n) != null) {
            return false;
        }
        byIndex.put(n.index(), n);
        commands.put(n.name(), new Commands(ServiceIdentities.node(n.name()), clock));
        return true;
    }

    /** A node leaves for good (removed at run time); answers whether it was there. */
    boolean remove(String name) {
        SimNode n = nodes.remove(name);
        if (n == null) {
            return false;
        }
        byIndex.remove(n.index());
        commands.remove(name);
        owned.remove(name);
        failed.remove(name);
        return true;
    }

    /** Whether the configuration names the node (else it was added at run time). */
    boolean isConfigured(SimNode n) {
        return n.index() <= configured;
    }

    SimNode get(String name) {
        return nodes.get(name);
    }

    boolean contains(String name) {
        return nodes.containsKey(name);
    }

    /** Every node, in index order. */
    Collection<SimNode> all() {
        return byIndex.values();
    }

    /** Every node's name, in index order. */
    Set<String> names() {
        Set<String> out = new LinkedHashSet<>();
        byIndex.values().forEach(n -> out.add(n.name()));
        return out;
    }

    int size() {
        return nodes.size();
    }

    /** The commands the node's kubelet sends (its actor). */
    Commands commands(SimNode node) {
        return commands.get(node.name());
    }

    // ---- which this instance simulates

    /** The nodes this instance simulates now (a live set). */
    Set<String> owned() {
        return owned;
    }

    boolean owns(String name) {
        return owned.contains(name);
    }

    void own(String name) {
        owned.add(name);
    }

    void disown(String name) {
        owned.remove(name);
    }

    boolean isFailed(String name) {
        return failed.contains(name);
    }

    /** Marks the node failed; answers whether it was not already. */
    boolean fail(String name) {
        return failed.add(name);
    }

    /** Marks the node recovered; answers whether it was failed. */
    boolean recover(String name) {
        return failed.remove(name);
    }

    // ---- pressure

    /** The pressures the node's kubelet is under: the Node's annotations and node-sim's configuration. */
    Set<NodePressure.Kind> pressures(Node node) {
        return NodePressure.requested(node, configured(node.getMetadata().getName()));
    }

    /** The pressures node-sim's configuration puts the node under. */
    Set<NodePressure.Kind> configured(String name) {
        return configuredPressure.getOrDefault(name, Set.of());
    }

    // ---- keys in the view

    static String nodeKey(SimNode n) {
        return Keys.of(Kinds.NODE.kind(), "", n.name());
    }

    static String leaseKey(SimNode n) {
        return Keys.of(Kinds.LEASE.kind(), NodeTemplates.LEASE_NAMESPACE, n.name());
    }
}
