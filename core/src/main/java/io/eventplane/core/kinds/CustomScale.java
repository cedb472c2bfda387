package io.eventplane.core.kinds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceSubresourceScale;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The scale subresource of a custom kind: its definition names where the desired replicas, the observed replicas and
 * the label selector live (specReplicasPath, statusReplicasPath, labelSelectorPath: dotted paths). Read as the
 * apiextensions server reads them: what the gateway's {@code /scale} serves and the horizontal pod autoscaler scales.
 */
public final class CustomScale {
    private CustomScale() {
    }

    /** The scale subresource of the custom kind served as {@code kind}; empty for other kinds. */
    public static Optional<CustomResourceSubresourceScale> of(KindInfo kind) {
        if (kind.type() != CustomObject.class) {
            return Optional.empty();
        }
        return CustomKinds.byResource(kind.group(), kind.version(), kind.plural()).flatMap(CustomScale::of);
    }

    public static Optional<CustomResourceSubresourceScale> of(CustomKinds.CustomKind kind) {
        return Optional.ofNullable(kind.scalable() ? kind.version().getSubresources().getScale() : null);
    }

    /** The desired replicas: the integer at the spec replicas path, 0 when there is none (as upstream reads it). */
    public static int specReplicas(CustomResourceSubresourceScale scale, CustomObject object) {
        JsonNode desired = at(KubeJson.get().encode(object), scale.getSpecReplicasPath());
        return desired != null && desired.isIntegralNumber() ? desired.intValue() : 0;
    }

    /** The label selector string at the label selector path; empty when the path or the string is missing. */
    public static Optional<String> selector(CustomResourceSubresourceScale scale, CustomObject object) {
        JsonNode selector = at(KubeJson.get().encode(object), scale.getLabelSelectorPath());
        return selector != null && selector.isTextual() && !selector.textValue().isEmpty()
                ? Optional.of(selector.textValue()) : Optional.empty();
    }

    /** The desired replicas, observed replicas and selector of {@code object}, into a Scale's spec and status. */
    public static void fill(CustomResourceSubresourceScale scale, CustomObject object, ObjectNode spec,
                            ObjectNode status) {
        int desired = specReplicas(scale, object);
        if (desired != 0) {
            spec.put("replicas", desired);
        }
        JsonNode actual = at(KubeJson.get().encode(object), scale.getStatusReplicasPath());
        status.put("replicas", actual != null && actual.isIntegralNumber() ? actual.intValue() : 0);
        selector(scale, object).ifPresent(s -> status.put("selector", s));
    }

    /** {@code object} with {@code replicas} at the spec replicas path (the fields on the way created). */
    public static CustomObject scaled(CustomResourceSubresourceScale scale, CustomObject object, int replicas) {
        ObjectNode content = (ObjectNode) KubeJson.parseTree(object.getContent() == null ? "{}".getBytes()
                : object.getContent().getBytes(StandardCharsets.UTF_8));
        String[] steps = scale.getSpecReplicasPath().substring(1).split("\\.");
        ObjectNode node = content;
        for (int i = 0; i < steps.length - 1; i++) {
            JsonNode next = node.get(steps[i]);
            node = next instanceof ObjectNode o ? o : node.putObject(steps[i]);
        }
        node.put(steps[steps.length - 1], replicas);
        return CustomObject.newBuilder(object).setContent(content.toString()).build();
    }

    private static JsonNode at(JsonNode root, String path) {
        if (path == null || !path.startsWith(".")) {
            return null;
        }
        JsonNode node = root;
        for (String step : path.substring(1).split("\\.")) {
            node = node.path(step);
        }
        return node.isMissingNode() || node.isNull() ? null : node;
    }
}
