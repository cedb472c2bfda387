package io.eventplane.nodesim;

import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/**
 * Nodes that join or leave a running node-sim, as machines join or leave a cluster. A group of node-sim instances
 * simulates its configured nodes ({@code <prefix>1..N}) and every Node annotated {@code sim.eventplane.io/node-sim:
 * <prefix>} and named {@code <prefix><index>}: {@code ./eventplane node add} creates such a Node through the API (as
 * the kubelet would register it, without a status), the instances see it in the log, one of them takes it over and
 * reports it Ready. A node leaves with {@code sim.eventplane.io/node-state: removed} ({@link NodeFailure}): its kubelet
 * stops for good (it does not register again when its Node is deleted), and {@code ./eventplane node remove} then
 * deletes the Node and its Lease; PodGC removes its pods. Added nodes come back after a restart (their Node says so);
 * a removed configured node comes back too, as the configuration still names it. Pure.
 */
public final class NodeRoster {
    public static final String ANNOTATION = PodBehavior.PREFIX + "node-sim";

    private NodeRoster() {
    }

    /** The index of a Node added at run time to the group {@code prefix}, or -1 when it is not one. */
    public static int addedIndex(Node node, String prefix) {
        Map<String, String> a = node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        if (a == null || !prefix.equals(a.get(ANNOTATION))) {
            return -1;
        }
        return index(node.getMetadata().getName(), prefix);
    }

    /** The index in {@code <prefix><index>}, or -1. */
    public static int index(String name, String prefix) {
        if (name == null || !name.startsWith(prefix) || name.length() == prefix.length()) {
            return -1;
        }
        String digits = name.substring(prefix.length());
        if (!digits.chars().allMatch(Character::isDigit) || digits.length() > 9 || digits.startsWith("0")) {
            return -1;
        }
        return Integer.parseInt(digits);
    }

    public static boolean removed(Node node) {
        return NodeFailure.REMOVED.equals(NodeFailure.requested(node));
    }

    /** The Node to create for a node added to the group: as its kubelet registers it, annotated, with more labels. */
    public static Node added(String prefix, int index, Map<String, String> labels, NodeShape shape, Instant now) {
        Node node = annotated(NodeTemplates.node(SimNode.of(prefix, index), shape, now), prefix);
        Map<String, String> all = new HashMap<>(node.getMetadata().getLabels());
        all.putAll(labels);
        return Node.newBuilder(node).setStatus(null)
                .setMetadata(ObjectMeta.newBuilder(node.getMetadata()).setLabels(all).build()).build();
    }

    /** The Node marked as belonging to the group {@code prefix}. */
    static Node annotated(Node node, String prefix) {
        Map<String, String> a = node.getMetadata().getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(node.getMetadata().getAnnotations());
        a.put(ANNOTATION, prefix);
        return Node.newBuilder(node).setMetadata(ObjectMeta.newBuilder(node.getMetadata()).setAnnotations(a).build())
                .build();
    }
}
