package io.eventplane.nodesim;

import io.eventplane.core.codec.Quantity;
import io.eventplane.model.Container;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The kubelet's admission of a pod bound to its node: a pod whose requests do not fit beside the pods already admitted
 * is rejected, phase Failed with the kubelet's reason ({@code OutOfcpu}, {@code OutOfmemory}, {@code OutOfpods}). A
 * scheduler normally prevents this; a pod bound by hand (spec.nodeName) or a race shows it. Pure.
 */
public final class NodeAdmission {
    private NodeAdmission() {
    }

    public static Optional<Pod> reject(Pod pod, List<Pod> admitted, NodeShape shape, Instant now) {
        if (admitted.size() + 1 > Long.parseLong(shape.pods())) {
            return Optional.of(rejected(pod, "pods", 1, admitted.size(), Long.parseLong(shape.pods()), now));
        }
        for (String resource : List.of("cpu", "memory")) {
            long capacity = amount(resource, resource.equals("cpu") ? shape.cpu() : shape.memory());
            long used = 0;
            for (Pod p : admitted) {
                used += request(p.getSpec(), resource);
            }
            long wanted = request(pod.getSpec(), resource);
            if (wanted > 0 && used + wanted > capacity) {
                return Optional.of(rejected(pod, resource, wanted, used, capacity, now));
            }
        }
        return Optional.empty();
    }

    private static Pod rejected(Pod pod, String resource, long requested, long used, long capacity, Instant now) {
        PodStatus old = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        PodStatus status = PodStatus.newBuilder(old).setPhase("Failed").setReason("OutOf" + resource)
                .setMessage("Pod was rejected: Node didn't have enough resource: " + resource + ", requested: "
                        + requested + ", used: " + used + ", capacity: " + capacity)
                .setStartTime(old.getStartTime() == null ? now : old.getStartTime())
                .build();
        return Pod.newBuilder(pod).setStatus(status).build();
    }

    /** POD-10.2/10.6: max(sum of app and sidecar requests, the largest init request with the sidecars before it). */
    static long request(PodSpec spec, String resource) {
        long apps = 0;
        for (Container c : list(spec.getContainers())) {
            apps += request(c, resource);
        }
        long sidecars = 0;
        long init = 0;
        for (Container c : list(spec.getInitContainers())) {
            if ("Always".equals(c.getRestartPolicy())) {
                sidecars += request(c, resource);
            } else {
                init = Math.max(init, sidecars + request(c, resource));
            }
        }
        return Math.max(apps + sidecars, init);
    }

    /** One container's request of {@code resource} (its limit when it has none): millicores or bytes. */
    static long containerRequest(Container c, String resource) {
        return request(c, resource);
    }

    private static long request(Container c, String resource) {
        if (c.getResources() == null) {
            return 0;
        }
        Map<String, String> req = c.getResources().getRequests();
        String v = req == null ? null : req.get(resource);
        if (v == null && c.getResources().getLimits() != null) {
            v = c.getResources().getLimits().get(resource); // requests default to limits
        }
        if (v == null) {
            return 0;
        }
        // Admission adds up every pod on the node for each pod admitted: parse each distinct quantity once.
        Map<String, Long> memo = resource.equals("cpu") ? CPU_MILLIS : AMOUNTS;
        Long known = memo.get(v);
        if (known == null) {
            known = Quantity.isValid(v) ? amount(resource, v) : 0L;
            if (memo.size() < MEMO_LIMIT) {
                memo.put(v, known);
            }
        }
        return known;
    }

    private static final int MEMO_LIMIT = 10_000;
    private static final Map<String, Long> CPU_MILLIS = new ConcurrentHashMap<>();
    private static final Map<String, Long> AMOUNTS = new ConcurrentHashMap<>();

    private static long amount(String resource, String quantity) {
        Quantity q = Quantity.parse(quantity);
        return resource.equals("cpu") ? q.milliValue() : q.value();
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
