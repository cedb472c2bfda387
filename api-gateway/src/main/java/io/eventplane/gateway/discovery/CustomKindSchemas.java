package io.eventplane.gateway.discovery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.CustomKinds.CustomKind;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.wire.Json;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.JSONSchemaProps;

/**
 * The OpenAPI v3 schema of a custom kind: its definition's openAPIV3Schema as written, with apiVersion, kind and
 * metadata (ObjectMeta) filled in as kube-apiserver publishes them, so {@code kubectl explain} walks it.
 */
final class CustomKindSchemas {
    private CustomKindSchemas() {
    }

    /** The root component's name: the group reversed, then the kind (kube-apiserver's convention). */
    static String rootName(KindInfo k) {
        String[] parts = k.group().split("\\.");
        StringBuilder b = new StringBuilder();
        for (int i = parts.length - 1; i >= 0; i--) {
            b.append(parts[i]).append('.');
        }
        return b.append(k.version()).append('.').append(k.objectKind()).toString();
    }

    static String addKind(ObjectNode schemas, CustomKind kind) {
        String name = rootName(kind.info());
        JSONSchemaProps schema = kind.version().getSchema$() == null ? null
                : kind.version().getSchema$().getOpenAPIV3Schema();
        ObjectNode root = schema == null ? Json.object() : KubeJson.get().encode(schema);
        root.put("type", "object");
        ObjectNode props = root.has("properties") ? (ObjectNode) root.get("properties") : root.putObject("properties");
        props.putObject("apiVersion").put("type", "string").put("description", "APIVersion defines the versioned "
                + "schema of this representation of an object.");
        props.putObject("kind").put("type", "string").put("description", "Kind is a string value representing the "
                + "REST resource this object represents.");
        String meta = OpenApiSchemas.addRecord(schemas, ObjectMeta.getClassSchema());
        ObjectNode metadata = Json.object();
        metadata.putArray("allOf").addObject().put("$ref", OpenApiSchemas.REF + meta);
        metadata.put("description", "Standard object's metadata.");
        props.set("metadata", metadata);
        JsonNode described = root.get("description");
        if (described == null) {
            root.put("description", kind.info().objectKind() + " is a custom kind of " + kind.info().group() + ".");
        }
        root.putArray("x-kubernetes-group-version-kind").addObject().put("group", kind.info().group())
                .put("kind", kind.info().objectKind()).put("version", kind.info().version());
        schemas.set(name, root);
        return name;
    }
}
