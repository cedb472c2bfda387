package io.eventplane.core.decide;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.CustomKinds.CustomKind;
import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Objects of the kinds CustomResourceDefinitions define (apiextensions-apiserver's customResourceStrategy): stored at
 * the storage version, pruned and defaulted by the version's structural schema, validated by it. With the status
 * subresource, a create starts without status and updates keep it (the generic rules do the latter).
 */
final class CustomObjectRules implements KindRules<CustomObject> {
    static final CustomObjectRules INSTANCE = new CustomObjectRules();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Optional<CustomKind> kindOf(CustomObject object) {
        return CustomKinds.of(object);
    }

    private static JSONSchemaProps schema(CustomKind kind) {
        return kind.version().getSchema$() == null ? null : kind.version().getSchema$().getOpenAPIV3Schema();
    }

    /** The object without apiVersion, kind and metadata, as its schema sees it. */
    static ObjectNode body(CustomObject object) {
        ObjectNode body = object.getContent() == null ? MAPPER.createObjectNode()
                : (ObjectNode) CustomObjectSchema.parse(object.getContent());
        if (object.getStatus() != null) {
            body.set("status", CustomObjectSchema.parse(object.getStatus()));
        }
        return body;
    }

    static CustomObject withBody(CustomObject object, ObjectNode body) {
        JsonNode status = body.remove("status");
        return CustomObject.newBuilder(object).setContent(body.toString())
                .setStatus(status == null || status.isNull() ? null : status.toString()).build();
    }

    @Override
    public CustomObject defaults(CustomObject object) {
        Optional<CustomKind> kind = kindOf(object);
        if (kind.isEmpty()) {
            return object;
        }
        ObjectNode body = body(object);
        CustomObjectSchema.pruneAndDefault(body, schema(kind.get()));
        return CustomObject.newBuilder(withBody(object, body)).setApiVersion(kind.get().info().apiVersion()).build();
    }

    @Override
    public CustomObject prepareForCreate(CustomObject object, Instant now) {
        boolean statusSubresource = kindOf(object).map(k -> k.info().hasStatus()).orElse(false);
        return statusSubresource ? CustomObject.newBuilder(object).setStatus(null).build() : object;
    }

    @Override
    public Optional<StatusCause> validateName(String name) {
        return Names.subdomain("metadata.name", name);
    }

    @Override
    public List<StatusCause> validate(CustomObject object) {
        Optional<CustomKind> kind = kindOf(object);
        List<StatusCause> causes = new ArrayList<>();
        if (kind.isEmpty()) {
            causes.add(Causes.cause("FieldValueNotFound", "kind", "kind: Not found: \"" + object.getKind()
                    + "\": no CustomResourceDefinition serves it"));
            return causes;
        }
        ObjectNode body = body(object);
        JSONSchemaProps schema = schema(kind.get());
        if (schema != null) {
            CustomObjectSchema.validate(body, schema, "", causes);
        }
        if (schema != null) {
            causes.addAll(CustomObjectRulesCel.validate(body, root(object), schema));
        }
        return causes;
    }

    /** On create, transition rules run only with optionalOldSelf (oldSelf is then none). */
    @Override
    public List<StatusCause> validateCreate(CustomObject object) {
        JSONSchemaProps schema = kindOf(object).map(CustomObjectRules::schema).orElse(null);
        return schema == null ? List.of() : CustomObjectRulesCel.transitions(body(object), null, root(object), schema);
    }

    private static CustomObjectRulesCel.Root root(CustomObject object) {
        var meta = object.getMetadata();
        return new CustomObjectRulesCel.Root(object.getApiVersion(), object.getKind(),
                meta == null ? null : meta.getName(), meta == null ? null : meta.getGenerateName());
    }

    @Override
    public List<StatusCause> validateUpdate(CustomObject old, CustomObject updated) {
        Optional<CustomKind> kind = kindOf(updated);
        JSONSchemaProps schema = kind.map(CustomObjectRules::schema).orElse(null);
        if (schema == null) {
            return List.of();
        }
        return CustomObjectRulesCel.transitions(body(updated), body(old), root(updated), schema);
    }

    @Override
    public List<StatusCause> validateStatusUpdate(CustomObject old, CustomObject updated) {
        List<StatusCause> causes = new ArrayList<>(validate(updated));
        causes.addAll(validateUpdate(old, updated));
        return causes;
    }
}
