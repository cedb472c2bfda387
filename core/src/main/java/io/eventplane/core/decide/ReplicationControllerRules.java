package io.eventplane.core.decide;

import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerSpec;
import io.eventplane.model.ReplicationControllerStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * v1 ReplicationController defaulting and validation (workloads.md §9). Selector and labels default to the template's
 * labels (RC-03, RC-04); the template's labels must contain the selector, Kubernetes' subset rule (D15).
 */
final class ReplicationControllerRules implements KindRules<ReplicationController> {

    /** GC-15: a delete without propagationPolicy orphans the pods (Kubernetes' backward-compatible default). */
    @Override
    public String defaultPropagationPolicy() {
        return "Orphan";
    }

    @Override
    public ReplicationController defaults(ReplicationController rc) {
        if (rc.getSpec() == null) {
            return rc;
        }
        ReplicationControllerSpec.Builder spec = ReplicationControllerSpec.newBuilder(rc.getSpec());
        ReplicationController.Builder out = ReplicationController.newBuilder(rc);
        Map<String, String> labels = Workloads.labels(spec.getTemplate());
        if (labels != null) {
            if (spec.getSelector() == null || spec.getSelector().isEmpty()) {
                spec.setSelector(labels); // RC-04
            }
            ObjectMeta meta = Workloads.meta(rc.getMetadata());
            if (meta.getLabels() == null || meta.getLabels().isEmpty()) {
                out.setMetadata(ObjectMeta.newBuilder(meta).setLabels(labels).build()); // RC-03
            }
        }
        if (spec.getReplicas() == null) {
            spec.setReplicas(1); // RC-06
        }
        spec.setTemplate(Workloads.defaults(spec.getTemplate()));
        return out.setSpec(spec.build()).build();
    }

    /** status.replicas is not omitempty in Kubernetes. */
    @Override
    public ReplicationController prepareForCreate(ReplicationController rc, Instant now) {
        return ReplicationController.newBuilder(rc)
                .setStatus(ReplicationControllerStatus.newBuilder().setReplicas(0).build()).build();
    }

    @Override
    public List<StatusCause> validate(ReplicationController rc) {
        List<StatusCause> causes = new ArrayList<>();
        ReplicationControllerSpec spec = rc.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        Workloads.nonNegative("spec.minReadySeconds", spec.getMinReadySeconds(), causes);
        if (spec.getSelector() == null || spec.getSelector().isEmpty()) {
            causes.add(Causes.required("spec.selector"));
        }
        Workloads.nonNegative("spec.replicas", spec.getReplicas(), causes);
        if (spec.getTemplate() == null) {
            causes.add(Causes.required("spec.template")); // RC-02
            return causes;
        }
        Map<String, String> labels = Workloads.labels(spec.getTemplate());
        if (spec.getSelector() != null && !spec.getSelector().isEmpty()
                && !LabelSelectors.matches(spec.getSelector(), labels)) {
            causes.add(Causes.invalidShown("spec.template.metadata.labels", Workloads.goMap(labels),
                    "`selector` does not match template `labels`")); // RC-04
        }
        Workloads.template("spec.template", spec.getTemplate(), Workloads.ALWAYS, "ReplicationController", causes);
        return causes;
    }
}
