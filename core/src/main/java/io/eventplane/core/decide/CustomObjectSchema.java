package io.eventplane.core.decide;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * A custom object checked against its version's structural schema as apiextensions-apiserver does: unknown fields
 * pruned (unless x-kubernetes-preserve-unknown-fields), nulls of non-nullable fields dropped, defaults applied, then
 * the OpenAPI value validations with Kubernetes' messages. Works on the object's JSON tree without apiVersion, kind
 * and metadata.
 */
final class CustomObjectSchema {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Map<String, Pattern> PATTERNS = new ConcurrentHashMap<>();

    private CustomObjectSchema() {
    }

    /** Prunes and defaults {@code root} (in place): the object without apiVersion, kind and metadata. */
    static void pruneAndDefault(ObjectNode root, JSONSchemaProps schema) {
        walk(root, schema);
    }

    private static void walk(JsonNode node, JSONSchemaProps s) {
        if (s == null) {
            return;
        }
        if (node instanceof ObjectNode object) {
            Map<String, JSONSchemaProps> props = s.getProperties() == null ? Map.of() : s.getProperties();
            boolean keepUnknown = Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields())
                    || Boolean.TRUE.equals(s.getAdditionalProperties());
            JSONSchemaProps values = s.getAdditionalProperties() instanceof JSONSchemaProps a ? a : null;
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JSONSchemaProps child = props.containsKey(e.getKey()) ? props.get(e.getKey()) : values;
                boolean embedded = Boolean.TRUE.equals(s.getXKubernetesEmbeddedResource())
                        && List.of("apiVersion", "kind", "metadata").contains(e.getKey());
                if (child == null && !keepUnknown && !embedded) {
                    it.remove(); // at the root apiVersion, kind and metadata never reach here
                } else if (e.getValue().isNull() && child != null && !Boolean.TRUE.equals(child.getNullable())) {
                    it.remove();
                } else {
                    walk(e.getValue(), child);
                }
            }
            for (Map.Entry<String, JSONSchemaProps> p : props.entrySet()) {
                if (!object.has(p.getKey()) && p.getValue().getDefault$() != null) {
                    JsonNode value = parse(p.getValue().getDefault$());
                    object.set(p.getKey(), value);
                    walk(value, p.getValue());
                }
            }
        } else if (node instanceof ArrayNode array && s.getItems() != null) {
            for (int i = 0; i < array.size(); i++) {
                walk(array.get(i), s.getItems());
            }
        }
    }

    /** The causes of an invalid value below {@code s}; {@code path} is the value's field path ("" at the root). */
    static void validate(JsonNode node, JSONSchemaProps s, String path, List<StatusCause> causes) {
        if (s == null || node == null) {
            return;
        }
        if (node.isNull()) {
            if (!Boolean.TRUE.equals(s.getNullable()) && s.getType() != null) {
                causes.add(Causes.invalidShown(path, "\"null\"", path + " in body must be of type " + s.getType()
                        + ": \"null\""));
            }
            return;
        }
        if (!typeMatches(node, s)) {
            String got = typeName(node);
            String expected = Boolean.TRUE.equals(s.getXKubernetesIntOrString()) ? "integer,string" : s.getType();
            causes.add(Causes.invalidShown(path, "\"" + got + "\"", path + " in body must be of type " + expected
                    + ": \"" + got + "\""));
            return;
        }
        enumeration(node, s, path, causes);
        if (node.isTextual()) {
            strings(node.textValue(), s, path, causes);
        } else if (node.isNumber()) {
            numbers(node.decimalValue(), s, path, causes);
        } else if (node.isArray()) {
            long n = node.size();
            if (s.getMaxItems() != null && n > s.getMaxItems()) {
                causes.add(Causes.tooMany(path, (int) n, s.getMaxItems().intValue()));
            }
            if (s.getMinItems() != null && n < s.getMinItems()) {
                causes.add(Causes.invalidShown(path, n + "", path + " in body should have at least " + s.getMinItems()
                        + " items"));
            }
            for (int i = 0; i < node.size(); i++) {
                validate(node.get(i), s.getItems(), path + "[" + i + "]", causes);
            }
        } else if (node.isObject()) {
            objects((ObjectNode) node, s, path, causes);
        }
        for (JSONSchemaProps all : s.getAllOf() == null ? List.<JSONSchemaProps>of() : s.getAllOf()) {
            validate(node, all, path, causes);
        }
    }

    private static void objects(ObjectNode node, JSONSchemaProps s, String path, List<StatusCause> causes) {
        for (String required : s.getRequired() == null ? List.<String>of() : s.getRequired()) {
            if (!node.has(required) || node.get(required).isNull()) {
                causes.add(Causes.required(child(path, required)));
            }
        }
        if (s.getMaxProperties() != null && node.size() > s.getMaxProperties()) {
            causes.add(Causes.cause("FieldValueTooMany", path, path + ": Too many: " + node.size()
                    + ": must have at most " + s.getMaxProperties() + " items"));
        }
        if (s.getMinProperties() != null && node.size() < s.getMinProperties()) {
            causes.add(Causes.invalidShown(path, node.size() + "", path + " in body should have at least "
                    + s.getMinProperties() + " properties"));
        }
        Map<String, JSONSchemaProps> props = s.getProperties() == null ? Map.of() : s.getProperties();
        JSONSchemaProps values = s.getAdditionalProperties() instanceof JSONSchemaProps a ? a : null;
        node.fields().forEachRemaining(e -> {
            JSONSchemaProps child = props.containsKey(e.getKey()) ? props.get(e.getKey()) : values;
            validate(e.getValue(), child, child(path, e.getKey()), causes);
        });
    }

    private static void strings(String value, JSONSchemaProps s, String path, List<StatusCause> causes) {
        int length = value.codePointCount(0, value.length());
        if (s.getMaxLength() != null && length > s.getMaxLength()) {
            causes.add(Causes.cause("FieldValueTooLong", path, path + ": Too long: may not be more than "
                    + s.getMaxLength() + " bytes"));
        }
        if (s.getMinLength() != null && length < s.getMinLength()) {
            causes.add(Causes.invalid(path, value, path + " in body should be at least " + s.getMinLength()
                    + " chars long"));
        }
        if (s.getPattern() != null && !PATTERNS.computeIfAbsent(s.getPattern(), Pattern::compile).matcher(value).find()) {
            causes.add(Causes.invalid(path, value, path + " in body should match '" + s.getPattern() + "'"));
        }
    }

    private static void numbers(BigDecimal value, JSONSchemaProps s, String path, List<StatusCause> causes) {
        String shown = value.stripTrailingZeros().toPlainString();
        if (s.getMaximum() != null) {
            BigDecimal max = BigDecimal.valueOf(s.getMaximum());
            boolean exclusive = Boolean.TRUE.equals(s.getExclusiveMaximum());
            if (exclusive ? value.compareTo(max) >= 0 : value.compareTo(max) > 0) {
                causes.add(Causes.invalidShown(path, shown, path + " in body should be less than "
                        + (exclusive ? "" : "or equal to ") + number(s.getMaximum())));
            }
        }
        if (s.getMinimum() != null) {
            BigDecimal min = BigDecimal.valueOf(s.getMinimum());
            boolean exclusive = Boolean.TRUE.equals(s.getExclusiveMinimum());
            if (exclusive ? value.compareTo(min) <= 0 : value.compareTo(min) < 0) {
                causes.add(Causes.invalidShown(path, shown, path + " in body should be greater than "
                        + (exclusive ? "" : "or equal to ") + number(s.getMinimum())));
            }
        }
        if (s.getMultipleOf() != null && s.getMultipleOf() > 0
                && value.remainder(BigDecimal.valueOf(s.getMultipleOf())).signum() != 0) {
            causes.add(Causes.invalidShown(path, shown, path + " in body should be a multiple of "
                    + number(s.getMultipleOf())));
        }
    }

    private static void enumeration(JsonNode node, JSONSchemaProps s, String path, List<StatusCause> causes) {
        if (s.getEnum$() == null || s.getEnum$().isEmpty()) {
            return;
        }
        List<String> allowed = new ArrayList<>();
        for (String e : s.getEnum$()) {
            JsonNode option = parse(e);
            if (option.equals(node) || option.isNumber() && node.isNumber()
                    && option.decimalValue().compareTo(node.decimalValue()) == 0) {
                return;
            }
            allowed.add(option.isTextual() ? option.textValue() : option.toString());
        }
        causes.add(Causes.notSupported(path, node.isTextual() ? node.textValue() : node.toString(), allowed));
    }

    private static boolean typeMatches(JsonNode node, JSONSchemaProps s) {
        if (Boolean.TRUE.equals(s.getXKubernetesIntOrString())) {
            return node.isTextual() || node.isIntegralNumber();
        }
        String type = s.getType() == null ? "" : s.getType();
        return switch (type) {
            case "object" -> node.isObject();
            case "array" -> node.isArray();
            case "string" -> node.isTextual();
            case "integer" -> node.isIntegralNumber() || node.isNumber() && node.decimalValue().stripTrailingZeros().scale() <= 0;
            case "number" -> node.isNumber();
            case "boolean" -> node.isBoolean();
            default -> true;
        };
    }

    private static String typeName(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case BOOLEAN -> "boolean";
            case NUMBER -> node.isIntegralNumber() ? "integer" : "number";
            default -> "null";
        };
    }

    private static String number(double d) {
        return d == Math.rint(d) && !Double.isInfinite(d) ? Long.toString((long) d) : Double.toString(d);
    }

    private static String child(String path, String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    static JsonNode parse(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (IOException e) {
            throw new IllegalStateException("stored JSON does not parse: " + json, e);
        }
    }
}
