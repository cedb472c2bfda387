package io.eventplane.gateway.discovery;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.eventplane.core.kinds.FieldRenames;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.patch.ListStrategies;
import io.eventplane.gateway.wire.Json;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.avro.specific.SpecificData;

/**
 * OpenAPI v3 component schemas generated from the Avro schemas of the served kinds, following the same schema
 * facts as the JSON codec: nullable unions are optional fields, {@code union {null, int, string}} is IntOrString,
 * {@code k8s: quantity} strings are Quantity, timestamp-millis/micros are Time/MicroTime. Records become components
 * named by their Avro full name and are referenced with {@code $ref}, so {@code kubectl explain} prints the record
 * name as the field's type ({@code strategy <DeploymentStrategy>}) and walks into it.
 *
 * <p>What Avro does not carry comes from small tables: Kubernetes' required fields, and the list merge keys of
 * {@link ListStrategies} ({@code x-kubernetes-patch-merge-key}, {@code x-kubernetes-list-type}).
 */
final class OpenApiSchemas {
    static final String REF = "#/components/schemas/";
    static final String QUANTITY = "io.k8s.apimachinery.pkg.api.resource.Quantity";
    static final String TIME = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
    static final String MICRO_TIME = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
    static final String INT_OR_STRING = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";

    /** Fields Kubernetes marks required (no omitempty, +required), by Avro record name. */
    private static final Map<String, List<String>> REQUIRED = Map.ofEntries(
            Map.entry("Container", List.of("name")), Map.entry("EphemeralContainer", List.of("name")),
            Map.entry("PodSpec", List.of("containers")), Map.entry("ContainerPort", List.of("containerPort")),
            Map.entry("EnvVar", List.of("name")), Map.entry("VolumeMount", List.of("name", "mountPath")),
            Map.entry("Volume", List.of("name")), Map.entry("KeyToPath", List.of("key", "path")),
            Map.entry("LabelSelectorRequirement", List.of("key", "operator")),
            Map.entry("NodeSelectorRequirement", List.of("key", "operator")),
            Map.entry("OwnerReference", List.of("apiVersion", "kind", "name", "uid")),
            Map.entry("DeploymentSpec", List.of("selector", "template")),
            Map.entry("ReplicaSetSpec", List.of("selector")),
            Map.entry("StatefulSetSpec", List.of("selector", "template")),
            Map.entry("DaemonSetSpec", List.of("selector", "template")),
            Map.entry("JobSpec", List.of("template")), Map.entry("CronJobSpec", List.of("schedule", "jobTemplate")),
            Map.entry("ControllerRevision", List.of("revision")),
            Map.entry("DeploymentCondition", List.of("type", "status")),
            Map.entry("ReplicaSetCondition", List.of("type", "status")),
            Map.entry("StatefulSetCondition", List.of("type", "status")),
            Map.entry("DaemonSetCondition", List.of("type", "status")),
            Map.entry("JobCondition", List.of("type", "status")), Map.entry("PodCondition", List.of("type", "status")),
            Map.entry("NodeCondition", List.of("type", "status")),
            Map.entry("NamespaceCondition", List.of("type", "status")),
            Map.entry("ReplicationControllerCondition", List.of("type", "status")),
            Map.entry("Condition", List.of("type", "status", "lastTransitionTime", "reason", "message")),
            Map.entry("NodeAddress", List.of("type", "address")), Map.entry("HostAlias", List.of("ip")),
            Map.entry("PodIP", List.of("ip")), Map.entry("HostIP", List.of("ip")),
            Map.entry("Toleration", List.of()), Map.entry("Event", List.of("metadata", "involvedObject")),
            Map.entry("TopologySpreadConstraint", List.of("maxSkew", "topologyKey", "whenUnsatisfiable")));

    /** Descriptions of the fields every object has, where our schemas have no doc of their own. */
    private static final Map<String, String> ROOT_FIELDS = Map.of(
            "apiVersion", "APIVersion defines the versioned schema of this representation of an object. Servers "
                    + "should convert recognized schemas to the latest internal value, and may reject unrecognized values.",
            "kind", "Kind is a string value representing the REST resource this object represents. Servers may infer "
                    + "this from the endpoint the client submits requests to. Cannot be updated. In CamelCase.",
            "metadata", "Standard object's metadata.",
            "spec", "Specification of the desired behavior of the object.",
            "status", "Most recently observed status of the object. Populated by the system. Read-only.");

    private final ObjectNode schemas;

    private OpenApiSchemas(ObjectNode schemas) {
        this.schemas = schemas;
    }

    /** Adds to {@code schemas} the kind's root schema and every record it reaches; returns the root's name. */
    static String addKind(ObjectNode schemas, KindInfo kind) {
        return new OpenApiSchemas(schemas).kind(kind);
    }

    /** Adds a record (and every record it reaches) as a component; returns its name. */
    static String addRecord(ObjectNode schemas, Schema record) {
        return new OpenApiSchemas(schemas).record(record);
    }

    /** The component name of a served kind's root schema. */
    static String rootName(KindInfo kind) {
        Schema avro = SpecificData.get().getSchema(Kinds.wireType(kind));
        // An alias (events.k8s.io Event) has its own root, its nested records are shared with the stored kind.
        return Kinds.renames(kind).isPresent() ? avro.getNamespace() + "." + kind.group() + "." + kind.version()
                + "." + kind.kind() : avro.getFullName();
    }

    private String kind(KindInfo kind) {
        Schema avro = SpecificData.get().getSchema(Kinds.wireType(kind));
        String name = rootName(kind);
        ObjectNode root = Json.object();
        schemas.set(name, root); // before the fields: recursion stops at names already present
        root.put("description", avro.getDoc() != null ? avro.getDoc()
                : kind.kind() + " (" + kind.apiVersion() + ") as stored by Eventplane.");
        root.put("type", "object");
        ObjectNode props = root.putObject("properties");
        props.putObject("apiVersion").put("type", "string").put("description", ROOT_FIELDS.get("apiVersion"));
        props.putObject("kind").put("type", "string").put("description", ROOT_FIELDS.get("kind"));
        Optional<FieldRenames> renames = Kinds.renames(kind);
        for (Schema.Field f : avro.getFields()) {
            String served = renames.map(r -> r.toServed(f.name())).orElse(f.name());
            props.set(served, field(f, jsonName(f), ROOT_FIELDS.get(served)));
        }
        required(root, avro.getName());
        root.putArray("x-kubernetes-group-version-kind").addObject().put("group", kind.group())
                .put("kind", kind.kind()).put("version", kind.version());
        return name;
    }

    private static String jsonName(Schema.Field f) {
        String j = f.getProp("jsonName");
        return j != null ? j : f.name();
    }

    private ObjectNode field(Schema.Field f, String jsonName, String fallbackDoc) {
        String doc = f.doc() != null ? f.doc() : fallbackDoc;
        ObjectNode s = type(f.schema(), jsonName);
        if (doc != null) {
            if (s.has("$ref")) {
                // A $ref cannot carry siblings in OpenAPI 3.0: wrap it, as kube-apiserver does.
                ObjectNode wrapped = Json.object();
                wrapped.putArray("allOf").add(s);
                s = wrapped;
            }
            s.put("description", doc);
        }
        return s;
    }

    /** The schema of a value; {@code field} names the field for the list-strategy table. */
    private ObjectNode type(Schema s, String field) {
        switch (s.getType()) {
            case UNION -> {
                List<Schema> branches = s.getTypes().stream().filter(b -> b.getType() != Schema.Type.NULL).toList();
                if (branches.size() == 1) {
                    return type(branches.get(0), field);
                }
                if (branches.size() == 2 && branches.get(0).getType() == Schema.Type.INT
                        && branches.get(1).getType() == Schema.Type.STRING) {
                    return ref(INT_OR_STRING);
                }
                ObjectNode any = Json.object();
                ArrayNode one = any.putArray("oneOf");
                branches.forEach(b -> one.add(type(b, field)));
                return any;
            }
            case RECORD -> {
                return ref(record(s));
            }
            case ARRAY -> {
                ObjectNode a = Json.object();
                a.put("type", "array");
                a.set("items", type(s.getElementType(), field));
                listStrategy(a, field, s.getElementType());
                return a;
            }
            case MAP -> {
                ObjectNode m = Json.object();
                m.put("type", "object");
                m.set("additionalProperties", type(s.getValueType(), field));
                return m;
            }
            case STRING -> {
                if ("json-object".equals(s.getProp("k8s"))) {
                    return primitive("object", null);
                }
                if ("json".equals(s.getProp("k8s"))) {
                    ObjectNode any = Json.object();
                    any.put("x-kubernetes-preserve-unknown-fields", true);
                    return any;
                }
                return "quantity".equals(s.getProp("k8s")) ? ref(QUANTITY) : primitive("string", null);
            }
            case INT -> {
                return primitive("integer", "int32");
            }
            case LONG -> {
                String logical = s.getLogicalType() == null ? "" : s.getLogicalType().getName();
                return switch (logical) {
                    case "timestamp-millis" -> ref(TIME);
                    case "timestamp-micros" -> ref(MICRO_TIME);
                    default -> primitive("integer", "int64");
                };
            }
            case BOOLEAN -> {
                return primitive("boolean", null);
            }
            case DOUBLE, FLOAT -> {
                return primitive("number", "double");
            }
            case BYTES -> {
                return primitive("string", "byte");
            }
            case ENUM -> {
                ObjectNode e = primitive("string", null);
                ArrayNode symbols = e.putArray("enum");
                s.getEnumSymbols().forEach(symbols::add);
                return e;
            }
            default -> throw new IllegalArgumentException("no OpenAPI type for the Avro schema " + s);
        }
    }

    private static void listStrategy(ObjectNode array, String field, Schema element) {
        Schema e = element.getType() == Schema.Type.UNION ? element.getTypes().stream()
                .filter(b -> b.getType() != Schema.Type.NULL).findFirst().orElse(element) : element;
        String type = e.getType() == Schema.Type.RECORD ? e.getName() : null;
        List<String> mapKeys = ListStrategies.mapKeys(field, type);
        if (type != null && !mapKeys.isEmpty() && mapKeys.stream().allMatch(k -> e.getField(k) != null)) {
            ArrayNode keys = array.putArray("x-kubernetes-list-map-keys");
            mapKeys.forEach(keys::add);
            array.put("x-kubernetes-list-type", "map");
            array.put("x-kubernetes-patch-merge-key", mapKeys.get(0));
            array.put("x-kubernetes-patch-strategy", ListStrategies.patchStrategy(field, type));
        } else if (e.getType() == Schema.Type.STRING && ListStrategies.isSet(field)) {
            array.put("x-kubernetes-list-type", "set");
            array.put("x-kubernetes-patch-strategy", ListStrategies.patchStrategy(field, null));
        } else {
            array.put("x-kubernetes-list-type", "atomic");
        }
    }

    private String record(Schema s) {
        String name = s.getFullName();
        if (schemas.has(name)) {
            return name;
        }
        ObjectNode r = Json.object();
        schemas.set(name, r);
        if (s.getDoc() != null) {
            r.put("description", s.getDoc());
        }
        r.put("type", "object");
        ObjectNode props = r.putObject("properties");
        for (Schema.Field f : s.getFields()) {
            props.set(jsonName(f), field(f, jsonName(f), null));
        }
        required(r, s.getName());
        return name;
    }

    private static void required(ObjectNode schema, String recordName) {
        List<String> req = REQUIRED.getOrDefault(recordName, List.of());
        ObjectNode props = (ObjectNode) schema.get("properties");
        List<String> present = req.stream().filter(props::has).toList();
        if (!present.isEmpty()) {
            ArrayNode a = schema.putArray("required");
            present.forEach(a::add);
        }
    }

    private ObjectNode ref(String name) {
        if (!schemas.has(name)) {
            schemas.set(name, wellKnown(name));
        }
        ObjectNode r = Json.object();
        r.put("$ref", REF + name);
        return r;
    }

    private static ObjectNode primitive(String type, String format) {
        ObjectNode p = Json.object();
        p.put("type", type);
        if (format != null) {
            p.put("format", format);
        }
        return p;
    }

    /** Quantity, Time, MicroTime and IntOrString, in the shapes kube-apiserver publishes. */
    private static ObjectNode wellKnown(String name) {
        ObjectNode s = Json.object();
        switch (name) {
            case QUANTITY -> {
                s.put("description", "Quantity is a fixed-point representation of a number, such as 100m, 1Gi or "
                        + "2.5e3: an integer or decimal with an optional binary (Ki, Mi, Gi, Ti, Pi, Ei) or decimal "
                        + "(m, k, M, G, T, P, E) suffix or exponent.");
                ArrayNode one = s.putArray("oneOf");
                one.addObject().put("type", "string");
                one.addObject().put("type", "number");
            }
            case TIME -> s.put("description", "Time is a timestamp in RFC 3339 form, to the second.")
                    .put("type", "string").put("format", "date-time");
            case MICRO_TIME -> s.put("description", "MicroTime is a timestamp in RFC 3339 form, to the microsecond.")
                    .put("type", "string").put("format", "date-time");
            case INT_OR_STRING -> {
                s.put("description", "IntOrString holds either an integer or a string (such as a percentage).");
                s.put("format", "int-or-string");
                ArrayNode one = s.putArray("oneOf");
                one.addObject().put("type", "integer");
                one.addObject().put("type", "string");
                s.put("x-kubernetes-int-or-string", true);
            }
            default -> throw new IllegalArgumentException(name);
        }
        return s;
    }
}
