package io.eventplane.core.decide;

import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.util.Map;

/**
 * A validation rule's fieldPath ({@code .spec.replicas}, {@code .labels['app']}): a JSON path of field and map
 * accessors below the rule's schema node, as apiextensions-apiserver reads it; named fields join with dots, map keys
 * in brackets ({@code spec.labels[app]}).
 */
final class RuleFieldPaths {
    private RuleFieldPaths() {
    }

    /** The path as a field path below the rule's node, or null when it is not a valid path there. */
    static String normalize(String jsonPath, JSONSchemaProps schema) {
        try {
            return parse(jsonPath, schema);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Why {@code jsonPath} is not a valid path below {@code schema}, or null when it is. */
    static String problem(String jsonPath, JSONSchemaProps schema) {
        try {
            parse(jsonPath, schema);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static String parse(String jsonPath, JSONSchemaProps schema) {
        StringBuilder out = new StringBuilder();
        JSONSchemaProps s = schema;
        int i = 0;
        while (i < jsonPath.length()) {
            char c = jsonPath.charAt(i);
            String name;
            if (c == '.') {
                int end = i + 1;
                while (end < jsonPath.length() && ".[]".indexOf(jsonPath.charAt(end)) < 0) {
                    end++;
                }
                if (end == i + 1) {
                    throw new IllegalArgumentException("unexpected end of JSON path");
                }
                name = jsonPath.substring(i + 1, end);
                i = end;
            } else if (c == '[') {
                if (i + 1 >= jsonPath.length() || jsonPath.charAt(i + 1) != '\'') {
                    throw new IllegalArgumentException("expected single quoted string but got "
                            + jsonPath.substring(Math.min(i + 1, jsonPath.length())));
                }
                int close = jsonPath.indexOf("']", i + 2);
                if (close < 0) {
                    throw new IllegalArgumentException("unexpected end of JSON path");
                }
                name = jsonPath.substring(i + 2, close).replace("\\'", "'").replace("\\\\", "\\");
                i = close + 2;
            } else {
                throw new IllegalArgumentException("expected [ or . but got: " + jsonPath.substring(i));
            }
            Map<String, JSONSchemaProps> props = s == null ? null : s.getProperties();
            if (props != null) {
                if (!props.containsKey(name)) {
                    throw new IllegalArgumentException("does not refer to a valid field");
                }
                out.append(out.length() == 0 ? "" : ".").append(name);
                s = props.get(name);
            } else if (s != null && s.getAdditionalProperties() instanceof JSONSchemaProps values) {
                out.append('[').append(name).append(']');
                s = values;
            } else {
                throw new IllegalArgumentException("does not refer to a valid field");
            }
        }
        return out.toString();
    }
}
