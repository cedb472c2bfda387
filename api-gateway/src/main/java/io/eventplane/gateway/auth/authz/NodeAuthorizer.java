package io.eventplane.gateway.auth.authz;

import io.eventplane.client.ClusterView;
import io.eventplane.client.ObjectView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.LocalObjectReference;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.model.Pod;
import io.eventplane.model.rbac.PolicyRule;
import java.util.HashSet;
import io.eventplane.core.meta.ObjectAccess;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' Node authorizer and the NodeRestriction admission checks that need no request body, for users
 * {@code system:node:<name>} in group {@code system:nodes}: a node reads the secrets, config maps, claims and volumes its
 * own pods reference, and only its own pods one by one; it writes its own Node and its own Lease in
 * {@code kube-node-lease}, the status of its own pods, and deletes or evicts only its own pods. Everything else
 * a node may do is the {@code system:node} role's rules ({@link BootstrapPolicy#nodeRules()}); other users get no
 * opinion.
 */
public final class NodeAuthorizer implements Authorizer {
    static final String NODE_PREFIX = "system:node:";
    static final String NODES_GROUP = "system:nodes";
    private static final Set<String> READS = Set.of("get", "list", "watch");

    private final ClusterView view;
    private final List<PolicyRule> nodeRules = BootstrapPolicy.nodeRules();

    public NodeAuthorizer(ClusterView view) {
        this.view = view;
    }

    /** The node a user is, or null (NodeIdentity: the name prefix and the group). */
    public static String nodeName(UserInfo user) {
        if (user == null || !user.name().startsWith(NODE_PREFIX) || !user.inGroup(NODES_GROUP)) {
            return null;
        }
        String node = user.name().substring(NODE_PREFIX.length());
        return node.isEmpty() ? null : node;
    }

    @Override
    public Decision authorize(Attributes a) {
        String node = nodeName(a.user());
        if (node == null) {
            return Decision.noOpinion("");
        }
        if (a.resourceRequest()) {
            String group = a.apiGroup();
            String resource = a.resource();
            if (group.isEmpty()) {
                switch (resource) {
                    case "secrets", "configmaps", "persistentvolumeclaims", "persistentvolumes" -> {
                        return readReferenced(node, a);
                    }
                    case "pods" -> {
                        return pod(node, a);
                    }
                    case "nodes" -> {
                        return nodeObject(node, a);
                    }
                    default -> { }
                }
            } else if (group.equals("coordination.k8s.io") && resource.equals("leases")) {
                return lease(node, a);
            }
        }
        return PolicyRules.anyAllows(a, nodeRules) ? Decision.allow("") : Decision.noOpinion("");
    }

    private Decision readReferenced(String node, Attributes a) {
        if (!READS.contains(a.verb()) || !a.subresource().isEmpty()) {
            return Decision.noOpinion("can only read resources of this type");
        }
        if (a.name().isEmpty()) {
            return Decision.noOpinion("can only read namespaced object of this type");
        }
        return referenced(node, a.resource(), a.namespace(), a.name()) ? Decision.allow("") : noRelationship(node);
    }

    private Decision pod(String node, Attributes a) {
        String verb = a.verb();
        if (a.subresource().isEmpty() && (verb.equals("list") || verb.equals("watch") || verb.equals("create"))) {
            // lists and watches by spec.nodeName; create is a mirror pod, which NodeRestriction checks on its body
            return PolicyRules.anyAllows(a, nodeRules) ? Decision.allow("") : Decision.noOpinion("");
        }
        Optional<Pod> pod = view.get(Kinds.POD.kind(), a.namespace(), a.name()).map(c -> (Pod) c.getObject());
        boolean own = pod.isPresent() && pod.get().getSpec() != null && node.equals(pod.get().getSpec().getNodeName());
        if (a.subresource().isEmpty() && verb.equals("get")) {
            return own ? Decision.allow("") : noRelationship(node);
        }
        if (pod.isEmpty()) {
            return PolicyRules.anyAllows(a, nodeRules) ? Decision.allow("") : Decision.noOpinion("");
        }
        String refusal = switch (a.subresource()) {
            case "status" -> own || !(verb.equals("update") || verb.equals("patch")) ? null
                    : "node \"" + node + "\" can only update pod status for pods with spec.nodeName set to itself";
            case "eviction" -> own ? null : "node " + node + " can only evict pods with spec.nodeName set to itself";
            case "" -> own || !verb.equals("delete") ? null
                    : "node \"" + node + "\" can only delete pods with spec.nodeName set to itself";
            default -> null;
        };
        if (refusal != null) {
            return Decision.refuse(refusal);
        }
        return PolicyRules.anyAllows(a, nodeRules) ? Decision.allow("") : Decision.noOpinion("");
    }

    private Decision nodeObject(String node, Attributes a) {
        boolean write = a.verb().equals("update") || a.verb().equals("patch") || a.verb().equals("delete");
        if (write) {
            return node.equals(a.name()) ? Decision.allow("")
                    : Decision.refuse("node \"" + node + "\" is not allowed to modify node \"" + a.name() + "\"");
        }
        return PolicyRules.anyAllows(a, nodeRules) ? Decision.allow("") : Decision.noOpinion("");
    }

    /** authorizeLease: a node's own lease in kube-node-lease (create is checked by name on its body, not here). */
    private static Decision lease(String node, Attributes a) {
        String verb = a.verb();
        if (!Set.of("get", "create", "update", "patch", "delete").contains(verb)) {
            return Decision.noOpinion("can only get, create, update, patch, or delete a node lease");
        }
        if (!a.namespace().equals("kube-node-lease")) {
            return Decision.noOpinion("can only access leases in the \"kube-node-lease\" system namespace");
        }
        if (!verb.equals("create") && !a.name().equals(node)) {
            return Decision.noOpinion("can only access node lease with the same name as the requesting node");
        }
        return Decision.allow("");
    }

    /**
     * NodeRestriction's checks of what a node creates, which need the object: only mirror pods bound to itself, only
     * its own Node and its own Lease. The refusal's message, or null.
     */
    static String refuseCreate(String node, String kind, SpecificRecord object) {
        String name = ObjectAccess.meta(object).getName();
        return switch (kind) {
            case "Pod" -> {
                Pod pod = (Pod) object;
                Map<String, String> annotations = pod.getMetadata().getAnnotations();
                if (annotations == null || !annotations.containsKey("kubernetes.io/config.mirror")) {
                    yield "pod does not have \"kubernetes.io/config.mirror\" annotation, node \"" + node
                            + "\" can only create mirror pods";
                }
                yield pod.getSpec() != null && node.equals(pod.getSpec().getNodeName()) ? null
                        : "node \"" + node + "\" can only create pods with spec.nodeName set to itself";
            }
            case "Node" -> node.equals(name) ? null
                    : "node \"" + node + "\" is not allowed to modify node \"" + name + "\"";
            case "Lease" -> node.equals(name) ? null
                    : "can only access node lease with the same name as the requesting node";
            default -> null;
        };
    }

    private static Decision noRelationship(String node) {
        return Decision.noOpinion("no relationship found between node '" + node + "' and this object");
    }

    /** Whether a pod bound to {@code node} references the object (a volume, an env source, a pull secret, a claim). */
    boolean referenced(String node, String resource, String namespace, String name) {
        for (ObjectChanged c : view.indexed(ObjectView.PODS_BY_NODE, node)) {
            Pod pod = (Pod) c.getObject();
            if (resource.equals("persistentvolumes")) {
                for (String claim : references(pod, "persistentvolumeclaims")) {
                    String volume = view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), pod.getMetadata().getNamespace(), claim)
                            .map(pc -> ((PersistentVolumeClaim) pc.getObject()).getSpec())
                            .map(spec -> spec.getVolumeName()).orElse(null);
                    if (name.equals(volume)) {
                        return true;
                    }
                }
            } else if (namespace.equals(pod.getMetadata().getNamespace()) && references(pod, resource).contains(name)) {
                return true;
            }
        }
        return false;
    }

    /** The names of one resource a pod references. */
    static Set<String> references(Pod pod, String resource) {
        Set<String> out = new HashSet<>();
        if (pod.getSpec() == null) {
            return out;
        }
        walk(pod.getSpec(), resource, out);
        if (resource.equals("secrets") && pod.getSpec().getImagePullSecrets() != null) {
            for (LocalObjectReference r : pod.getSpec().getImagePullSecrets()) {
                if (r.getName() != null) {
                    out.add(r.getName());
                }
            }
        }
        return out;
    }

    /** Finds the reference records of the pod spec by their Avro type, wherever they sit (volumes, projections, env). */
    private static void walk(Object value, String resource, Set<String> out) {
        if (value instanceof IndexedRecord r) {
            String field = referenceField(r.getSchema().getName(), resource);
            if (field != null) {
                Object name = r.get(r.getSchema().getField(field).pos());
                if (name != null) {
                    out.add(name.toString());
                }
                return;
            }
            for (Schema.Field f : r.getSchema().getFields()) {
                walk(r.get(f.pos()), resource, out);
            }
        } else if (value instanceof List<?> l) {
            for (Object o : l) {
                walk(o, resource, out);
            }
        }
    }

    private static String referenceField(String type, String resource) {
        return switch (resource) {
            case "secrets" -> switch (type) {
                case "SecretVolumeSource" -> "secretName";
                case "SecretProjection", "SecretKeySelector", "SecretEnvSource" -> "name";
                default -> null;
            };
            case "configmaps" -> switch (type) {
                case "ConfigMapVolumeSource", "ConfigMapProjection", "ConfigMapKeySelector", "ConfigMapEnvSource" -> "name";
                default -> null;
            };
            case "persistentvolumeclaims" -> type.equals("PersistentVolumeClaimVolumeSource") ? "claimName" : null;
            default -> null;
        };
    }
}
