package io.eventplane.core.decide;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Verb;
import io.eventplane.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The writer's share of Kubernetes' NodeRestriction: a command from a node identity ({@code system:node:<name>} in
 * group {@code system:nodes}, what node-sim stamps for each node it runs) may write only that node's pods (their
 * status, their deletion, mirror pods bound to it), its own Node and its own Lease in {@code kube-node-lease}. The
 * gateway checks the same rules for API requests (its Node authorizer); here they hold for the commands node-sim sends
 * to Kafka directly, so a node-sim shard cannot change another node's objects whatever its code does. Other kinds and
 * other actors: no opinion (RBAC is the API's; on Kafka, the ACLs of {@code ep.commands}).
 */
public final class NodeRestriction {
    public static final String NODE_PREFIX = "system:node:";
    public static final String NODES_GROUP = "system:nodes";
    public static final String NODE_LEASE_NAMESPACE = "kube-node-lease";
    static final String MIRROR_ANNOTATION = "kubernetes.io/config.mirror";

    private NodeRestriction() {
    }

    /** The node a user is (the name prefix and the group, as NodeIdentity reads them), or null. */
    public static String nodeName(String user, List<String> groups) {
        if (user == null || !user.startsWith(NODE_PREFIX) || groups == null || !groups.contains(NODES_GROUP)) {
            return null;
        }
        String node = user.substring(NODE_PREFIX.length());
        return node.isEmpty() ? null : node;
    }

    /** Why the command's node may not do this, or empty (not a node, or allowed). */
    public static Optional<Rejection> refusal(Command command, KindInfo kind, ObjectChanged current) {
        Envelope e = command.getEnvelope();
        String node = e == null ? null : nodeName(e.getActor(), e.getGroups());
        if (node == null) {
            return Optional.empty();
        }
        String why = null;
        if (kind.kind().equals(Kinds.POD.kind())) {
            why = pod(node, command, current);
        } else if (kind.kind().equals(Kinds.NODE.kind())) {
            why = node.equals(command.getName()) ? null
                    : "node \"" + node + "\" is not allowed to modify node \"" + command.getName() + "\"";
        } else if (kind.kind().equals(Kinds.LEASE.kind())) {
            why = NODE_LEASE_NAMESPACE.equals(command.getNamespace()) && node.equals(command.getName()) ? null
                    : "can only access node lease with the same name as the requesting node";
        }
        return why == null ? Optional.empty()
                : Optional.of(Rejection.forbidden(ObjectDecider.resource(kind), command.getName(), why));
    }

    private static String pod(String node, Command command, ObjectChanged current) {
        if (command.getVerb() == Verb.CREATE) {
            Pod pod = command.getObject() instanceof Pod p ? p : null;
            Map<String, String> annotations = pod == null || pod.getMetadata() == null ? null
                    : pod.getMetadata().getAnnotations();
            if (annotations == null || !annotations.containsKey(MIRROR_ANNOTATION)) {
                return "pod does not have \"" + MIRROR_ANNOTATION + "\" annotation, node \"" + node
                        + "\" can only create mirror pods";
            }
            return pod.getSpec() != null && node.equals(pod.getSpec().getNodeName()) ? null
                    : "node \"" + node + "\" can only create pods with spec.nodeName set to itself";
        }
        if (command.getVerb() == Verb.BIND) {
            return "node \"" + node + "\" cannot bind pods";
        }
        if (current == null || !(current.getObject() instanceof Pod pod)) {
            return null; // not there: the writer's own answer (NotFound) is the right one
        }
        if (pod.getSpec() != null && node.equals(pod.getSpec().getNodeName())) {
            return null;
        }
        return switch (command.getVerb()) {
            case DELETE -> "node \"" + node + "\" can only delete pods with spec.nodeName set to itself";
            case UPDATE_STATUS -> "node \"" + node + "\" can only update pod status for pods with spec.nodeName set "
                    + "to itself";
            default -> "node \"" + node + "\" can only update pods with spec.nodeName set to itself";
        };
    }
}
