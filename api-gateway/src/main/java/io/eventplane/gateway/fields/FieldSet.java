package io.eventplane.gateway.fields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A set of field paths in Kubernetes' FieldsV1 form: a tree keyed by path elements ({@code f:name} for a field or
 * map key, {@code k:{"name":"nginx"}} for an element of a keyed list, {@code v:"x"} for an element of a set). A node
 * is a member of the set itself when it is a leaf, or when it carries {@code "."}. Mutable; owned by one caller.
 */
public final class FieldSet {
    private boolean member;
    private final TreeMap<String, FieldSet> children = new TreeMap<>();

    public static FieldSet empty() {
        return new FieldSet();
    }

    /** Parses a FieldsV1 object; anything that is not an object reads as empty. */
    public static FieldSet fromJson(JsonNode fieldsV1) {
        FieldSet s = new FieldSet();
        if (fieldsV1 == null || !fieldsV1.isObject()) {
            return s;
        }
        fieldsV1.fields().forEachRemaining(e -> {
            if (e.getKey().equals(".")) {
                s.member = true;
            } else {
                FieldSet c = fromJson(e.getValue());
                if (c.children.isEmpty()) {
                    c.member = true;
                }
                s.children.put(e.getKey(), c);
            }
        });
        return s;
    }

    public ObjectNode toJson() {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        if (member && !children.isEmpty()) {
            n.putObject(".");
        }
        children.forEach((k, c) -> n.set(k, c.toJson()));
        return n;
    }

    /** Adds one path as a member. */
    public void add(List<String> path) {
        FieldSet at = this;
        for (String p : path) {
            at = at.children.computeIfAbsent(p, k -> new FieldSet());
        }
        at.member = true;
    }

    public boolean contains(List<String> path) {
        FieldSet at = this;
        for (String p : path) {
            at = at.children.get(p);
            if (at == null) {
                return false;
            }
        }
        return at.member;
    }

    public boolean isEmpty() {
        return !member && children.isEmpty();
    }

    /** Every member path, parents before their children. */
    public List<List<String>> members() {
        List<List<String>> out = new ArrayList<>();
        collect(new ArrayList<>(), out);
        return out;
    }

    private void collect(List<String> prefix, List<List<String>> out) {
        if (member) {
            out.add(List.copyOf(prefix));
        }
        for (Map.Entry<String, FieldSet> e : children.entrySet()) {
            prefix.add(e.getKey());
            e.getValue().collect(prefix, out);
            prefix.remove(prefix.size() - 1);
        }
    }

    /** Whether a member path has member paths below it (a map or list element, as opposed to a leaf). */
    public boolean hasChildren(List<String> path) {
        FieldSet at = this;
        for (String p : path) {
            at = at.children.get(p);
            if (at == null) {
                return false;
            }
        }
        return !at.children.isEmpty();
    }

    /** Whether the path or anything below it is a member. */
    public boolean touches(List<String> path) {
        FieldSet at = this;
        for (String p : path) {
            at = at.children.get(p);
            if (at == null) {
                return false;
            }
        }
        return !at.isEmpty();
    }

    public FieldSet copy() {
        return union(this, empty());
    }

    public static FieldSet union(FieldSet a, FieldSet b) {
        FieldSet out = new FieldSet();
        for (List<String> p : a.members()) {
            out.add(p);
        }
        for (List<String> p : b.members()) {
            out.add(p);
        }
        return out;
    }

    /** The members of {@code a} that are not members of {@code b}. */
    public static FieldSet minus(FieldSet a, FieldSet b) {
        FieldSet out = new FieldSet();
        for (List<String> p : a.members()) {
            if (!b.contains(p)) {
                out.add(p);
            }
        }
        return out;
    }

    public static FieldSet intersect(FieldSet a, FieldSet b) {
        FieldSet out = new FieldSet();
        for (List<String> p : a.members()) {
            if (b.contains(p)) {
                out.add(p);
            }
        }
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FieldSet f && members().equals(f.members());
    }

    @Override
    public int hashCode() {
        return members().hashCode();
    }

    @Override
    public String toString() {
        return toJson().toString();
    }
}
