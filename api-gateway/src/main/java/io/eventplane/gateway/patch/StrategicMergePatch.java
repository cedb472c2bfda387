package io.eventplane.gateway.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Strategic merge patch ({@code application/strategic-merge-patch+json}) as {@code kubectl apply} sends it, without
 * the Go struct tags: a merge patch in which lists of objects merge by their Kubernetes merge key ({@link
 * ListStrategies}, by field name and, where the kind's schema is given, by element record; else {@code name}),
 * {@code finalizers} merge as a set, and the directives {@code $patch}
 * (replace/delete), {@code $setElementOrder/<list>}, {@code $deleteFromPrimitiveList/<list>} and
 * {@code $retainKeys} are honoured. Other lists are replaced.
 */
final class StrategicMergePatch {
    private static final String PATCH = "$patch";
    private static final String ORDER = "$setElementOrder/";
    private static final String DELETE_PRIMITIVE = "$deleteFromPrimitiveList/";
    private static final String RETAIN = "$retainKeys";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private StrategicMergePatch() {
    }

    /**
     * @param root the kind's record schema, to tell lists of the same name apart by their elements (a Service's ports
     *             from a container's); null to go by field names alone
     */
    static JsonNode apply(JsonNode original, JsonNode patch, Schema root) {
        if (!patch.isObject()) {
            throw new PatchException("a strategic merge patch must be a JSON object");
        }
        ObjectNode base = original != null && original.isObject() ? ((ObjectNode) original).deepCopy() : NODES.objectNode();
        JsonNode merged = mergeMap(base, (ObjectNode) patch, root);
        return merged == null ? NODES.objectNode() : merged;
    }

    /** The schema of a record's or map's member, unions with null unwrapped; null when unknown. */
    private static Schema child(Schema s, String name) {
        if (s == null) {
            return null;
        }
        if (s.getType() == Schema.Type.MAP) {
            return unwrap(s.getValueType());
        }
        if (s.getType() != Schema.Type.RECORD) {
            return null;
        }
        for (Schema.Field f : s.getFields()) {
            String json = f.getProp("jsonName") != null ? f.getProp("jsonName") : f.name();
            if (json.equals(name)) {
                return unwrap(f.schema());
            }
        }
        return null;
    }

    private static Schema unwrap(Schema s) {
        if (s != null && s.getType() == Schema.Type.UNION) {
            List<Schema> b = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
            return b.size() == 1 ? b.get(0) : null;
        }
        return s;
    }

    /** The element record of a list's schema, or null. */
    private static Schema element(Schema list) {
        Schema e = list != null && list.getType() == Schema.Type.ARRAY ? unwrap(list.getElementType()) : null;
        return e != null && e.getType() == Schema.Type.RECORD ? e : null;
    }

    /** Merges {@code patch} into {@code original} (a copy we own); null means "delete this map". */
    private static ObjectNode mergeMap(ObjectNode original, ObjectNode patch, Schema schema) {
        String directive = patch.path(PATCH).asText("");
        if (directive.equals("delete")) {
            return null;
        }
        if (directive.equals("replace")) {
            ObjectNode replaced = NODES.objectNode();
            ObjectNode withoutDirective = patch.deepCopy();
            withoutDirective.remove(PATCH);
            return mergeMap(replaced, withoutDirective, schema);
        }
        Map<String, JsonNode> orders = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = patch.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            String key = f.getKey();
            JsonNode value = f.getValue();
            if (key.startsWith(ORDER)) {
                orders.put(key.substring(ORDER.length()), value);
            } else if (key.startsWith(DELETE_PRIMITIVE)) {
                deleteFromPrimitiveList(original, key.substring(DELETE_PRIMITIVE.length()), value);
            } else if (key.equals(PATCH) || key.equals(RETAIN)) {
                continue;
            } else if (value.isNull()) {
                original.remove(key);
            } else if (value.isObject()) {
                JsonNode current = original.get(key);
                ObjectNode merged = mergeMap(current != null && current.isObject() ? (ObjectNode) current
                        : NODES.objectNode(), (ObjectNode) value, child(schema, key));
                if (merged == null) {
                    original.remove(key);
                } else {
                    original.set(key, merged);
                }
            } else if (value.isArray()) {
                JsonNode current = original.get(key);
                original.set(key, mergeList(key, element(child(schema, key)), current != null && current.isArray()
                        ? (ArrayNode) current : NODES.arrayNode(), (ArrayNode) value));
            } else {
                original.set(key, value.deepCopy());
            }
        }
        if (patch.path(RETAIN).isArray()) {
            Set<String> keep = new HashSet<>();
            patch.get(RETAIN).forEach(k -> keep.add(k.asText()));
            List<String> drop = new ArrayList<>();
            original.fieldNames().forEachRemaining(k -> {
                if (!keep.contains(k)) {
                    drop.add(k);
                }
            });
            drop.forEach(original::remove);
        }
        orders.forEach((list, order) -> {
            JsonNode current = original.get(list);
            if (current != null && current.isArray() && order.isArray()) {
                original.set(list, reorder((ArrayNode) current, (ArrayNode) order));
            }
        });
        return original;
    }

    private static ArrayNode mergeList(String field, Schema element, ArrayNode original, ArrayNode patch) {
        for (JsonNode p : patch) {
            if (p.isObject() && p.path(PATCH).asText("").equals("replace")) {
                ArrayNode replaced = NODES.arrayNode();
                for (JsonNode q : patch) {
                    if (q != p) {
                        replaced.add(q.isObject() ? mergeMap(NODES.objectNode(), (ObjectNode) q, element) : q.deepCopy());
                    }
                }
                return replaced;
            }
        }
        boolean objects = patch.size() > 0 && allObjects(patch);
        if (!objects) {
            if (ListStrategies.isSet(field)) {
                ArrayNode union = original.deepCopy();
                for (JsonNode p : patch) {
                    if (!contains(union, p)) {
                        union.add(p.deepCopy());
                    }
                }
                return union;
            }
            return patch.deepCopy();
        }
        String elementType = element == null ? null : element.getName();
        String mergeKey = ListStrategies.isAtomic(elementType) ? null : mergeKey(field, elementType, patch);
        if (mergeKey == null) {
            ArrayNode replaced = NODES.arrayNode();
            patch.forEach(p -> replaced.add(mergeMap(NODES.objectNode(), (ObjectNode) p, element)));
            return replaced;
        }
        ArrayNode result = original.deepCopy();
        for (JsonNode p : patch) {
            JsonNode key = p.get(mergeKey);
            int at = key == null ? -1 : indexOf(result, mergeKey, key);
            if (p.path(PATCH).asText("").equals("delete")) {
                if (at >= 0) {
                    result.remove(at);
                }
                continue;
            }
            if (at >= 0 && result.get(at).isObject()) {
                ObjectNode merged = mergeMap((ObjectNode) result.get(at), (ObjectNode) p, element);
                if (merged == null) {
                    result.remove(at);
                } else {
                    result.set(at, merged);
                }
            } else {
                ObjectNode fresh = mergeMap(NODES.objectNode(), (ObjectNode) p, element);
                if (fresh != null) {
                    result.add(fresh);
                }
            }
        }
        return result;
    }

    /** The table's key when the list is known, else {@code name} when every patch element carries one. */
    private static String mergeKey(String field, String elementType, ArrayNode patch) {
        String known = ListStrategies.mergeKey(field, elementType).orElse(null);
        if (known != null) {
            return known;
        }
        for (JsonNode p : patch) {
            if (!p.has("name") && !p.path(PATCH).asText("").equals("delete")) {
                return null;
            }
        }
        return "name";
    }

    /** Elements named in {@code order} first, in its order; the others after them, in their current order. */
    private static ArrayNode reorder(ArrayNode list, ArrayNode order) {
        ArrayNode out = NODES.arrayNode();
        boolean[] used = new boolean[list.size()];
        for (JsonNode o : order) {
            for (int i = 0; i < list.size(); i++) {
                if (!used[i] && sameElement(list.get(i), o)) {
                    used[i] = true;
                    out.add(list.get(i));
                    break;
                }
            }
        }
        for (int i = 0; i < list.size(); i++) {
            if (!used[i]) {
                out.add(list.get(i));
            }
        }
        return out;
    }

    /** An order entry names its element by merge key ({@code {"name":"web"}}) or is the primitive itself. */
    private static boolean sameElement(JsonNode element, JsonNode orderEntry) {
        if (!orderEntry.isObject()) {
            return element.equals(orderEntry);
        }
        if (!element.isObject() || orderEntry.size() == 0) {
            return false;
        }
        Iterator<Map.Entry<String, JsonNode>> keys = orderEntry.fields();
        while (keys.hasNext()) {
            Map.Entry<String, JsonNode> k = keys.next();
            if (!k.getValue().asText().equals(element.path(k.getKey()).asText(null))) {
                return false;
            }
        }
        return true;
    }

    private static void deleteFromPrimitiveList(ObjectNode original, String field, JsonNode values) {
        JsonNode current = original.get(field);
        if (current == null || !current.isArray() || !values.isArray()) {
            return;
        }
        ArrayNode kept = NODES.arrayNode();
        for (JsonNode v : current) {
            if (!contains((ArrayNode) values, v)) {
                kept.add(v);
            }
        }
        original.set(field, kept);
    }

    private static int indexOf(ArrayNode list, String mergeKey, JsonNode key) {
        for (int i = 0; i < list.size(); i++) {
            JsonNode k = list.get(i).get(mergeKey);
            if (k != null && k.asText().equals(key.asText())) {
                return i;
            }
        }
        return -1;
    }

    private static boolean allObjects(ArrayNode a) {
        for (JsonNode n : a) {
            if (!n.isObject()) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(ArrayNode a, JsonNode v) {
        for (JsonNode n : a) {
            if (n.equals(v)) {
                return true;
            }
        }
        return false;
    }
}
