package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Namespace;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' NamespaceLifecycle plugin: nothing is created in a namespace that does not exist or is being
 * terminated, and {@code default}, {@code kube-system} and {@code kube-public} are never deleted.
 */
final class NamespaceLifecycle implements AdmissionChain.Validating {
    static final Set<String> IMMORTAL = Set.of("default", "kube-system", "kube-public");
    private final ClusterView view;

    NamespaceLifecycle(ClusterView view) {
        this.view = view;
    }

    @Override
    public void validate(AdmissionRequest request, SpecificRecord object) {
        if (request.kind() == Kinds.NAMESPACE) {
            if (request.operation() == AdmissionRequest.Operation.DELETE && IMMORTAL.contains(request.name())) {
                throw AdmissionRefusal.forbidden(Kinds.NAMESPACE, request.name(),
                        "this namespace may not be deleted").thrown();
            }
            return; // every other operation on namespaces is allowed
        }
        if (request.operation() != AdmissionRequest.Operation.CREATE || !request.kind().namespaced()) {
            return;
        }
        String namespace = request.namespace();
        Namespace ns = view.get(Kinds.NAMESPACE.kind(), "", namespace).map(c -> (Namespace) c.getObject()).orElse(null);
        if (ns == null) {
            throw AdmissionRefusal.namespaceNotFound(namespace).thrown();
        }
        boolean terminating = ns.getMetadata().getDeletionTimestamp() != null
                || (ns.getStatus() != null && "Terminating".equals(ns.getStatus().getPhase()));
        if (terminating) {
            throw AdmissionRefusal.forbidden(request.kind(), request.name(), "unable to create new content in "
                    + "namespace " + namespace + " because it is being terminated", List.of(new AdmissionRefusal.Cause(
                    "NamespaceTerminating", "namespace " + namespace + " is being terminated", "metadata.namespace"))).thrown();
        }
    }
}
