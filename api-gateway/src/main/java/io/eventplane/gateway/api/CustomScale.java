package io.eventplane.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceSubresourceScale;
import java.util.Optional;

/**
 * The scale subresource of a custom kind: its definition names where the desired replicas, the observed replicas and
 * the label selector live (specReplicasPath, statusReplicasPath, labelSelectorPath: dotted paths).
 */
final class CustomScale {
    private CustomScale() {
    }

    static Optional<CustomResourceSubresourceScale> of(KindInfo kind) {
        if (kind.type() != CustomObject.class) {
            return Optional.empty();
        }
        return CustomKinds.byResource(kind.group(), kind.version(), kind.plural())
                .map(k -> k.version().getSubresources() == null ? null : k.version().getSubresources().getScale());
    }

    /** The desired replicas, observed replicas and selector of {@code object}, into a Scale's spec and status. */
    static void fill(CustomResourceSubresourceScale scale, CustomObject object, ObjectNode spec, ObjectNode status) {
        ObjectNode json = KubeJson.get().encode(object);
        JsonNode desired = at(json, scale.getSpecReplicasPath());
        if (desired != null && desired.isIntegralNumber() && desired.intValue() != 0) {
            spec.put("replicas", desired.intValue());
        }
        JsonNode actual = at(json, scale.getStatusReplicasPath());
        status.put("replicas", actual != null && actual.isIntegralNumber() ? actual.intValue() : 0);
        JsonNode selector = at(json, scale.getLabelSelectorPath());
        if (selector != null && selector.isTextual() && !selector.textValue().isEmpty()) {
            status.put("selector", selector.textValue());
        }
    }

    /** {@code object} with {@code replicas} at the spec replicas path (the fields on the way created). */
    static CustomObject scaled(CustomResourceSubresourceScale scale, CustomObject object, int replicas) {
        ObjectNode content = (ObjectNode) KubeJson.parseTree(object.getContent() == null ? "{}".getBytes()
                : object.getContent().getBytes(java.nio.charset.StandardCharsets.UTF_8));
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
