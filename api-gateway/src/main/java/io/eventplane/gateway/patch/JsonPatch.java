package io.eventplane.gateway.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** RFC 6902 JSON patch ({@code application/json-patch+json}): add, remove, replace, move, copy, test. */
final class JsonPatch {
    /** Numbers compare by value (1 equals 1.0), everything else structurally. */
    private static final Comparator<JsonNode> VALUE_EQUALITY = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private JsonPatch() {
    }

    static JsonNode apply(JsonNode document, JsonNode patch) {
        if (!patch.isArray()) {
            throw new PatchException("a JSON patch must be an array of operations");
        }
        JsonNode doc = document.deepCopy();
        for (JsonNode op : patch) {
            if (!op.isObject() || !op.path("op").isTextual() || !op.path("path").isTextual()) {
                throw new PatchException("invalid JSON patch operation: " + op);
            }
            String path = op.get("path").textValue();
            doc = switch (op.get("op").textValue()) {
                case "add" -> add(doc, path, value(op));
                case "remove" -> remove(doc, path);
                case "replace" -> replace(doc, path, value(op));
                case "move" -> {
                    String from = from(op);
                    if (path.startsWith(from + "/")) {
                        throw new PatchException("move operation cannot move " + from + " into its own child " + path);
                    }
                    JsonNode moved = get(doc, from);
                    yield add(remove(doc, from), path, moved);
                }
                case "copy" -> add(doc, path, get(doc, from(op)).deepCopy());
                case "test" -> {
                    JsonNode actual = get(doc, path);
                    if (!actual.equals(VALUE_EQUALITY, value(op))) {
                        throw new PatchException("testing value " + path + " failed");
                    }
                    yield doc;
                }
                default -> throw new PatchException("unexpected JSON patch operation \"" + op.get("op").textValue() + "\"");
            };
        }
        return doc;
    }

    private static JsonNode value(JsonNode op) {
        if (!op.has("value")) {
            throw new PatchException("operation " + op.get("op").textValue() + " on " + op.get("path").textValue()
                    + " has no value");
        }
        return op.get("value").deepCopy();
    }

    private static String from(JsonNode op) {
        if (!op.path("from").isTextual()) {
            throw new PatchException("operation " + op.get("op").textValue() + " has no from");
        }
        return op.get("from").textValue();
    }

    private static List<String> tokens(String pointer) {
        if (pointer.isEmpty()) {
            return List.of();
        }
        if (!pointer.startsWith("/")) {
            throw new PatchException("invalid JSON pointer \"" + pointer + "\"");
        }
        List<String> out = new ArrayList<>();
        for (String t : pointer.substring(1).split("/", -1)) {
            out.add(t.replace("~1", "/").replace("~0", "~"));
        }
        return out;
    }

    static JsonNode get(JsonNode doc, String pointer) {
        JsonNode cur = doc;
        for (String t : tokens(pointer)) {
            cur = child(cur, t, pointer);
        }
        return cur;
    }

    private static JsonNode child(JsonNode node, String token, String pointer) {
        JsonNode next = null;
        if (node.isObject()) {
            next = node.get(token);
        } else if (node.isArray()) {
            next = node.get(index(token, node.size() - 1, pointer));
        }
        if (next == null) {
            throw new PatchException("doc is missing path: \"" + pointer + "\"");
        }
        return next;
    }

    private static int index(String token, int max, String pointer) {
        try {
            int i = Integer.parseInt(token);
            if (i < 0 || i > max || (token.length() > 1 && token.startsWith("0"))) {
                throw new NumberFormatException();
            }
            return i;
        } catch (NumberFormatException e) {
            throw new PatchException("invalid array index \"" + token + "\" in \"" + pointer + "\"");
        }
    }

    private static JsonNode parent(JsonNode doc, List<String> tokens, String pointer) {
        JsonNode cur = doc;
        for (int i = 0; i < tokens.size() - 1; i++) {
            cur = child(cur, tokens.get(i), pointer);
        }
        if (!cur.isContainerNode()) {
            throw new PatchException("doc is missing path: \"" + pointer + "\"");
        }
        return cur;
    }

    private static JsonNode add(JsonNode doc, String pointer, JsonNode value) {
        List<String> t = tokens(pointer);
        if (t.isEmpty()) {
            return value;
        }
        JsonNode parent = parent(doc, t, pointer);
        String last = t.get(t.size() - 1);
        if (parent.isObject()) {
            ((ObjectNode) parent).set(last, value);
        } else {
            ArrayNode a = (ArrayNode) parent;
            if (last.equals("-")) {
                a.add(value);
            } else {
                a.insert(index(last, a.size(), pointer), value);
            }
        }
        return doc;
    }

    private static JsonNode remove(JsonNode doc, String pointer) {
        List<String> t = tokens(pointer);
        if (t.isEmpty()) {
            throw new PatchException("cannot remove the whole document");
        }
        JsonNode parent = parent(doc, t, pointer);
        String last = t.get(t.size() - 1);
        if (parent.isObject()) {
            if (!parent.has(last)) {
                throw new PatchException("unable to remove nonexistent key: " + last + ": missing value");
            }
            ((ObjectNode) parent).remove(last);
        } else {
            ((ArrayNode) parent).remove(index(last, parent.size() - 1, pointer));
        }
        return doc;
    }

    private static JsonNode replace(JsonNode doc, String pointer, JsonNode value) {
        List<String> t = tokens(pointer);
        if (t.isEmpty()) {
            return value;
        }
        JsonNode parent = parent(doc, t, pointer);
        String last = t.get(t.size() - 1);
        if (parent.isObject()) {
            if (!parent.has(last)) {
                throw new PatchException("replace operation does not apply: doc is missing key: " + pointer);
            }
            ((ObjectNode) parent).set(last, value);
        } else {
            ((ArrayNode) parent).set(index(last, parent.size() - 1, pointer), value);
        }
        return doc;
    }
}
