package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.model.ReplicaSetStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** apps/v1 ReplicaSet defaulting and validation (workloads.md §2: RS-03 to RS-05). */
final class ReplicaSetRules implements KindRules<ReplicaSet> {

    @Override
    public ReplicaSet defaults(ReplicaSet rs) {
        if (rs.getSpec() == null) {
            return rs;
        }
        ReplicaSetSpec.Builder spec = ReplicaSetSpec.newBuilder(rs.getSpec());
        if (spec.getReplicas() == null) {
            spec.setReplicas(1); // RS-05
        }
        spec.setTemplate(Workloads.defaults(spec.getTemplate()));
        return ReplicaSet.newBuilder(rs).setSpec(spec.build()).build();
    }

    /** status.replicas is not omitempty in Kubernetes: a new ReplicaSet shows {@code status: {replicas: 0}}. */
    @Override
    public ReplicaSet prepareForCreate(ReplicaSet rs, Instant now) {
        return ReplicaSet.newBuilder(rs).setStatus(ReplicaSetStatus.newBuilder().setReplicas(0).build()).build();
    }

    @Override
    public List<StatusCause> validate(ReplicaSet rs) {
        List<StatusCause> causes = new ArrayList<>();
        ReplicaSetSpec spec = rs.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        Workloads.nonNegative("spec.replicas", spec.getReplicas(), causes);
        Workloads.nonNegative("spec.minReadySeconds", spec.getMinReadySeconds(), causes);
        // Kubernetes says "for deployment" here too.
        Workloads.selector("spec.selector", spec.getSelector(), spec.getTemplate(), "deployment", causes);
        Workloads.template("spec.template", spec.getTemplate(), Workloads.ALWAYS, "ReplicaSet", causes);
        return causes;
    }

    /** In apps/v1 the selector is immutable. */
    @Override
    public List<StatusCause> validateUpdate(ReplicaSet old, ReplicaSet updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (old.getSpec() != null && updated.getSpec() != null) {
            Workloads.immutable("spec.selector", old.getSpec().getSelector(), updated.getSpec().getSelector(),
                    Workloads.show(updated.getSpec().getSelector()), causes);
        }
        return causes;
    }
}
