package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PriorityClass;
import java.util.Objects;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' Priority plugin. A new pod's priority comes from its priorityClassName (an unknown class is refused), or
 * from the global default class (0 without one); a pod that states a priority or preemption policy other than its
 * class's is refused, and the class's preemptionPolicy is copied. At most one PriorityClass is the global default.
 */
final class PriorityAdmission implements AdmissionChain.Mutating, AdmissionChain.Validating {
    private final ClusterView view;

    PriorityAdmission(ClusterView view) {
        this.view = view;
    }

    @Override
    public SpecificRecord admit(AdmissionRequest request, SpecificRecord object) {
        if (request.kind() != Kinds.POD || request.operation() != AdmissionRequest.Operation.CREATE) {
            return object; // on update the writer keeps the priority set at creation
        }
        Pod pod = (Pod) object;
        if (pod.getSpec() == null) {
            return object;
        }
        PodSpec spec = PodSpec.newBuilder(pod.getSpec()).build();
        String className = spec.getPriorityClassName();
        int priority;
        String policy;
        if (className == null || className.isEmpty()) {
            PriorityClass def = globalDefault();
            if (def != null) {
                spec.setPriorityClassName(def.getMetadata().getName());
            }
            priority = def == null ? 0 : value(def);
            policy = def == null ? "PreemptLowerPriority" : def.getPreemptionPolicy();
        } else {
            PriorityClass pc = view.get(Kinds.PRIORITY_CLASS.kind(), "", className)
                    .map(c -> (PriorityClass) c.getObject()).orElse(null);
            if (pc == null) {
                throw AdmissionRefusal.forbidden(Kinds.POD, request.name(), "no PriorityClass with name "
                        + className + " was found").thrown();
            }
            priority = value(pc);
            policy = pc.getPreemptionPolicy();
        }
        if (spec.getPriority() != null && spec.getPriority() != priority) {
            throw AdmissionRefusal.forbidden(Kinds.POD, request.name(), "the integer value of priority ("
                    + spec.getPriority() + ") must not be provided in pod spec; priority admission controller computed "
                    + priority + " from the given PriorityClass name").thrown();
        }
        spec.setPriority(priority);
        if (policy != null) {
            if (spec.getPreemptionPolicy() != null && !spec.getPreemptionPolicy().equals(policy)) {
                throw AdmissionRefusal.forbidden(Kinds.POD, request.name(), "the string value of "
                        + "PreemptionPolicy (" + spec.getPreemptionPolicy() + ") must not be provided in pod spec; "
                        + "priority admission controller computed " + policy + " from the given PriorityClass name").thrown();
            }
            spec.setPreemptionPolicy(policy);
        }
        return Pod.newBuilder(pod).setSpec(spec).build();
    }

    /** A second global default is refused, on creation and when an update makes a class the default. */
    @Override
    public void validate(AdmissionRequest request, SpecificRecord object) {
        if (request.kind() != Kinds.PRIORITY_CLASS || request.operation() == AdmissionRequest.Operation.DELETE) {
            return;
        }
        PriorityClass pc = (PriorityClass) object;
        if (!Boolean.TRUE.equals(pc.getGlobalDefault())) {
            return;
        }
        PriorityClass existing = globalDefault();
        if (existing != null && (request.operation() == AdmissionRequest.Operation.CREATE
                || !Objects.equals(existing.getMetadata().getName(), request.name()))) {
            throw AdmissionRefusal.forbidden(Kinds.PRIORITY_CLASS, request.name(), "PriorityClass "
                    + existing.getMetadata().getName() + " is marked as default. Only one default can exist").thrown();
        }
    }

    /** The global default class; the lowest value if a race made several. */
    private PriorityClass globalDefault() {
        PriorityClass found = null;
        for (PriorityClass pc : view.<PriorityClass>objects(Kinds.PRIORITY_CLASS.kind(), null)) {
            if (Boolean.TRUE.equals(pc.getGlobalDefault()) && (found == null || value(pc) < value(found))) {
                found = pc;
            }
        }
        return found;
    }

    private static int value(PriorityClass pc) {
        return pc.getValue() == null ? 0 : pc.getValue();
    }
}
