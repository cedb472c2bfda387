package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.networking.Ingress;
import io.eventplane.model.networking.IngressClass;
import io.eventplane.model.networking.IngressSpec;
import java.time.Instant;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' DefaultIngressClass plugin: a new Ingress that names no class (neither spec.ingressClassName nor the
 * {@code kubernetes.io/ingress.class} annotation) gets the IngressClass annotated
 * {@code ingressclass.kubernetes.io/is-default-class: "true"}; of several, the newest (then the first by name), as
 * since Kubernetes 1.25; none when there is none. Updates and other kinds pass unchanged.
 */
final class DefaultIngressClass implements AdmissionChain.Mutating {
    static final String DEFAULT_ANNOTATION = "ingressclass.kubernetes.io/is-default-class";
    private static final String CLASS_ANNOTATION = "kubernetes.io/ingress.class";
    private final ClusterView view;

    DefaultIngressClass(ClusterView view) {
        this.view = view;
    }

    @Override
    public SpecificRecord admit(AdmissionRequest request, SpecificRecord object) {
        if (request.kind() != Kinds.INGRESS || request.operation() != AdmissionRequest.Operation.CREATE) {
            return object;
        }
        Ingress ingress = (Ingress) object;
        IngressSpec spec = ingress.getSpec() == null ? new IngressSpec() : ingress.getSpec();
        if (spec.getIngressClassName() != null || annotations(ingress.getMetadata()).containsKey(CLASS_ANNOTATION)) {
            return ingress;
        }
        IngressClass chosen = null;
        for (IngressClass candidate : view.<IngressClass>objects(Kinds.INGRESS_CLASS.kind(), null)) {
            if ("true".equals(annotations(candidate.getMetadata()).get(DEFAULT_ANNOTATION))
                    && (chosen == null || preferred(candidate, chosen))) {
                chosen = candidate;
            }
        }
        if (chosen == null) {
            return ingress;
        }
        return Ingress.newBuilder(ingress).setSpec(IngressSpec.newBuilder(spec)
                .setIngressClassName(chosen.getMetadata().getName()).build()).build();
    }

    /** The newer class; of two created in the same second, the one first by name. */
    private static boolean preferred(IngressClass a, IngressClass b) {
        Instant ta = a.getMetadata().getCreationTimestamp();
        Instant tb = b.getMetadata().getCreationTimestamp();
        if (ta != null && tb != null && !ta.equals(tb)) {
            return ta.isAfter(tb);
        }
        return a.getMetadata().getName().compareTo(b.getMetadata().getName()) < 0;
    }

    private static Map<String, String> annotations(ObjectMeta meta) {
        return meta == null || meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    }
}
