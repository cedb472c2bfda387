package io.eventplane.scheduler;

import io.eventplane.model.Container;
import io.eventplane.model.PodSpec;
import java.util.List;
import java.util.function.Function;

/**
 * What a pod asks of a node: its effective requests (spec/pods.md section 10) for the fit check, and the same with
 * Kubernetes' non-zero defaults (100m cpu, 200Mi memory per container without a request) for scoring, so pods that
 * request nothing still spread.
 */
public record PodDemand(ResourceList requests, ResourceList scoring) {
    static final long DEFAULT_MILLI_CPU = 100;
    static final long DEFAULT_MEMORY_MILLI = 200L * 1024 * 1024 * 1000;

    public static PodDemand of(PodSpec spec) {
        if (spec == null) {
            return new PodDemand(ResourceList.EMPTY, nonZero(ResourceList.EMPTY));
        }
        return new PodDemand(effective(spec, PodDemand::requests), effective(spec, c -> nonZero(requests(c))));
    }

    /**
     * POD-10.2/10.6: max(sum of app containers and sidecars, the largest init step) plus overhead, where an init step
     * is the init container's request plus the sidecars started before it (a sidecar's step includes itself).
     */
    static ResourceList effective(PodSpec spec, Function<Container, ResourceList> request) {
        ResourceList sidecars = ResourceList.EMPTY;
        ResourceList initPeak = ResourceList.EMPTY;
        for (Container c : list(spec.getInitContainers())) {
            if ("Always".equals(c.getRestartPolicy())) {
                sidecars = sidecars.plus(request.apply(c));
                initPeak = initPeak.max(sidecars);
            } else {
                initPeak = initPeak.max(sidecars.plus(request.apply(c)));
            }
        }
        ResourceList running = sidecars;
        for (Container c : list(spec.getContainers())) {
            running = running.plus(request.apply(c));
        }
        return running.max(initPeak).plus(ResourceList.parse(spec.getOverhead()));
    }

    private static ResourceList requests(Container c) {
        return c.getResources() == null ? ResourceList.EMPTY : ResourceList.parse(c.getResources().getRequests());
    }

    private static ResourceList nonZero(ResourceList r) {
        ResourceList out = r;
        if (r.get("cpu") == 0) {
            out = out.with("cpu", DEFAULT_MILLI_CPU);
        }
        if (r.get("memory") == 0) {
            out = out.with("memory", DEFAULT_MEMORY_MILLI);
        }
        return out;
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
