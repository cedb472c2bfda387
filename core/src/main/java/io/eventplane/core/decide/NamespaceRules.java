package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceSpec;
import io.eventplane.model.NamespaceStatus;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Namespaces as Kubernetes' registry keeps them: Active on creation, always with the {@code kubernetes} finalizer in
 * spec.finalizers, which only the finalize subresource changes. A delete marks the namespace Terminating and keeps it
 * until the namespace controller has removed its content and the {@code kubernetes} finalizer; a delete while that
 * is under way is refused with Kubernetes' Conflict.
 */
final class NamespaceRules implements KindRules<Namespace> {
    static final String KUBERNETES_FINALIZER = "kubernetes";
    private static final Set<String> STANDARD_FINALIZERS = Set.of(KUBERNETES_FINALIZER,
            ObjectDecider.ORPHAN_FINALIZER, ObjectDecider.FOREGROUND_FINALIZER);
    private static final String STILL_REMOVING = "The system is ensuring all content is removed from this namespace.  "
            + "Upon completion, this namespace will automatically be purged by the system.";

    @Override
    public Namespace prepareForCreate(Namespace ns, Instant now) {
        NamespaceSpec spec = ns.getSpec() == null ? new NamespaceSpec() : NamespaceSpec.newBuilder(ns.getSpec()).build();
        List<String> finalizers = spec.getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(spec.getFinalizers());
        if (!finalizers.contains(KUBERNETES_FINALIZER)) {
            finalizers.add(KUBERNETES_FINALIZER); // required on create; only finalize removes it later
        }
        spec.setFinalizers(finalizers);
        return Namespace.newBuilder(withNameLabel(ns)).setSpec(spec)
                .setStatus(NamespaceStatus.newBuilder().setPhase("Active").build()).build();
    }

    /** Kubernetes labels every namespace with its own name, so selectors can pick namespaces by name. */
    private static Namespace withNameLabel(Namespace ns) {
        Map<String, String> labels = new LinkedHashMap<>();
        if (ns.getMetadata() != null && ns.getMetadata().getLabels() != null) {
            labels.putAll(ns.getMetadata().getLabels());
        }
        if (ns.getMetadata() != null && ns.getMetadata().getName() != null) {
            labels.put("kubernetes.io/metadata.name", ns.getMetadata().getName());
        }
        ObjectMeta meta = ObjectMeta.newBuilder(ns.getMetadata()).setLabels(labels).build();
        return Namespace.newBuilder(ns).setMetadata(meta).build();
    }

    /** An update keeps spec.finalizers (the finalize subresource's) and the name label. */
    @Override
    public Namespace prepareForUpdate(Namespace old, Namespace updated) {
        NamespaceSpec spec = updated.getSpec() == null ? new NamespaceSpec()
                : NamespaceSpec.newBuilder(updated.getSpec()).build();
        spec.setFinalizers(old.getSpec() == null ? null : old.getSpec().getFinalizers());
        return Namespace.newBuilder(withNameLabel(updated)).setSpec(spec).build();
    }

    @Override
    public Namespace finalize(Namespace stored, Namespace written) {
        List<String> finalizers = written.getSpec() == null ? null : written.getSpec().getFinalizers();
        NamespaceSpec spec = stored.getSpec() == null ? new NamespaceSpec() : NamespaceSpec.newBuilder(stored.getSpec()).build();
        spec.setFinalizers(finalizers == null ? List.of() : finalizers);
        return Namespace.newBuilder(stored).setSpec(spec).build();
    }

    @Override
    public Optional<Rejection> refuseDelete(Namespace ns) {
        boolean deleting = ns.getMetadata() != null && ns.getMetadata().getDeletionTimestamp() != null;
        if (deleting && heldAfterDeletion(ns)) {
            return Optional.of(Rejection.conflict("namespaces", ns.getMetadata().getName(), STILL_REMOVING));
        }
        return Optional.empty();
    }

    @Override
    public boolean heldAfterDeletion(Namespace ns) {
        return ns.getSpec() != null && ns.getSpec().getFinalizers() != null && !ns.getSpec().getFinalizers().isEmpty();
    }

    @Override
    public Namespace markDeleting(Namespace ns) {
        NamespaceStatus status = ns.getStatus() == null ? new NamespaceStatus()
                : NamespaceStatus.newBuilder(ns.getStatus()).build();
        status.setPhase("Terminating");
        return Namespace.newBuilder(ns).setStatus(status).build();
    }

    @Override
    public Optional<StatusCause> validateName(String name) {
        return Names.label("metadata.name", name);
    }

    /** ValidateNamespace: each of spec.finalizers is a qualified name, standard when it has no prefix. */
    @Override
    public List<StatusCause> validate(Namespace ns) {
        List<StatusCause> causes = new ArrayList<>();
        List<String> finalizers = ns.getSpec() == null || ns.getSpec().getFinalizers() == null ? List.of()
                : ns.getSpec().getFinalizers();
        for (String f : finalizers) {
            int before = causes.size();
            Formats.qualifiedName("spec.finalizers", f, causes);
            if (causes.size() == before && !f.contains("/") && !STANDARD_FINALIZERS.contains(f)) {
                causes.add(Causes.invalid("spec.finalizers", f,
                        "name is neither a standard finalizer name nor is it fully qualified"));
            }
        }
        return causes;
    }
}
