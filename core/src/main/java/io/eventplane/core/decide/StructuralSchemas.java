package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A CRD version's schema checked as apiextensions-apiserver checks it: the OpenAPI v3 subset CRDs accept, and the
 * structural rules (every specified field has a type, unless it is int-or-string or preserves unknown fields; the
 * root is an object; metadata only restricts name and generateName).
 */
final class StructuralSchemas {
    private static final Set<String> TYPES = Set.of("object", "array", "string", "integer", "number", "boolean");

    private StructuralSchemas() {
    }

    static void validate(JSONSchemaProps root, String path, List<StatusCause> causes) {
        if (root.getType() == null || root.getType().isEmpty()) {
            causes.add(Causes.required(path + ".type", "must not be empty at the root"));
        } else if (!"object".equals(root.getType())) {
            causes.add(Causes.invalid(path + ".type", root.getType(), "must be object at the root"));
        }
        if (root.getProperties() != null && root.getProperties().get("metadata") != null) {
            metadata(root.getProperties().get("metadata"), path + ".properties[metadata]", causes);
        }
        node(root, path, causes, "at the root");
    }

    /** kube-apiserver allows only type: object and name/generateName restrictions below metadata. */
    private static void metadata(JSONSchemaProps m, String path, List<StatusCause> causes) {
        Map<String, JSONSchemaProps> props = m.getProperties();
        boolean other = m.getRequired() != null || m.getAdditionalProperties() != null || m.getItems() != null
                || m.getXKubernetesValidations() != null && !m.getXKubernetesValidations().isEmpty();
        if (props != null) {
            for (String k : props.keySet()) {
                other |= !k.equals("name") && !k.equals("generateName");
            }
        }
        if (other) {
            causes.add(Causes.forbidden(path, "must not specify anything other than name and generateName, but "
                    + "metadata is implicitly specified"));
        }
    }

    private static void node(JSONSchemaProps s, String path, List<StatusCause> causes, String where) {
        boolean intOrString = Boolean.TRUE.equals(s.getXKubernetesIntOrString());
        boolean preserve = Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields());
        String type = s.getType() == null ? "" : s.getType();
        if (type.isEmpty() && !intOrString && !preserve && where != null && !where.equals("at the root")) {
            causes.add(Causes.required(path + ".type", "must not be empty " + where));
        }
        if (!type.isEmpty() && !TYPES.contains(type)) {
            causes.add(Causes.notSupported(path + ".type", type,
                    List.of("array", "boolean", "integer", "number", "object", "string")));
        }
        if (intOrString && !type.isEmpty()) {
            causes.add(Causes.invalid(path + ".type", type, "must be empty if x-kubernetes-int-or-string is true"));
        }
        if (s.getXKubernetesPreserveUnknownFields() != null && !preserve) {
            causes.add(Causes.invalid(path + ".x-kubernetes-preserve-unknown-fields", false, "must be true or undefined"));
        }
        if (s.getId() != null) {
            causes.add(Causes.forbidden(path + ".id", "id is not supported"));
        }
        if (Boolean.TRUE.equals(s.getUniqueItems())) {
            causes.add(Causes.forbidden(path + ".uniqueItems",
                    "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
        }
        if (s.getPatternProperties() != null && !s.getPatternProperties().isEmpty()) {
            causes.add(Causes.forbidden(path + ".patternProperties", "patternProperties is not supported"));
        }
        if (s.getDefinitions() != null && !s.getDefinitions().isEmpty()) {
            causes.add(Causes.forbidden(path + ".definitions", "definitions is not supported"));
        }
        if ("array".equals(type) && s.getItems() == null) {
            causes.add(Causes.required(path + ".items", "must be specified"));
        }
        if (s.getPattern() != null) {
            try {
                java.util.regex.Pattern.compile(s.getPattern());
            } catch (java.util.regex.PatternSyntaxException e) {
                causes.add(Causes.invalid(path + ".pattern", s.getPattern(), "must be a valid regular expression"));
            }
        }
        if (s.getAdditionalProperties() instanceof JSONSchemaProps additional) {
            if (s.getProperties() != null && !s.getProperties().isEmpty()) {
                causes.add(Causes.forbidden(path + ".additionalProperties",
                        "additionalProperties and properties are mutual exclusive"));
            }
            node(additional, path + ".additionalProperties", causes, "for specified additionalProperties");
        } else if (Boolean.FALSE.equals(s.getAdditionalProperties()) && s.getProperties() != null
                && !s.getProperties().isEmpty()) {
            causes.add(Causes.forbidden(path + ".additionalProperties",
                    "additionalProperties and properties are mutual exclusive"));
        }
        if (s.getProperties() != null) {
            s.getProperties().forEach((k, v) -> node(v, path + ".properties[" + k + "]", causes,
                    "for specified object fields"));
        }
        if (s.getItems() != null) {
            node(s.getItems(), path + ".items", causes, "for specified array items");
        }
        // Value validations under allOf/anyOf/oneOf/not need no types of their own (they are not structural).
        junctors(s.getAllOf(), path + ".allOf", causes);
        junctors(s.getAnyOf(), path + ".anyOf", causes);
        junctors(s.getOneOf(), path + ".oneOf", causes);
        if (s.getNot() != null) {
            node(s.getNot(), path + ".not", causes, null);
        }
    }

    private static void junctors(List<JSONSchemaProps> list, String path, List<StatusCause> causes) {
        if (list == null) {
            return;
        }
        for (int i = 0; i < list.size(); i++) {
            node(list.get(i), path + "[" + i + "]", causes, null);
        }
    }
}
