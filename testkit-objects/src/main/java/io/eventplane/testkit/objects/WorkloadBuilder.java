package io.eventplane.testkit.objects;

import io.eventplane.model.Container;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.PodTemplateSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What every pod-managing kind shares: namespace default, a selector (matchLabels app=&lt;name&gt; unless given) and a
 * pod template whose labels, unless given, are the selector's (app=&lt;name&gt; without one) and whose one container
 * is "c" with image nginx.
 *
 * @param <B> the concrete builder
 */
public abstract class WorkloadBuilder<B extends WorkloadBuilder<B>> extends MetaBuilder<B> {
    private LabelSelector selector;
    private final PodTemplateBuilder template = new PodTemplateBuilder();
    private PodTemplateSpec givenTemplate;

    WorkloadBuilder(String name) {
        super(name, "default");
        selector = KubeObjects.matchLabels("app", name);
    }

    /** The selector's matchLabels, given as key, value, key, value... */
    public B selector(String... keysAndValues) {
        return selector(KubeObjects.matchLabels(keysAndValues));
    }

    /** The selector's matchLabels. */
    public B selector(Map<String, String> matchLabels) {
        return selector(LabelSelector.newBuilder().setMatchLabels(new LinkedHashMap<>(matchLabels)).build());
    }

    /** The selector, matchExpressions and all. */
    public B selector(LabelSelector selector) {
        this.selector = selector;
        return self();
    }

    /** No selector, as a user leaves it for the API server to default or generate. */
    public B withoutSelector() {
        this.selector = null;
        return self();
    }

    /** Adds template labels given as key, value, key, value... */
    public B templateLabels(String... keysAndValues) {
        template.labels(keysAndValues);
        return self();
    }

    /** Adds these template labels. */
    public B templateLabels(Map<String, String> labels) {
        template.labels(labels);
        return self();
    }

    /** The template's first container's image. */
    public B image(String image) {
        template.image(image);
        return self();
    }

    /** The template's containers. */
    public B containers(ContainerBuilder... containers) {
        template.containers(containers);
        return self();
    }

    /** The template's containers. */
    public B containers(Container... containers) {
        template.containers(containers);
        return self();
    }

    /** Anything else about the template: {@code .template(t -> t.requests("100m", null).restartPolicy("Never"))}. */
    public B template(Consumer<PodTemplateBuilder> edit) {
        edit.accept(template);
        return self();
    }

    /** This template exactly, instead of the built one. */
    public B template(PodTemplateSpec template) {
        this.givenTemplate = template;
        return self();
    }

    final LabelSelector buildSelector() {
        return KubeObjects.copy(selector);
    }

    final PodTemplateSpec buildTemplate() {
        if (givenTemplate != null) {
            return givenTemplate;
        }
        Map<String, String> selected = selector != null && selector.getMatchLabels() != null
                ? selector.getMatchLabels() : Map.of("app", name());
        return template.build(selected);
    }
}
