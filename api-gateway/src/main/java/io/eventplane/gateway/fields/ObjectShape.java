package io.eventplane.gateway.fields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.FieldRenames;
import io.eventplane.gateway.patch.ListStrategies;
import io.eventplane.gateway.wire.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.Schema;

/**
 * How a kind's JSON is made of fields, read from its Avro schema: records are structs (field by field), maps are
 * granular by key, lists are keyed ({@link ListStrategies#mapKeys}), sets, or atomic; everything else is a leaf.
 * Computes field sets of objects, finds and removes values by path, and merges an applied configuration into an
 * object, the way server-side apply needs them.
 */
public final class ObjectShape {
    /** Structs Kubernetes marks {@code structType=atomic}: owned and replaced as a whole. */
    private static final Set<String> ATOMIC_RECORDS = Set.of("LabelSelector");
    /** Defaults of list-map key fields that the server fills in (a container port's protocol). */
    private static final Map<String, String> KEY_DEFAULTS = Map.of("protocol", "TCP");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Schema root;
    private final Optional<FieldRenames> renames;

    public ObjectShape(Schema root, Optional<FieldRenames> renames) {
        this.root = root;
        this.renames = renames;
    }

    private enum Form { STRUCT, MAP, KEYED, SET, LEAF }

    private static Schema unwrap(Schema s) {
        if (s != null && s.getType() == Schema.Type.UNION) {
            List<Schema> b = s.getTypes().stream().filter(t -> t.getType() != Schema.Type.NULL).toList();
            return b.size() == 1 ? b.get(0) : null; // IntOrString and the like are leaves
        }
        return s;
    }

    private static Form form(Schema s, String field) {
        if (s == null) {
            return Form.LEAF;
        }
        return switch (s.getType()) {
            case RECORD -> ATOMIC_RECORDS.contains(s.getName()) ? Form.LEAF : Form.STRUCT;
            case MAP -> Form.MAP;
            case ARRAY -> {
                Schema e = unwrap(s.getElementType());
                if (e != null && e.getType() == Schema.Type.RECORD && !ListStrategies.mapKeys(field, e.getName()).isEmpty()) {
                    yield Form.KEYED;
                }
                yield e != null && e.getType() == Schema.Type.STRING && ListStrategies.isSet(field) ? Form.SET : Form.LEAF;
            }
            default -> Form.LEAF;
        };
    }

    private Schema child(Schema s, String name, boolean atRoot) {
        if (s == null) {
            return null;
        }
        if (s.getType() == Schema.Type.MAP) {
            return unwrap(s.getValueType());
        }
        if (s.getType() != Schema.Type.RECORD) {
            return null;
        }
        String stored = atRoot && renames.isPresent() ? renames.get().toStored(name) : name;
        for (Schema.Field f : s.getFields()) {
            String json = f.getProp("jsonName") != null ? f.getProp("jsonName") : f.name();
            if (json.equals(stored)) {
                return unwrap(f.schema());
            }
        }
        return null;
    }

    /** The keys of a keyed list of {@code element} records under {@code field}. */
    private static List<String> keys(String field, Schema element) {
        return ListStrategies.mapKeys(field, element == null ? null : element.getName());
    }

    /** The key fields a path element names ({@code k:{"port":80,"protocol":"TCP"}}), in its order. */
    private static List<String> keys(String pathElement) {
        List<String> names = new ArrayList<>();
        try {
            Json.MAPPER.readTree(pathElement.substring(2)).fieldNames().forEachRemaining(names::add);
        } catch (java.io.IOException e) {
            // not a key we wrote: it matches nothing
        }
        return names;
    }

    /** The path element of a keyed-list element: {@code k:} and its key fields as compact JSON, sorted by name. */
    static String elementKey(List<String> keys, JsonNode element) {
        TreeMap<String, JsonNode> key = new TreeMap<>();
        for (String k : keys) {
            JsonNode v = element.get(k);
            if (v == null || v.isNull()) {
                String d = KEY_DEFAULTS.get(k);
                if (d != null) {
                    key.put(k, NODES.textNode(d));
                }
            } else {
                key.put(k, v);
            }
        }
        ObjectNode n = NODES.objectNode();
        key.forEach(n::set);
        return "k:" + n;
    }

    static String setKey(JsonNode value) {
        return "v:" + value.toString();
    }

    // ------------------------------------------------------------------ field sets

    /** Every field path the object sets (nulls are absent). */
    public FieldSet fieldsOf(JsonNode object) {
        FieldSet out = FieldSet.empty();
        walk(object, root, "", true, new ArrayList<>(), out);
        return out;
    }

    private void walk(JsonNode value, Schema s, String field, boolean atRoot, List<String> path, FieldSet out) {
        Form form = atRoot ? Form.STRUCT : form(s, field);
        switch (form) {
            case STRUCT, MAP -> {
                if (!value.isObject()) {
                    out.add(path);
                    return;
                }
                if (form == Form.MAP) {
                    out.add(path);
                }
                boolean any = false;
                for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getValue().isNull()) {
                        continue;
                    }
                    any = true;
                    path.add("f:" + e.getKey());
                    walk(e.getValue(), child(s, e.getKey(), atRoot), e.getKey(), false, path, out);
                    path.remove(path.size() - 1);
                }
                if (!any && form == Form.STRUCT && !atRoot) {
                    out.add(path); // an empty struct ({} as in emptyDir: {}) is a value of its own
                }
            }
            case KEYED -> {
                if (!value.isArray()) {
                    out.add(path);
                    return;
                }
                Schema element = unwrap(s.getElementType());
                List<String> keys = keys(field, element);
                for (JsonNode e : value) {
                    if (!e.isObject()) {
                        continue;
                    }
                    path.add(elementKey(keys, e));
                    out.add(path);
                    for (Iterator<Map.Entry<String, JsonNode>> it = e.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> f = it.next();
                        if (f.getValue().isNull()) {
                            continue;
                        }
                        path.add("f:" + f.getKey());
                        walk(f.getValue(), child(element, f.getKey(), false), f.getKey(), false, path, out);
                        path.remove(path.size() - 1);
                    }
                    path.remove(path.size() - 1);
                }
            }
            case SET -> {
                if (!value.isArray()) {
                    out.add(path);
                    return;
                }
                out.add(path);
                for (JsonNode e : value) {
                    path.add(setKey(e));
                    out.add(path);
                    path.remove(path.size() - 1);
                }
            }
            case LEAF -> out.add(path);
        }
    }

    // ------------------------------------------------------------------ navigation

    /** The value at a path, or null. */
    public static JsonNode get(JsonNode object, List<String> path) {
        JsonNode at = object;
        for (String p : path) {
            if (at == null) {
                return null;
            }
            if (p.startsWith("f:")) {
                at = at.isObject() ? at.get(p.substring(2)) : null;
            } else if (p.startsWith("k:") || p.startsWith("v:")) {
                at = element(at, p);
            } else {
                return null;
            }
        }
        return at == null || at.isNull() ? null : at;
    }

    /** The element a {@code k:} or {@code v:} path element names; a key names its own key fields. */
    private static JsonNode element(JsonNode list, String p) {
        if (list == null || !list.isArray()) {
            return null;
        }
        for (JsonNode e : list) {
            String key = p.startsWith("k:") ? (e.isObject() ? elementKey(keys(p), e) : null) : setKey(e);
            if (p.equals(key)) {
                return e;
            }
        }
        return null;
    }

    /** Removes the value at a path, if present. */
    public static void remove(JsonNode object, List<String> path) {
        if (path.isEmpty()) {
            return;
        }
        JsonNode parent = get(object, path.subList(0, path.size() - 1));
        if (path.size() == 1) {
            parent = object;
        }
        String last = path.get(path.size() - 1);
        if (parent instanceof ObjectNode o && last.startsWith("f:")) {
            o.remove(last.substring(2));
        } else if (parent instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                JsonNode e = a.get(i);
                String key = last.startsWith("k:") ? (e.isObject() ? elementKey(keys(last), e) : null) : setKey(e);
                if (last.equals(key)) {
                    a.remove(i);
                    return;
                }
            }
        }
    }

    /** Kubernetes' printed form of a path: {@code .spec.containers[name="nginx"].image}. */
    public static String describe(List<String> path) {
        StringBuilder sb = new StringBuilder();
        for (String p : path) {
            if (p.startsWith("f:")) {
                sb.append('.').append(p.substring(2));
            } else if (p.startsWith("k:")) {
                try {
                    JsonNode key = Json.MAPPER.readTree(p.substring(2));
                    List<String> parts = new ArrayList<>();
                    key.fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue()));
                    sb.append('[').append(String.join(",", parts)).append(']');
                } catch (java.io.IOException e) {
                    sb.append('[').append(p.substring(2)).append(']');
                }
            } else if (p.startsWith("v:")) {
                sb.append("[=").append(p.substring(2)).append(']');
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------ merge

    /** {@code applied} merged into a copy of {@code live}: structs and maps by field, keyed lists by key, sets as sets. */
    public ObjectNode merge(ObjectNode live, ObjectNode applied) {
        return (ObjectNode) merge(live == null ? NODES.objectNode() : live.deepCopy(), applied, root, "", true);
    }

    private JsonNode merge(JsonNode live, JsonNode applied, Schema s, String field, boolean atRoot) {
        Form form = atRoot ? Form.STRUCT : form(s, field);
        switch (form) {
            case STRUCT, MAP -> {
                if (!applied.isObject() || live == null || !live.isObject()) {
                    return applied.deepCopy();
                }
                ObjectNode out = (ObjectNode) live;
                applied.fields().forEachRemaining(e -> {
                    if (e.getValue().isNull()) {
                        return;
                    }
                    JsonNode current = out.get(e.getKey());
                    out.set(e.getKey(), current == null ? e.getValue().deepCopy()
                            : merge(current, e.getValue(), child(s, e.getKey(), atRoot), e.getKey(), false));
                });
                return out;
            }
            case KEYED -> {
                if (!applied.isArray() || live == null || !live.isArray()) {
                    return applied.deepCopy();
                }
                ArrayNode out = (ArrayNode) live;
                Schema element = unwrap(s.getElementType());
                List<String> keys = keys(field, element);
                for (JsonNode a : applied) {
                    if (!a.isObject()) {
                        continue;
                    }
                    String key = elementKey(keys, a);
                    boolean found = false;
                    for (int i = 0; i < out.size(); i++) {
                        if (out.get(i).isObject() && elementKey(keys, out.get(i)).equals(key)) {
                            out.set(i, merge(out.get(i), a, element, "", false));
                            found = true;
                            break;
                        }
                    }
                    if (!found) {
                        out.add(a.deepCopy());
                    }
                }
                return out;
            }
            case SET -> {
                if (!applied.isArray() || live == null || !live.isArray()) {
                    return applied.deepCopy();
                }
                ArrayNode out = (ArrayNode) live;
                for (JsonNode a : applied) {
                    boolean present = false;
                    for (JsonNode e : out) {
                        present |= e.equals(a);
                    }
                    if (!present) {
                        out.add(a.deepCopy());
                    }
                }
                return out;
            }
            default -> {
                return applied.deepCopy();
            }
        }
    }
}
