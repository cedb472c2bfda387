package io.eventplane.core.decide;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cel.runtime.CelEvaluationException;
import io.eventplane.core.cel.CelNames;
import io.eventplane.core.decide.ValidationRules.Compiled;
import io.eventplane.log.StatusCause;
import io.eventplane.model.apiextensions.JSONSchemaProps;
import io.eventplane.model.apiextensions.ValidationRule;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * x-kubernetes-validations of a custom kind's schema, evaluated as apiextensions-apiserver evaluates them: at every
 * non-null value whose schema node carries rules (object, field, map value, array item), {@code self} the value. Rules
 * using {@code oldSelf} are transition rules: evaluated on update where the old object has a value at the same place
 * (fields by name, map values by key, items of x-kubernetes-list-type=map lists by their keys), or with optionalOldSelf
 * also where it has none. A failing rule is a field cause at the value's path (plus the rule's fieldPath) showing the
 * schema type: {@code spec: Invalid value: "object": <message>}.
 */
final class CustomObjectRulesCel {
    private CustomObjectRulesCel() {
    }

    /** What the root's {@code self} sees beside the body: apiVersion, kind and metadata.name/generateName. */
    record Root(String apiVersion, String kind, String name, String generateName) {
    }

    /** The rules without oldSelf, over {@code body}. */
    static List<StatusCause> validate(ObjectNode body, Root root, JSONSchemaProps schema) {
        List<StatusCause> causes = new ArrayList<>();
        walk(withRoot(body, root), null, schema, null, true, false, causes);
        return causes;
    }

    /** The transition rules over the updated and the stored body ({@code old} null on create). */
    static List<StatusCause> transitions(ObjectNode body, ObjectNode old, Root root, JSONSchemaProps schema) {
        List<StatusCause> causes = new ArrayList<>();
        walk(withRoot(body, root), old == null ? null : withRoot(old, root), schema, null, true, true, causes);
        return causes;
    }

    private static ObjectNode withRoot(ObjectNode body, Root root) {
        ObjectNode self = body.deepCopy();
        if (root != null) {
            self.put("apiVersion", root.apiVersion());
            self.put("kind", root.kind());
            ObjectNode meta = self.putObject("metadata");
            if (root.name() != null) {
                meta.put("name", root.name());
            }
            if (root.generateName() != null) {
                meta.put("generateName", root.generateName());
            }
        }
        return self;
    }

    private static void walk(JsonNode node, JsonNode old, JSONSchemaProps s, String path, boolean root,
                             boolean transitions, List<StatusCause> causes) {
        if (s == null || node == null || node.isNull() || node.isMissingNode()) {
            return;
        }
        evaluate(node, old == null || old.isNull() ? null : old, s, path, root, transitions, causes);
        if (node instanceof ObjectNode object) {
            Map<String, JSONSchemaProps> props = s.getProperties() == null ? Map.of() : s.getProperties();
            JSONSchemaProps values = s.getAdditionalProperties() instanceof JSONSchemaProps a ? a : null;
            for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JSONSchemaProps child = props.containsKey(e.getKey()) ? props.get(e.getKey()) : values;
                if (child == null || root && List.of("apiVersion", "kind", "metadata").contains(e.getKey())) {
                    continue;
                }
                String childPath = props.containsKey(e.getKey()) ? child(path, e.getKey())
                        : (path == null ? "" : path) + "[" + e.getKey() + "]";
                walk(e.getValue(), old == null ? null : old.get(e.getKey()), child, childPath, false, transitions,
                        causes);
            }
        } else if (node instanceof ArrayNode array && s.getItems() != null) {
            Map<List<JsonNode>, JsonNode> oldByKey = listMapKeys(s) == null || !(old instanceof ArrayNode o) ? null
                    : byKeys(o, listMapKeys(s));
            for (int i = 0; i < array.size(); i++) {
                JsonNode item = array.get(i);
                JsonNode oldItem = oldByKey == null ? null : oldByKey.get(keys(item, listMapKeys(s)));
                walk(item, oldItem, s.getItems(), (path == null ? "" : path) + "[" + i + "]", false, transitions, causes);
            }
        }
    }

    private static List<String> listMapKeys(JSONSchemaProps s) {
        return "map".equals(s.getXKubernetesListType()) && s.getXKubernetesListMapKeys() != null
                ? s.getXKubernetesListMapKeys() : null;
    }

    private static Map<List<JsonNode>, JsonNode> byKeys(ArrayNode list, List<String> keys) {
        Map<List<JsonNode>, JsonNode> out = new HashMap<>();
        list.forEach(item -> out.put(keys(item, keys), item));
        return out;
    }

    private static List<JsonNode> keys(JsonNode item, List<String> keys) {
        List<JsonNode> out = new ArrayList<>();
        keys.forEach(k -> out.add(item.get(k)));
        return out;
    }

    private static void evaluate(JsonNode node, JsonNode old, JSONSchemaProps s, String path, boolean root,
                                 boolean transitions, List<StatusCause> causes) {
        List<Compiled> rules = ValidationRules.of(s, root);
        if (rules.isEmpty()) {
            return;
        }
        String type = s.getType() == null ? "" : s.getType();
        Object self = CelValues.of(node, s);
        for (Compiled c : rules) {
            if (c.error() != null) {
                causes.add(Causes.invalidShown(shown(path), quoted(type), "rule compile error: " + c.error()));
                continue;
            }
            if (c.usesOldSelf() != transitions || transitions && old == null && !c.optionalOldSelf()) {
                continue;
            }
            Map<String, Object> vars = new HashMap<>();
            vars.put(ValidationRules.SELF, self);
            Object oldSelf = old == null ? null : CelValues.of(old, s);
            if (c.optionalOldSelf()) {
                vars.put(ValidationRules.OLD_SELF, Optional.ofNullable(oldSelf));
            } else if (oldSelf != null) {
                vars.put(ValidationRules.OLD_SELF, oldSelf);
            }
            Object result;
            try {
                result = c.program().eval(vars);
            } catch (CelEvaluationException e) {
                causes.add(Causes.invalidShown(shown(path), quoted(type), e.getMessage() + " evaluating rule: "
                        + ruleString(c.rule())));
                continue;
            }
            if (Boolean.TRUE.equals(result)) {
                continue;
            }
            causes.add(failure(c, vars, fieldPath(path, c.rule(), s), type));
        }
    }

    private static StatusCause failure(Compiled c, Map<String, Object> vars, String path, String type) {
        String detail = null;
        if (c.message() != null) {
            try {
                Object m = c.message().eval(vars);
                if (m instanceof String text && !text.isBlank() && !text.trim().contains("\n")) {
                    detail = text.trim();
                }
            } catch (CelEvaluationException e) {
                // Kubernetes falls back to the message (or the rule) when the messageExpression fails
            }
        }
        ValidationRule rule = c.rule();
        if (detail == null) {
            detail = rule.getMessage() == null || rule.getMessage().isEmpty() ? "failed rule: " + ruleString(rule)
                    : rule.getMessage().trim();
        }
        String shown = shown(path);
        String reason = rule.getReason() == null ? "" : rule.getReason();
        return switch (reason) {
            case "FieldValueForbidden" -> Causes.forbidden(shown, detail);
            case "FieldValueRequired" -> Causes.required(shown, detail);
            case "FieldValueDuplicate" -> Causes.duplicate(shown, type);
            default -> Causes.invalidShown(shown, quoted(type), detail);
        };
    }

    private static String fieldPath(String path, ValidationRule rule, JSONSchemaProps s) {
        if (rule.getFieldPath() == null || rule.getFieldPath().isEmpty()) {
            return path;
        }
        String normalized = RuleFieldPaths.normalize(rule.getFieldPath(), s);
        return normalized == null ? path : child(path, normalized);
    }

    private static String ruleString(ValidationRule rule) {
        return rule.getMessage() != null && !rule.getMessage().isEmpty() ? rule.getMessage().trim()
                : (rule.getRule() == null ? "" : rule.getRule().trim());
    }

    private static String child(String path, String field) {
        return path == null || path.isEmpty() ? field : path + "." + field;
    }

    /** Kubernetes prints a root path (a nil field.Path) as {@code <nil>}. */
    private static String shown(String path) {
        return path == null || path.isEmpty() ? "<nil>" : path;
    }

    private static String quoted(String type) {
        return "\"" + type + "\"";
    }

    /** JSON values as cel-java takes them, numbers by their schema type (an integral JSON number may be a double). */
    static final class CelValues {
        private CelValues() {
        }

        static Object of(JsonNode node, JSONSchemaProps s) {
            if (node == null || node.isNull()) {
                return dev.cel.common.values.NullValue.NULL_VALUE;
            }
            String type = s == null || s.getType() == null ? "" : s.getType();
            if (node.isNumber()) {
                return "number".equals(type) || !node.isIntegralNumber() ? (Object) node.doubleValue()
                        : (Object) node.longValue();
            }
            if (node.isTextual()) {
                return node.textValue();
            }
            if (node.isBoolean()) {
                return node.booleanValue();
            }
            if (node.isArray()) {
                List<Object> out = new ArrayList<>();
                node.forEach(item -> out.add(of(item, s == null ? null : s.getItems())));
                return out;
            }
            Map<String, JSONSchemaProps> props = s == null || s.getProperties() == null ? Map.of() : s.getProperties();
            JSONSchemaProps values = s != null && s.getAdditionalProperties() instanceof JSONSchemaProps a ? a : null;
            Map<String, Object> out = new LinkedHashMap<>();
            // a declared property goes by its escaped CEL name (self.max__dash__surge), a map key by itself
            node.fields().forEachRemaining(e -> out.put(props.containsKey(e.getKey())
                            ? CelNames.escape(e.getKey()).orElse(e.getKey()) : e.getKey(),
                    of(e.getValue(), props.containsKey(e.getKey()) ? props.get(e.getKey()) : values)));
            return out;
        }
    }
}
