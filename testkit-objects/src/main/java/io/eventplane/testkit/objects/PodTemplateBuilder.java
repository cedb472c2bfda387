package io.eventplane.testkit.objects;

import io.eventplane.model.PodTemplateSpec;

/** A pod template: metadata (usually just labels) and a pod spec with one container "c" (image nginx). */
public final class PodTemplateBuilder extends PodSpecBuilder<PodTemplateBuilder> {

    PodTemplateBuilder() {
        super(null, null);
    }

    /** Whether labels were given (a workload otherwise labels its template like its selector). */
    boolean hasLabels() {
        return buildMeta().getLabels() != null;
    }

    public PodTemplateSpec build() {
        return PodTemplateSpec.newBuilder().setMetadata(buildMeta()).setSpec(buildSpec()).build();
    }
}
