package io.eventplane.core.quota;

import io.eventplane.core.codec.Quantity;
import io.eventplane.model.Container;
import io.eventplane.model.PodSpec;
import io.eventplane.model.ResourceRequirements;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A pod's effective requests and limits as quota and LimitRange see them (Kubernetes' resourcehelper.PodRequests and
 * PodLimits): app containers and sidecars add up, the largest init step (an init container plus the sidecars started
 * before it) is the floor, overhead comes on top (on limits only where a limit exists). Quantities keep their format
 * so sums print as Kubernetes prints them.
 */
public final class PodResources {
    private PodResources() {
    }

    public static Map<String, Quantity> requests(PodSpec spec) {
        Map<String, Quantity> out = effective(spec, r -> r.getRequests());
        return spec == null || spec.getOverhead() == null ? out : ResourceLists.add(out, ResourceLists.parse(spec.getOverhead()));
    }

    public static Map<String, Quantity> limits(PodSpec spec) {
        Map<String, Quantity> out = effective(spec, r -> r.getLimits());
        if (spec != null && spec.getOverhead() != null) {
            ResourceLists.parse(spec.getOverhead()).forEach((k, v) -> out.computeIfPresent(k, (n, q) -> q.add(v)));
        }
        return out;
    }

    private static Map<String, Quantity> effective(PodSpec spec, Function<ResourceRequirements, Map<String, String>> pick) {
        Map<String, Quantity> total = new TreeMap<>();
        if (spec == null) {
            return total;
        }
        for (Container c : list(spec.getContainers())) {
            total = ResourceLists.add(total, of(c, pick));
        }
        Map<String, Quantity> sidecars = new TreeMap<>();
        Map<String, Quantity> initPeak = new TreeMap<>();
        for (Container c : list(spec.getInitContainers())) {
            Map<String, Quantity> step;
            if ("Always".equals(c.getRestartPolicy())) {
                total = ResourceLists.add(total, of(c, pick));
                sidecars = ResourceLists.add(sidecars, of(c, pick));
                step = sidecars;
            } else {
                step = ResourceLists.add(of(c, pick), sidecars);
            }
            initPeak = ResourceLists.max(initPeak, step);
        }
        return new TreeMap<>(ResourceLists.max(total, initPeak));
    }

    private static Map<String, Quantity> of(Container c, Function<ResourceRequirements, Map<String, String>> pick) {
        return c.getResources() == null ? Map.of() : ResourceLists.parse(pick.apply(c.getResources()));
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
