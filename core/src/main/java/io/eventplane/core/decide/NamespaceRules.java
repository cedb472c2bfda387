package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.Namespace;
import io.eventplane.model.NamespaceSpec;
import io.eventplane.model.NamespaceStatus;
import java.time.Instant;
import java.util.List;

/** Namespaces start Active and carry the {@code kubernetes} finalizer, as on Kubernetes. */
final class NamespaceRules implements KindRules<Namespace> {

    @Override
    public Namespace prepareForCreate(Namespace ns, Instant now) {
        NamespaceSpec spec = ns.getSpec() == null ? new NamespaceSpec() : NamespaceSpec.newBuilder(ns.getSpec()).build();
        if (spec.getFinalizers() == null) {
            spec.setFinalizers(List.of("kubernetes"));
        }
        return Namespace.newBuilder(ns).setSpec(spec)
                .setStatus(NamespaceStatus.newBuilder().setPhase("Active").build()).build();
    }

    @Override
    public List<StatusCause> validate(Namespace object) {
        return List.of();
    }
}
