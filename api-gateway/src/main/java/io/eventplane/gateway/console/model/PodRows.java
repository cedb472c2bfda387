package io.eventplane.gateway.console.model;

import io.eventplane.core.Keys;
import io.eventplane.core.codec.Quantity;
import io.eventplane.core.meta.Owners;
import io.eventplane.gateway.table.PodColumns;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Pods and nodes as rows: the fields the console filters, counts and sums, taken from the decoded object once. */
final class PodRows {
    private PodRows() {
    }

    static PodRow pod(Pod pod, long resourceVersion) {
        ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
        PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        int ready = 0;
        int restarts = 0;
        for (ContainerStatus cs : list(status.getContainerStatuses())) {
            ready += Boolean.TRUE.equals(cs.getReady()) ? 1 : 0;
            restarts += cs.getRestartCount() == null ? 0 : cs.getRestartCount();
        }
        String owner = Owners.controllerOf(meta).map(PodRows::ownerName).orElse(null);
        long[] requests = requests(spec);
        return new PodRow(Keys.of("Pod", meta.getNamespace(), meta.getName()), meta.getNamespace(), meta.getName(),
                meta.getUid(), resourceVersion, status.getPhase() == null ? "Pending" : status.getPhase(),
                PodColumns.status(pod), ready, list(spec.getContainers()).size(), restarts, spec.getNodeName(),
                status.getPodIP(), owner, meta.getLabels() == null ? Map.of() : meta.getLabels(), requests[0],
                requests[1], millis(meta.getCreationTimestamp()));
    }

    static String ownerName(OwnerReference ref) {
        return ref.getKind() + "/" + ref.getName();
    }

    /**
     * CPU (millicores) and memory (bytes) the pod asks of its node, as the scheduler counts it: the sum over its
     * containers, at least the largest init container's request, plus the pod overhead.
     */
    static long[] requests(PodSpec spec) {
        long cpu = 0;
        long memory = 0;
        for (Container c : list(spec.getContainers())) {
            cpu += amount(c, "cpu", true);
            memory += amount(c, "memory", false);
        }
        for (Container c : list(spec.getInitContainers())) {
            cpu = Math.max(cpu, amount(c, "cpu", true));
            memory = Math.max(memory, amount(c, "memory", false));
        }
        if (spec.getOverhead() != null) {
            cpu += quantity(spec.getOverhead().get("cpu"), true);
            memory += quantity(spec.getOverhead().get("memory"), false);
        }
        return new long[] {cpu, memory};
    }

    private static long amount(Container c, String resource, boolean milli) {
        if (c.getResources() == null || c.getResources().getRequests() == null) {
            return 0;
        }
        return quantity(c.getResources().getRequests().get(resource), milli);
    }

    static long quantity(String text, boolean milli) {
        if (text == null || text.isEmpty()) {
            return 0;
        }
        Map<String, Long> memo = milli ? MILLI : WHOLE;
        Long known = memo.get(text);
        if (known != null) {
            return known;
        }
        long value;
        try {
            Quantity q = Quantity.parse(text);
            value = milli ? q.milliValue() : q.value();
        } catch (IllegalArgumentException e) {
            value = 0; // the writer validated it; an unreadable old record counts as nothing
        }
        if (memo.size() < 10_000) {
            memo.put(text, value);
        }
        return value;
    }

    // Requests repeat ("100m", "256Mi"): parsing each once keeps building 150,000 rows quick.
    private static final Map<String, Long> MILLI = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<String, Long> WHOLE = new java.util.concurrent.ConcurrentHashMap<>();

    static long millis(Instant t) {
        return t == null ? 0 : t.toEpochMilli();
    }

    static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
