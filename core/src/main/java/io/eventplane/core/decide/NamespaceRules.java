package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceSpec;
import io.eventplane.model.NamespaceStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Namespaces start Active and carry the {@code kubernetes} finalizer, as on Kubernetes. */
final class NamespaceRules implements KindRules<Namespace> {

    @Override
    public Namespace prepareForCreate(Namespace ns, Instant now) {
        NamespaceSpec spec = ns.getSpec() == null ? new NamespaceSpec() : NamespaceSpec.newBuilder(ns.getSpec()).build();
        if (spec.getFinalizers() == null) {
            spec.setFinalizers(List.of("kubernetes"));
        }
        // Kubernetes labels every namespace with its own name, so selectors can pick namespaces by name.
        java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
        if (ns.getMetadata() != null && ns.getMetadata().getLabels() != null) {
            labels.putAll(ns.getMetadata().getLabels());
        }
        if (ns.getMetadata() != null && ns.getMetadata().getName() != null) {
            labels.put("kubernetes.io/metadata.name", ns.getMetadata().getName());
        }
        io.eventplane.model.ObjectMeta meta = io.eventplane.model.ObjectMeta.newBuilder(ns.getMetadata()).setLabels(labels).build();
        return Namespace.newBuilder(ns).setMetadata(meta).setSpec(spec)
                .setStatus(NamespaceStatus.newBuilder().setPhase("Active").build()).build();
    }

    @Override
    public Optional<StatusCause> validateName(String name) {
        return Names.label("metadata.name", name);
    }

    @Override
    public List<StatusCause> validate(Namespace object) {
        return List.of();
    }
}
