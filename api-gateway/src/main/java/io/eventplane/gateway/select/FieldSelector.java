package io.eventplane.gateway.select;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Statuses;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * A parsed {@code fieldSelector}: {@code field=value}, {@code field==value}, {@code field!=value}, comma-separated,
 * over the fields Kubernetes supports for each kind.
 */
public final class FieldSelector {
    private static final Set<String> COMMON = Set.of("metadata.name", "metadata.namespace");
    /** The selectable fields beyond metadata.name/namespace, as kube-apiserver registers them per kind. */
    private static final Map<String, Set<String>> FIELDS = Map.of(
            "Pod", Set.of("spec.nodeName", "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
                    "spec.hostNetwork", "status.phase", "status.podIP", "status.nominatedNodeName"),
            "Node", Set.of("spec.unschedulable"),
            "Namespace", Set.of("status.phase"),
            "Secret", Set.of("type"),
            "Service", Set.of("spec.clusterIP", "spec.type"),
            "Event", Set.of("involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
                    "involvedObject.uid", "involvedObject.apiVersion", "involvedObject.resourceVersion",
                    "involvedObject.fieldPath", "reason", "reportingComponent", "source", "type"));
    /** Boolean fields that read as "false" when absent. */
    private static final Set<String> BOOLEANS = Set.of("spec.hostNetwork", "spec.unschedulable");

    private record Requirement(String field, boolean equals, String value) {
    }

    public static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    private final List<Requirement> requirements;

    private FieldSelector(List<Requirement> requirements) {
        this.requirements = requirements;
    }

    public boolean isEmpty() {
        return requirements.isEmpty();
    }

    /** The name the selector pins with {@code metadata.name=x}, or null. */
    public String exactName() {
        for (Requirement r : requirements) {
            if (r.field().equals("metadata.name") && r.equals()) {
                return r.value();
            }
        }
        return null;
    }

    /** Whether only immutable fields (name, namespace) are selected: matching never changes over an object's life. */
    /** The value an equality requirement on {@code field} asks for, or null (lets a list use an index). */
    public String exactValue(String field) {
        for (Requirement r : requirements) {
            if (r.field().equals(field) && r.equals()) {
                return r.value();
            }
        }
        return null;
    }

    public boolean onlyIdentity() {
        return requirements.stream().allMatch(r -> COMMON.contains(r.field()));
    }

    public boolean matches(SpecificRecord object) {
        for (Requirement r : requirements) {
            String v = value(object, r.field());
            if (r.equals() != v.equals(r.value())) {
                return false;
            }
        }
        return true;
    }

    /** @throws ApiException 400 for a malformed selector or an unsupported field */
    public static FieldSelector parse(String text, KindInfo kind) {
        if (text == null || text.isBlank()) {
            return EVERYTHING;
        }
        List<Requirement> out = new ArrayList<>();
        for (String part : split(text)) {
            String p = part.trim();
            int i;
            boolean equals;
            int skip;
            if ((i = p.indexOf("!=")) > 0) {
                equals = false;
                skip = 2;
            } else if ((i = p.indexOf("==")) > 0) {
                equals = true;
                skip = 2;
            } else if ((i = p.indexOf('=')) > 0) {
                equals = true;
                skip = 1;
            } else {
                throw new ApiException(Statuses.badRequest("invalid selector: '" + text
                        + "'; can't understand '" + p + "'"));
            }
            String field = p.substring(0, i).trim();
            if (!COMMON.contains(field) && !FIELDS.getOrDefault(kind.kind(), Set.of()).contains(field)) {
                throw new ApiException(Statuses.badRequest("field label not supported: " + field));
            }
            out.add(new Requirement(field, equals, unescape(p.substring(i + skip).trim())));
        }
        return new FieldSelector(out);
    }

    /** The value of a selectable field, "" when absent. */
    static String value(SpecificRecord object, String path) {
        String effective = path.equals("source") ? "source.component" : path;
        Object v = object;
        for (String part : effective.split("\\.")) {
            if (!(v instanceof SpecificRecordBase r) || r.getSchema().getField(part) == null) {
                v = null;
                break;
            }
            v = r.get(part);
        }
        if (v == null) {
            return BOOLEANS.contains(path) ? "false" : "";
        }
        return v.toString();
    }

    /** Splits on commas that are not escaped with a backslash. */
    private static List<String> split(String text) {
        List<String> parts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                cur.append(c).append(text.charAt(++i));
            } else if (c == ',') {
                parts.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        parts.add(cur.toString());
        return parts;
    }

    private static String unescape(String s) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                c = s.charAt(++i);
            }
            sb.append(c);
        }
        return sb.toString();
    }
}
