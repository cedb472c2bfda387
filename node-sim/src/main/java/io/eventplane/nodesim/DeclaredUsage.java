package io.eventplane.nodesim;

import io.eventplane.core.codec.Quantity;
import io.eventplane.model.Container;
import io.eventplane.model.ObjectMeta;
import java.util.Map;

/**
 * What one container's program uses on its own, CPU in cores and memory in bytes, as functions of the time since the
 * container's current run started. Declared, in this order of precedence:
 *
 * <ol>
 *   <li>{@code sim.eventplane.io/cpu-usage.<container>} and {@code memory-usage.<container>}: this container's use;</li>
 *   <li>{@code sim.eventplane.io/cpu-usage} and {@code memory-usage}: the pod's use, spread evenly over its app
 *       containers (an init container, a sidecar or an ephemeral container uses only what is declared for it);</li>
 *   <li>the first rule of the stage file's {@code usage.pods} that matches the container ({@link UsageRules});</li>
 *   <li>none: no CPU, and memory equal to the container's memory request (0 without one), so that an undeclared pod
 *       is never a candidate for node-pressure eviction.</li>
 * </ol>
 *
 * A workload's load ({@code cpu-load}, {@code memory-load}, {@link WorkloadLoad}) comes on top, shared by its ready
 * pods. A value that cannot be read keeps the container in CreateContainerConfigError, as the other annotations do.
 */
record DeclaredUsage(UsageExpression cpu, UsageExpression memory) {
    static final String CPU = "cpu-usage";
    static final String MEMORY = "memory-usage";

    /**
     * The use declared for {@code spec}; throws {@link PodBehavior.InvalidAnnotation}.
     *
     * @param app           whether the container is an app container (the pod's use is spread over those)
     * @param appContainers how many app containers the pod has
     */
    static DeclaredUsage of(ObjectMeta pod, String restartPolicy, Container spec, ContainerRun.Role role,
                             int appContainers, UsageRules rules) {
        Map<String, String> a = pod.getAnnotations() == null ? Map.of() : pod.getAnnotations();
        boolean app = role == ContainerRun.Role.APP;
        UsageRules.Rule rule = rules == null ? null : rules.match(pod, restartPolicy, spec, role).orElse(null);
        UsageExpression cpu = declared(a, CPU, spec.getName(), app, appContainers);
        if (cpu == null) {
            cpu = rule != null && rule.cpu() != null ? rule.cpu() : new UsageExpression.Constant(0);
        }
        UsageExpression memory = declared(a, MEMORY, spec.getName(), app, appContainers);
        if (memory == null) {
            memory = rule != null && rule.memory() != null ? rule.memory()
                    : new UsageExpression.Constant(NodeAdmission.containerRequest(spec, "memory"));
        }
        return new DeclaredUsage(cpu, memory);
    }

    private static UsageExpression declared(Map<String, String> a, String key, String container, boolean app,
                                            int appContainers) {
        String own = a.get(PodBehavior.PREFIX + key + "." + container);
        if (own != null) {
            return parse(own, PodBehavior.PREFIX + key + "." + container);
        }
        String pod = a.get(PodBehavior.PREFIX + key);
        if (pod == null || !app) {
            return null;
        }
        UsageExpression whole = parse(pod, PodBehavior.PREFIX + key);
        return appContainers <= 1 ? whole : whole.scaled(1.0 / appContainers);
    }

    static UsageExpression parse(String text, String annotation) {
        try {
            return UsageExpression.parse(text);
        } catch (IllegalArgumentException e) {
            throw new PodBehavior.InvalidAnnotation("annotation " + annotation + ": " + e.getMessage());
        }
    }

    /** The container's memory limit in bytes, or null without one (it is then never OOM-killed for its use). */
    static Long memoryLimit(Container spec) {
        if (spec.getResources() == null || spec.getResources().getLimits() == null) {
            return null;
        }
        String v = spec.getResources().getLimits().get("memory");
        return v == null || !Quantity.isValid(v) ? null : Quantity.parse(v).value();
    }
}
