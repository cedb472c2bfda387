package io.eventplane.gateway.metrics;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.client.ClusterView;
import io.eventplane.client.usage.ResourceUsage;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.select.LabelSelector;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Json;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.usage.ContainerUsage;
import io.eventplane.usage.NodeUsage;
import io.eventplane.usage.PodUsage;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * metrics.k8s.io/v1beta1, as metrics-server serves it, from the kubelets' usage samples ({@link ResourceUsage}) and
 * the view (which nodes and pods exist, and their labels): NodeMetrics and PodMetrics, get and list, with label
 * selectors, so that {@code kubectl top nodes|pods} work unchanged. An object without a fresh sample has no metrics:
 * a list leaves it out, a get answers NotFound, as metrics-server does.
 */
public final class MetricsApi {
    public static final String GROUP = "metrics.k8s.io";
    public static final String VERSION = "v1beta1";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ISO_INSTANT;

    private final ClusterView view;
    private final ResourceUsage usage;
    private final Supplier<Instant> clock;

    public MetricsApi(ClusterView view, ResourceUsage usage, Supplier<Instant> clock) {
        this.view = view;
        this.usage = usage;
        this.clock = clock;
    }

    /**
     * A GET under {@code /apis/metrics.k8s.io/v1beta1/}: {@code rest} are the segments after the version.
     *
     * @param labelSelector the request's {@code labelSelector}, or null
     */
    public ObjectNode get(List<String> rest, String labelSelector) {
        LabelSelector labels = LabelSelector.parse(labelSelector);
        if (rest.size() == 1 && rest.get(0).equals("nodes")) {
            return nodeList(labels);
        }
        if (rest.size() == 2 && rest.get(0).equals("nodes")) {
            return nodeMetrics(rest.get(1)).orElseThrow(() -> notFound("nodemetrics", "nodes", rest.get(1)));
        }
        if (rest.size() == 1 && rest.get(0).equals("pods")) {
            return podList(null, labels);
        }
        if (rest.size() == 3 && rest.get(0).equals("namespaces") && rest.get(2).equals("pods")) {
            return podList(rest.get(1), labels);
        }
        if (rest.size() == 4 && rest.get(0).equals("namespaces") && rest.get(2).equals("pods")) {
            return podMetrics(rest.get(1), rest.get(3)).orElseThrow(() -> notFound("podmetrics", "pods", rest.get(3)));
        }
        throw new ApiException(Statuses.noSuchResource());
    }

    private ObjectNode nodeList(LabelSelector labels) {
        ObjectNode out = list("NodeMetricsList");
        ArrayNode items = out.putArray("items");
        for (ObjectChanged c : view.list(Kinds.NODE.kind(), null)) {
            Node node = (Node) c.getObject();
            if (labels.matches(node.getMetadata().getLabels())) {
                nodeMetrics(node).ifPresent(items::add);
            }
        }
        return out;
    }

    private Optional<ObjectNode> nodeMetrics(String name) {
        return view.get(Kinds.NODE.kind(), "", name).flatMap(c -> nodeMetrics((Node) c.getObject()))
                .map(n -> withTypeMeta(n, "NodeMetrics"));
    }

    private Optional<ObjectNode> nodeMetrics(Node node) {
        return usage.node(node.getMetadata().getName()).map(sample -> {
            ObjectNode n = Json.object();
            meta(n, node.getMetadata(), false);
            n.put("timestamp", TIME.format(sample.getTime()));
            n.put("window", window(sample.getWindowMillis()));
            usage(n.putObject("usage"), sample.getCpuNanocores(), sample.getMemoryBytes());
            return n;
        });
    }

    private ObjectNode podList(String namespace, LabelSelector labels) {
        ObjectNode out = list("PodMetricsList");
        ArrayNode items = out.putArray("items");
        for (ObjectChanged c : view.list(Kinds.POD.kind(), namespace)) {
            Pod pod = (Pod) c.getObject();
            if (labels.matches(pod.getMetadata().getLabels())) {
                podMetrics(pod).ifPresent(items::add);
            }
        }
        return out;
    }

    private Optional<ObjectNode> podMetrics(String namespace, String name) {
        return view.get(Kinds.POD.kind(), namespace, name).flatMap(c -> podMetrics((Pod) c.getObject()))
                .map(n -> withTypeMeta(n, "PodMetrics"));
    }

    private Optional<ObjectNode> podMetrics(Pod pod) {
        ObjectMeta m = pod.getMetadata();
        return usage.pod(m.getNamespace(), m.getName())
                .filter(s -> s.pod().getUid() == null || s.pod().getUid().equals(m.getUid()))
                .map(s -> {
                    ObjectNode n = Json.object();
                    meta(n, m, true);
                    n.put("timestamp", TIME.format(s.time()));
                    n.put("window", window(s.window().toMillis()));
                    ArrayNode containers = n.putArray("containers");
                    PodUsage p = s.pod();
                    for (ContainerUsage c : p.getContainers()) {
                        ObjectNode cn = containers.addObject();
                        cn.put("name", c.getName());
                        usage(cn.putObject("usage"), c.getCpuNanocores(), c.getMemoryBytes());
                    }
                    return n;
                });
    }

    /** metrics-server's metadata: the object's name, namespace and labels, created now (the metrics are virtual). */
    private void meta(ObjectNode n, ObjectMeta object, boolean namespaced) {
        ObjectNode meta = n.putObject("metadata");
        meta.put("name", object.getName());
        if (namespaced) {
            meta.put("namespace", object.getNamespace());
        }
        meta.put("creationTimestamp", TIME.format(clock.get().truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
        Map<String, String> labels = object.getLabels();
        if (labels != null && !labels.isEmpty()) {
            ObjectNode l = meta.putObject("labels");
            labels.forEach(l::put);
        }
    }

    /** CPU in nanocores ({@code 123456789n}) and memory in KiB ({@code 3876Ki}), as metrics-server writes them. */
    static void usage(ObjectNode n, long cpuNanocores, long memoryBytes) {
        n.put("cpu", cpuNanocores + "n");
        n.put("memory", (memoryBytes / 1024) + "Ki");
    }

    /** A Go duration: {@code 15s}, {@code 10.5s}, {@code 1m0s}. */
    static String window(long millis) {
        Duration d = Duration.ofMillis(millis);
        long minutes = d.toMinutes();
        long ms = millis - minutes * 60_000;
        String seconds = ms % 1000 == 0 ? Long.toString(ms / 1000)
                : java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString();
        return (minutes > 0 ? minutes + "m" : "") + seconds + "s";
    }

    private static ObjectNode list(String kind) {
        ObjectNode n = Json.object();
        n.put("kind", kind);
        n.put("apiVersion", GROUP + "/" + VERSION);
        n.putObject("metadata");
        return n;
    }

    private static ObjectNode withTypeMeta(ObjectNode item, String kind) {
        ObjectNode n = Json.object();
        n.put("kind", kind);
        n.put("apiVersion", GROUP + "/" + VERSION);
        n.setAll(item);
        return n;
    }

    private static ApiException notFound(String resource, String plural, String name) {
        return new ApiException(new KubeStatus(404, "NotFound", resource + "." + GROUP + " \"" + name + "\" not found",
                new KubeStatus.Details(name, GROUP, plural, List.of())));
    }
}
