package io.eventplane.core.customavro;

import io.eventplane.model.apiextensions.JSONSchemaProps;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;

/**
 * The Avro schema of a custom kind's version, from its OpenAPI v3 schema: what the log stores a custom object's body
 * (every field but apiVersion, kind and metadata; status included) as. Objects with properties are records, arrays
 * arrays, additionalProperties maps; what has no fixed shape (x-kubernetes-int-or-string, preserve-unknown-fields
 * without properties, embedded resources, untyped values) is its JSON text in a string field; fields not required
 * (or nullable, or defaulted) are unions with null. Deterministic: fields in JSON-name order, records named by their
 * path, so the same OpenAPI schema always gives the same Avro schema (and the same registry id).
 */
public final class CustomAvroSchemas {
    /** On a field: its JSON name (Avro names allow fewer characters). */
    static final String JSON_NAME = "eventplane.jsonName";
    /** On a string: it holds JSON text, parsed back when decoding. */
    static final String JSON_TEXT = "eventplane.json";
    /** The field of a record with x-kubernetes-preserve-unknown-fields holding its other fields as a JSON object. */
    static final String UNKNOWN_FIELDS = "_unknownFields";
    private static final Set<String> OBJECT_META = Set.of("apiVersion", "kind", "metadata");

    private CustomAvroSchemas() {
    }

    /** The registry subject of a group's version of a kind. */
    public static String subject(String group, String version, String kind) {
        return "crd." + group + "." + version + "." + kind;
    }

    /** The Avro schema of the body of objects of {@code kind} at {@code group/version} with {@code openApi}. */
    public static Schema of(String group, String version, String kind, JSONSchemaProps openApi) {
        return new Builder(namespace(group, version)).root(name(kind), openApi);
    }

    private static String namespace(String group, String version) {
        List<String> parts = new ArrayList<>(List.of("eventplane", "crd"));
        for (String p : (group.isEmpty() ? "core" : group).split("\\.")) {
            parts.add(name(p));
        }
        parts.add(name(version));
        return String.join(".", parts);
    }

    /** A valid Avro name for {@code s}: other characters become '_', a leading digit gets one. */
    static String name(String s) {
        StringBuilder b = new StringBuilder(s.length() + 1);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c < 128 && (Character.isLetterOrDigit(c) || c == '_') ? c : '_');
        }
        if (b.isEmpty() || Character.isDigit(b.charAt(0))) {
            b.insert(0, '_');
        }
        return b.toString();
    }

    static boolean isJsonText(Schema s) {
        return s.getType() == Schema.Type.STRING && "true".equals(s.getProp(JSON_TEXT));
    }

    static String jsonName(Schema.Field f) {
        String json = f.getProp(JSON_NAME);
        return json == null ? f.name() : json;
    }

    private static final class Builder {
        private final String namespace;
        private final Set<String> names = new HashSet<>();

        Builder(String namespace) {
            this.namespace = namespace;
        }

        Schema root(String kind, JSONSchemaProps s) {
            Map<String, JSONSchemaProps> props = new TreeMap<>(s == null || s.getProperties() == null ? Map.of()
                    : s.getProperties());
            props.keySet().removeAll(OBJECT_META);
            boolean preserve = s == null || Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields());
            return record(kind, props, s == null ? List.of() : s.getRequired(), preserve);
        }

        private Schema record(String name, Map<String, JSONSchemaProps> props, List<String> required,
                              boolean preserveUnknown) {
            String unique = name;
            for (int i = 2; !names.add(unique); i++) {
                unique = name + "_" + i;
            }
            List<Schema.Field> fields = new ArrayList<>();
            Set<String> fieldNames = new HashSet<>();
            for (Map.Entry<String, JSONSchemaProps> p : new TreeMap<>(props).entrySet()) {
                String fieldName = name(p.getKey());
                for (int i = 2; fieldName.equals(UNKNOWN_FIELDS) || !fieldNames.add(fieldName); i++) {
                    fieldName = name(p.getKey()) + "_" + i;
                }
                JSONSchemaProps ps = p.getValue();
                Schema type = type(unique + "_" + name(p.getKey()), ps);
                boolean mandatory = required != null && required.contains(p.getKey())
                        && !Boolean.TRUE.equals(ps.getNullable()) && ps.getDefault$() == null;
                Schema.Field f = mandatory ? new Schema.Field(fieldName, type)
                        : new Schema.Field(fieldName, nullable(type), null, JsonProperties.NULL_VALUE);
                if (!fieldName.equals(p.getKey())) {
                    f.addProp(JSON_NAME, p.getKey());
                }
                fields.add(f);
            }
            if (preserveUnknown) {
                fields.add(new Schema.Field(UNKNOWN_FIELDS, nullable(jsonText()), null, JsonProperties.NULL_VALUE));
            }
            return Schema.createRecord(unique, null, namespace, false, fields);
        }

        private Schema type(String path, JSONSchemaProps s) {
            if (Boolean.TRUE.equals(s.getXKubernetesIntOrString()) || Boolean.TRUE.equals(s.getXKubernetesEmbeddedResource())
                    || s.getType() == null) {
                return jsonText();
            }
            boolean preserve = Boolean.TRUE.equals(s.getXKubernetesPreserveUnknownFields());
            Schema t = switch (s.getType()) {
                case "string" -> Schema.create(Schema.Type.STRING);
                case "integer" -> Schema.create(Schema.Type.LONG);
                case "number" -> Schema.create(Schema.Type.DOUBLE);
                case "boolean" -> Schema.create(Schema.Type.BOOLEAN);
                case "array" -> s.getItems() == null ? jsonText()
                        : Schema.createArray(element(path + "_item", s.getItems()));
                case "object" -> {
                    if (s.getProperties() != null && !s.getProperties().isEmpty()) {
                        yield record(path, s.getProperties(), s.getRequired(), preserve);
                    }
                    if (s.getAdditionalProperties() instanceof JSONSchemaProps values && !preserve) {
                        yield Schema.createMap(element(path + "_value", values));
                    }
                    yield jsonText();
                }
                default -> jsonText();
            };
            return t;
        }

        private Schema element(String path, JSONSchemaProps s) {
            Schema t = type(path, s);
            return Boolean.TRUE.equals(s.getNullable()) ? nullable(t) : t;
        }
    }

    private static Schema jsonText() {
        Schema s = Schema.create(Schema.Type.STRING);
        s.addProp(JSON_TEXT, "true");
        return s;
    }

    private static Schema nullable(Schema t) {
        if (t.getType() == Schema.Type.UNION) {
            return t;
        }
        return Schema.createUnion(Schema.create(Schema.Type.NULL), t);
    }
}
