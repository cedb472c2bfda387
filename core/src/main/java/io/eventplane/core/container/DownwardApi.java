package io.eventplane.core.container;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.meta.GoStrings;
import io.eventplane.model.HostIP;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.PodIP;
import io.eventplane.model.ResourceFieldSelector;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The downward API's values as the kubelet computes them (spec POD-15): pod fields through {@code fieldRef} (some
 * only through env, some only through a volume) and container resources through {@code resourceFieldRef}, rounded
 * up to the divisor, with the node's allocatable standing in for a missing limit.
 */
public final class DownwardApi {
    private DownwardApi() {
    }

    /** Where a field is read: env variables and volume files accept different paths (POD-15.3 to 15.5). */
    public enum Via { ENV, VOLUME }

    /** The value of {@code fieldPath} of the pod, or empty when the path is not one the downward API offers there. */
    public static Optional<String> field(Pod pod, String fieldPath, Via via) {
        var meta = pod.getMetadata();
        var spec = pod.getSpec();
        var status = pod.getStatus();
        if (fieldPath == null) {
            return Optional.empty();
        }
        String subscript = subscript(fieldPath, "metadata.labels");
        if (subscript != null) {
            return Optional.of(orEmpty(map(meta.getLabels()).get(subscript)));
        }
        subscript = subscript(fieldPath, "metadata.annotations");
        if (subscript != null) {
            return Optional.of(orEmpty(map(meta.getAnnotations()).get(subscript)));
        }
        return switch (fieldPath) {
            case "metadata.name" -> Optional.of(orEmpty(meta.getName()));
            case "metadata.namespace" -> Optional.of(orEmpty(meta.getNamespace()));
            case "metadata.uid" -> Optional.of(orEmpty(meta.getUid()));
            case "metadata.labels" -> via == Via.VOLUME ? Optional.of(formatMap(map(meta.getLabels())))
                    : Optional.empty();
            case "metadata.annotations" -> via == Via.VOLUME ? Optional.of(formatMap(map(meta.getAnnotations())))
                    : Optional.empty();
            case "spec.nodeName" -> envOnly(via, spec == null ? null : spec.getNodeName());
            case "spec.serviceAccountName" -> envOnly(via, spec == null ? null : spec.getServiceAccountName());
            case "status.hostIP" -> envOnly(via, status == null ? null : status.getHostIP());
            case "status.podIP" -> envOnly(via, status == null ? null : status.getPodIP());
            case "status.hostIPs" -> envOnly(via, status == null || status.getHostIPs() == null ? null
                    : String.join(",", status.getHostIPs().stream().map(HostIP::getIp).toList()));
            case "status.podIPs" -> envOnly(via, status == null || status.getPodIPs() == null ? null
                    : String.join(",", status.getPodIPs().stream().map(PodIP::getIp).toList()));
            default -> Optional.empty();
        };
    }

    /**
     * The value of a container resource, {@code ceil(amount / divisor)} (cpu in millicores against the divisor's
     * millicores, as the kubelet rounds); a missing cpu, memory or ephemeral-storage limit reads the node's
     * allocatable (POD-15.7).
     */
    public static Optional<String> resource(ContainerShape container, ResourceFieldSelector selector, Node node) {
        String resource = selector.getResource();
        if (resource == null) {
            return Optional.empty();
        }
        boolean limit = resource.startsWith("limits.");
        boolean request = resource.startsWith("requests.");
        if (!limit && !request) {
            return Optional.empty();
        }
        String name = resource.substring(resource.indexOf('.') + 1);
        var resources = container.resources();
        Map<String, String> declared = resources == null ? null
                : limit ? resources.getLimits() : resources.getRequests();
        String amount = declared == null ? null : declared.get(name);
        if (amount == null && limit && List.of("cpu", "memory", "ephemeral-storage").contains(name)) {
            amount = allocatable(node).get(name);
        }
        Quantity value = amount == null ? Quantity.of(0) : Quantity.parse(amount);
        String divisorText = selector.getDivisor();
        Quantity divisor = divisorText == null || divisorText.isEmpty() ? Quantity.of(1) : Quantity.parse(divisorText);
        if (divisor.isZero()) {
            divisor = Quantity.of(1);
        }
        BigDecimal ratio = name.equals("cpu")
                ? BigDecimal.valueOf(value.milliValue()).divide(BigDecimal.valueOf(divisor.milliValue()), 9,
                        RoundingMode.HALF_UP)
                : BigDecimal.valueOf(value.value()).divide(BigDecimal.valueOf(divisor.value()), 9,
                        RoundingMode.HALF_UP);
        return Optional.of(ratio.setScale(0, RoundingMode.CEILING).toPlainString());
    }

    /** A map as a downward API file writes it: {@code key="value"} lines in key order, values quoted as Go does. */
    public static String formatMap(Map<String, String> values) {
        StringBuilder out = new StringBuilder();
        new TreeMap<>(values).forEach((k, v) -> out.append(k).append('=').append(GoStrings.quote(v)).append('\n'));
        return out.toString();
    }

    private static Map<String, String> allocatable(Node node) {
        if (node == null || node.getStatus() == null || node.getStatus().getAllocatable() == null) {
            return Map.of();
        }
        return node.getStatus().getAllocatable();
    }

    private static Optional<String> envOnly(Via via, String value) {
        return via == Via.ENV ? Optional.of(orEmpty(value)) : Optional.empty();
    }

    /** {@code key} of {@code metadata.labels['key']}, or null when the path is not that field with a subscript. */
    private static String subscript(String path, String field) {
        if (!path.startsWith(field + "['") || !path.endsWith("']")) {
            return null;
        }
        return path.substring(field.length() + 2, path.length() - 2);
    }

    private static Map<String, String> map(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }
}
