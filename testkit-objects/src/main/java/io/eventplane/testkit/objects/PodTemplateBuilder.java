package io.eventplane.testkit.objects;

import io.eventplane.model.PodTemplateSpec;
import java.util.Map;

/** A pod template: metadata (usually just labels) and a pod spec with one container "c" (image nginx). */
public final class PodTemplateBuilder extends PodSpecBuilder<PodTemplateBuilder> {

    PodTemplateBuilder() {
        super(null, null);
    }

    public PodTemplateSpec build() {
        return build(null);
    }

    /** The template, labelled {@code labelsIfNone} when no labels were given (a workload's selector labels). */
    PodTemplateSpec build(Map<String, String> labelsIfNone) {
        return PodTemplateSpec.newBuilder().setMetadata(buildMeta(labelsIfNone)).setSpec(buildSpec()).build();
    }
}
