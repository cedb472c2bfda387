package io.eventplane.gateway.fields;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Field ownership as kube-apiserver tracks it in {@code metadata.managedFields}: pure functions from the stored object,
 * the written object and the stored entries to the new entries (and, for server-side apply, the merged object or the
 * conflicts). One entry per manager, operation ({@code Apply} or {@code Update}) and subresource.
 */
public final class ManagedFields {
    public static final String APPLY = "Apply";
    public static final String UPDATE = "Update";
    /** Object metadata the server owns: never part of anyone's field set. */
    private static final Set<String> SERVER_METADATA = Set.of("name", "namespace", "generateName", "uid",
            "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
            "managedFields", "selfLink");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private ManagedFields() {
    }

    /** One managedFields entry; {@code subresource} is empty for the main resource. */
    public record Entry(String manager, String operation, String apiVersion, String time, String subresource,
                        FieldSet fields) {
        boolean sameOwner(String m, String op, String sub) {
            return manager.equals(m) && operation.equals(op) && subresource.equals(sub);
        }

        /** As Kubernetes prints a manager in conflict messages. */
        String printed() {
            String s = "\"" + manager + "\"";
            if (!subresource.isEmpty()) {
                s += " with subresource \"" + subresource + "\"";
            }
            return operation.equals(UPDATE) ? s + " using " + apiVersion : s;
        }
    }

    /** A field another manager owns with another value. */
    public record Conflict(Entry owner, List<String> path) {
    }

    public static final class ConflictException extends RuntimeException {
        private final List<Conflict> conflicts;

        ConflictException(List<Conflict> conflicts) {
            super(message(conflicts));
            this.conflicts = List.copyOf(conflicts);
        }

        public List<Conflict> conflicts() {
            return conflicts;
        }
    }

    /** The applied object and the entries after a server-side apply. */
    public record Applied(ObjectNode object, List<Entry> entries) {
    }

    // ------------------------------------------------------------------ entries <-> JSON

    /** The entries of an object's {@code metadata.managedFields} (JSON as served). */
    public static List<Entry> read(JsonNode object) {
        List<Entry> out = new ArrayList<>();
        for (JsonNode e : object.path("metadata").path("managedFields")) {
            if (!e.isObject() || e.path("manager").asText("").isEmpty() && e.path("fieldsV1").isMissingNode()) {
                continue;
            }
            out.add(new Entry(e.path("manager").asText(""), e.path("operation").asText(UPDATE),
                    e.path("apiVersion").asText(""), e.path("time").isTextual() ? e.path("time").asText() : null,
                    e.path("subresource").asText(""), FieldSet.fromJson(e.path("fieldsV1"))));
        }
        return out;
    }

    /** Writes the entries into {@code object.metadata.managedFields}. */
    public static void write(ObjectNode object, List<Entry> entries) {
        JsonNode meta = object.get("metadata");
        ObjectNode m = meta instanceof ObjectNode o ? o : object.putObject("metadata");
        ArrayNode a = m.putArray("managedFields");
        for (Entry e : entries) {
            ObjectNode n = a.addObject();
            n.put("manager", e.manager());
            n.put("operation", e.operation());
            n.put("apiVersion", e.apiVersion());
            if (e.time() != null) {
                n.put("time", e.time());
            }
            n.put("fieldsType", "FieldsV1");
            n.set("fieldsV1", e.fields().toJson());
            if (!e.subresource().isEmpty()) {
                n.put("subresource", e.subresource());
            }
        }
    }

    // ------------------------------------------------------------------ field sets of writes

    /** The fields a write through {@code subresource} can own: status for "status", replicas for "scale". */
    static FieldSet scoped(ObjectShape shape, JsonNode object, String subresource) {
        FieldSet all = shape.fieldsOf(object);
        FieldSet out = FieldSet.empty();
        for (List<String> p : all.members()) {
            if (p.isEmpty()) {
                continue;
            }
            String top = p.get(0);
            if (top.equals("f:apiVersion") || top.equals("f:kind")) {
                continue;
            }
            if (top.equals("f:metadata") && p.size() > 1 && SERVER_METADATA.contains(p.get(1).substring(2))) {
                continue;
            }
            boolean keep = switch (subresource) {
                case "status" -> top.equals("f:status");
                case "scale" -> p.equals(List.of("f:spec", "f:replicas"));
                default -> !top.equals("f:status");
            };
            if (keep) {
                out.add(p);
            }
        }
        return out;
    }

    /** Fields set in {@code after} that were absent in {@code before} or held another value. */
    static FieldSet changed(ObjectShape shape, JsonNode before, JsonNode after, String subresource) {
        FieldSet afterSet = scoped(shape, after, subresource);
        FieldSet out = FieldSet.empty();
        for (List<String> p : afterSet.members()) {
            if (afterSet.hasChildren(p)) {
                if (before == null || ObjectShape.get(before, p) == null) {
                    out.add(p); // a new map or list element
                }
                continue;
            }
            JsonNode was = before == null ? null : ObjectShape.get(before, p);
            if (!Objects.equals(was, ObjectShape.get(after, p))) {
                out.add(p);
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ Update

    /**
     * The entries after an ordinary write (create, update, patch, scale, status) by {@code manager}: it takes over every
     * field it added or changed, and a field it removed leaves everyone's set. Unchanged when nothing changed.
     *
     * @param before the stored object (null on create)
     */
    public static List<Entry> update(ObjectShape shape, JsonNode before, JsonNode after, List<Entry> entries,
                                     String manager, String subresource, String apiVersion, Instant now) {
        FieldSet owned = changed(shape, before, after, subresource);
        FieldSet removed = before == null ? FieldSet.empty()
                : FieldSet.minus(scoped(shape, before, subresource), scoped(shape, after, subresource));
        if (owned.isEmpty() && removed.isEmpty()) {
            return entries;
        }
        List<Entry> out = new ArrayList<>();
        boolean mine = false;
        for (Entry e : entries) {
            if (e.sameOwner(manager, UPDATE, subresource)) {
                mine = true;
                FieldSet f = FieldSet.minus(FieldSet.union(e.fields(), owned), removed);
                out.add(new Entry(manager, UPDATE, apiVersion, f.equals(e.fields()) ? e.time() : time(now),
                        subresource, f));
            } else {
                out.add(new Entry(e.manager(), e.operation(), e.apiVersion(), e.time(), e.subresource(),
                        FieldSet.minus(FieldSet.minus(e.fields(), owned), removed)));
            }
        }
        if (!mine) {
            out.add(new Entry(manager, UPDATE, apiVersion, time(now), subresource, FieldSet.minus(owned, removed)));
        }
        out.removeIf(e -> e.fields().isEmpty());
        return out;
    }

    // ------------------------------------------------------------------ Apply

    /**
     * Server-side apply of {@code applied} by {@code manager} to {@code live} (null when the object does not exist):
     * the configuration is merged in, fields this manager applied before and no longer applies are removed unless
     * someone else owns them, and the manager's Apply entry becomes exactly the applied fields.
     *
     * @throws ConflictException when, without {@code force}, the apply changes a field another manager owns
     */
    public static Applied apply(ObjectShape shape, ObjectNode live, ObjectNode applied, List<Entry> entries,
                                String manager, String subresource, String apiVersion, boolean force, Instant now) {
        FieldSet appliedSet = scoped(shape, applied, subresource);
        ObjectNode config = applied.deepCopy();
        if (subresource.isEmpty()) {
            config.remove("status"); // the main resource does not write status
        } else if (subresource.equals("status")) {
            config.retain("status", "apiVersion", "kind", "metadata");
        }
        ObjectNode merged = shape.merge(live, config);
        FieldSet changed = changed(shape, live, merged, subresource);

        Entry previous = null;
        List<Entry> others = new ArrayList<>();
        for (Entry e : entries) {
            if (e.sameOwner(manager, APPLY, subresource)) {
                previous = e;
            } else {
                others.add(e);
            }
        }
        List<Conflict> conflicts = new ArrayList<>();
        List<Entry> kept = new ArrayList<>();
        for (Entry e : others) {
            FieldSet taken = FieldSet.intersect(changed, e.fields());
            if (taken.isEmpty()) {
                kept.add(e);
            } else if (force) {
                kept.add(new Entry(e.manager(), e.operation(), e.apiVersion(), e.time(), e.subresource(),
                        FieldSet.minus(e.fields(), taken)));
            } else {
                for (List<String> p : taken.members()) {
                    if (!taken.hasChildren(p)) {
                        conflicts.add(new Conflict(e, p));
                    }
                }
                if (conflicts.isEmpty()) {
                    taken.members().forEach(p -> conflicts.add(new Conflict(e, p)));
                }
            }
        }
        if (!conflicts.isEmpty()) {
            throw new ConflictException(conflicts);
        }
        FieldSet ownedByOthers = FieldSet.empty();
        for (Entry e : kept) {
            ownedByOthers = FieldSet.union(ownedByOthers, e.fields());
        }
        if (previous != null) {
            FieldSet dropped = FieldSet.minus(FieldSet.minus(previous.fields(), appliedSet), ownedByOthers);
            for (List<String> p : dropped.members()) { // parents first: an element goes with its fields
                if (!ownedByOthers.touches(p)) {
                    ObjectShape.remove(merged, p);
                }
            }
        }
        List<Entry> out = new ArrayList<>();
        boolean placed = false;
        for (Entry e : entries) {
            if (e == previous) {
                out.add(new Entry(manager, APPLY, apiVersion, appliedSet.equals(e.fields()) ? e.time() : time(now),
                        subresource, appliedSet));
                placed = true;
            } else {
                for (Entry k : kept) {
                    if (k.sameOwner(e.manager(), e.operation(), e.subresource())) {
                        out.add(k);
                    }
                }
            }
        }
        if (!placed) {
            out.add(new Entry(manager, APPLY, apiVersion, time(now), subresource, appliedSet));
        }
        out.removeIf(e -> e.fields().isEmpty());
        return new Applied(merged, out);
    }

    private static String time(Instant now) {
        return now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
    }

    /** kube-apiserver's wording: {@code Apply failed with 1 conflict: conflict with "m" using apps/v1: .spec.replicas}. */
    static String message(List<Conflict> conflicts) {
        if (conflicts.size() == 1) {
            Conflict c = conflicts.get(0);
            return "Apply failed with 1 conflict: conflict with " + c.owner().printed() + ": "
                    + ObjectShape.describe(c.path());
        }
        Map<String, List<Conflict>> byManager = new TreeMap<>();
        Map<String, Entry> owners = new LinkedHashMap<>();
        for (Conflict c : conflicts) {
            String key = c.owner().manager() + "\u0000" + c.owner().operation() + "\u0000" + c.owner().subresource();
            byManager.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
            owners.put(key, c.owner());
        }
        List<String> lines = new ArrayList<>();
        byManager.forEach((k, cs) -> {
            lines.add("conflicts with " + owners.get(k).printed() + ":");
            cs.forEach(c -> lines.add("- " + ObjectShape.describe(c.path())));
        });
        return "Apply failed with " + conflicts.size() + " conflicts: " + String.join("\n", lines);
    }

    /** The conflict message of one conflict, as a Status cause says it. */
    public static String causeMessage(Conflict c) {
        return "conflict with " + c.owner().printed();
    }
}
