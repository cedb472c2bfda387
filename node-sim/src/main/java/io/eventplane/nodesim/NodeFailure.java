package io.eventplane.nodesim;

import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import java.util.HashMap;
import java.util.Map;

/**
 * How a simulated node is told to fail or recover: the annotation {@code sim.eventplane.io/node-state: failed} on its
 * Node object, written through the API like any change ({@code ./eventplane node fail|recover <name>}, or {@code kubectl
 * annotate node node-1 sim.eventplane.io/node-state=failed}). node-sim watches its Nodes: a failed node stops renewing
 * its Lease and reporting status and leaves its pods as they are, like a kubelet that lost power; the node lifecycle
 * controller then sees the Lease expire. Removing the annotation brings it back. Pure.
 */
public final class NodeFailure {
    public static final String ANNOTATION = PodBehavior.PREFIX + "node-state";
    public static final String FAILED = "failed";
    /** The node leaves for good ({@link NodeRoster}): its kubelet stops and does not register again. */
    public static final String REMOVED = "removed";

    private NodeFailure() {
    }

    /** The state the node was told to be in ({@code failed}), or null. */
    public static String requested(Node node) {
        Map<String, String> a = node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        return a == null ? null : a.get(ANNOTATION);
    }

    /** The Node with the annotation set ({@code fail}) or removed, for an UPDATE with the node's resourceVersion. */
    public static Node marked(Node node, boolean fail) {
        Map<String, String> a = node.getMetadata().getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(node.getMetadata().getAnnotations());
        if (fail) {
            a.put(ANNOTATION, FAILED);
        } else {
            a.remove(ANNOTATION);
        }
        return Node.newBuilder(node).setMetadata(ObjectMeta.newBuilder(node.getMetadata())
                .setAnnotations(a.isEmpty() ? null : a).build()).build();
    }
}
