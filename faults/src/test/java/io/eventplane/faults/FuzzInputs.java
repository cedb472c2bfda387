package io.eventplane.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;

/**
 * The raw material of the API fuzzer: one valid manifest of each kind the API serves, and jqwik arbitraries for what
 * a mutation puts in (wrong types, huge numbers, deep nesting, label-like strings). The mutations themselves work on
 * a manifest's tree or on its bytes.
 */
final class FuzzInputs {
    /** A valid manifest and where it is created. */
    record Base(String collection, String json) {
        JsonNode tree() {
            try {
                return Api.JSON.readTree(json);
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }

        String name() {
            return tree().path("metadata").path("name").asText();
        }
    }

    static final String NS = "/api/v1/namespaces/default/";
    static final String POD_SPEC = "{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\",\"ports\":[{\"containerPort\":80}],"
            + "\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"64Mi\"}}}]}";
    static final String TEMPLATE = "{\"metadata\":{\"labels\":{\"app\":\"f\"}},\"spec\":" + POD_SPEC + "}";
    static final String SELECTOR = "{\"matchLabels\":{\"app\":\"f\"}}";

    static final List<Base> BASES = List.of(
            new Base(NS + "pods", "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"labels\":"
                    + "{\"app\":\"f\"},\"annotations\":{\"a\":\"b\"}},\"spec\":" + POD_SPEC + "}"),
            new Base(NS + "configmaps", "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"cm\"},"
                    + "\"data\":{\"k\":\"v\"}}"),
            new Base(NS + "secrets", "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},"
                    + "\"type\":\"Opaque\",\"data\":{\"k\":\"dg==\"}}"),
            new Base(NS + "services", "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"svc\"},"
                    + "\"spec\":{\"selector\":{\"app\":\"f\"},\"ports\":[{\"port\":80,\"targetPort\":8080}]}}"),
            new Base(NS + "serviceaccounts", "{\"apiVersion\":\"v1\",\"kind\":\"ServiceAccount\","
                    + "\"metadata\":{\"name\":\"sa\"}}"),
            new Base("/api/v1/namespaces", "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns\"}}"),
            new Base("/api/v1/nodes", "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\",\"labels\":"
                    + "{\"zone\":\"a\"}},\"spec\":{\"taints\":[{\"key\":\"k\",\"effect\":\"NoSchedule\"}]},"
                    + "\"status\":{\"capacity\":{\"cpu\":\"4\",\"pods\":\"110\"}}}"),
            new Base(NS + "replicationcontrollers", "{\"apiVersion\":\"v1\",\"kind\":\"ReplicationController\","
                    + "\"metadata\":{\"name\":\"rc\"},\"spec\":{\"replicas\":1,\"selector\":{\"app\":\"f\"},"
                    + "\"template\":" + TEMPLATE + "}}"),
            new Base("/apis/apps/v1/namespaces/default/deployments", "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\","
                    + "\"metadata\":{\"name\":\"d\"},\"spec\":{\"replicas\":2,\"selector\":" + SELECTOR + ","
                    + "\"strategy\":{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxSurge\":\"25%\","
                    + "\"maxUnavailable\":1}},\"template\":" + TEMPLATE + "}}"),
            new Base("/apis/apps/v1/namespaces/default/replicasets", "{\"apiVersion\":\"apps/v1\",\"kind\":\"ReplicaSet\","
                    + "\"metadata\":{\"name\":\"rs\"},\"spec\":{\"replicas\":1,\"selector\":" + SELECTOR + ","
                    + "\"template\":" + TEMPLATE + "}}"),
            new Base("/apis/apps/v1/namespaces/default/daemonsets", "{\"apiVersion\":\"apps/v1\",\"kind\":\"DaemonSet\","
                    + "\"metadata\":{\"name\":\"ds\"},\"spec\":{\"selector\":" + SELECTOR + ",\"template\":"
                    + TEMPLATE + "}}"),
            new Base("/apis/apps/v1/namespaces/default/statefulsets", "{\"apiVersion\":\"apps/v1\","
                    + "\"kind\":\"StatefulSet\",\"metadata\":{\"name\":\"ss\"},\"spec\":{\"replicas\":1,"
                    + "\"serviceName\":\"svc\",\"selector\":" + SELECTOR + ",\"template\":" + TEMPLATE + "}}"),
            new Base("/apis/batch/v1/namespaces/default/jobs", "{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
                    + "\"metadata\":{\"name\":\"j\"},\"spec\":{\"completions\":2,\"parallelism\":1,\"backoffLimit\":3,"
                    + "\"template\":{\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\","
                    + "\"image\":\"busybox\"}]}}}}"),
            new Base("/apis/batch/v1/namespaces/default/cronjobs", "{\"apiVersion\":\"batch/v1\",\"kind\":\"CronJob\","
                    + "\"metadata\":{\"name\":\"cj\"},\"spec\":{\"schedule\":\"*/5 * * * *\",\"jobTemplate\":"
                    + "{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"OnFailure\",\"containers\":"
                    + "[{\"name\":\"c\",\"image\":\"busybox\"}]}}}}}}"),
            new Base("/apis/policy/v1/namespaces/default/poddisruptionbudgets", "{\"apiVersion\":\"policy/v1\","
                    + "\"kind\":\"PodDisruptionBudget\",\"metadata\":{\"name\":\"pdb\"},\"spec\":{\"minAvailable\":1,"
                    + "\"selector\":" + SELECTOR + "}}"),
            new Base("/apis/coordination.k8s.io/v1/namespaces/default/leases", "{\"apiVersion\":\"coordination.k8s.io/v1\","
                    + "\"kind\":\"Lease\",\"metadata\":{\"name\":\"l\"},\"spec\":{\"holderIdentity\":\"h\","
                    + "\"leaseDurationSeconds\":15}}"),
            new Base("/apis/scheduling.k8s.io/v1/priorityclasses", "{\"apiVersion\":\"scheduling.k8s.io/v1\","
                    + "\"kind\":\"PriorityClass\",\"metadata\":{\"name\":\"pc\"},\"value\":1000}"),
            new Base(NS + "resourcequotas", "{\"apiVersion\":\"v1\",\"kind\":\"ResourceQuota\",\"metadata\":"
                    + "{\"name\":\"q\"},\"spec\":{\"hard\":{\"pods\":\"10\",\"requests.cpu\":\"4\"}}}"),
            new Base(NS + "persistentvolumeclaims", "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\","
                    + "\"metadata\":{\"name\":\"pvc\"},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
                    + "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}"),
            new Base(NS + "events", "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\"},"
                    + "\"involvedObject\":{\"kind\":\"Pod\",\"name\":\"p\",\"namespace\":\"default\"},"
                    + "\"reason\":\"R\",\"message\":\"m\",\"type\":\"Normal\"}"));

    private FuzzInputs() {
    }

    static Arbitrary<Base> bases() {
        return Arbitraries.of(BASES);
    }

    /** Strings in the alphabet of names, labels and selectors, plus the characters that break them. */
    static Arbitrary<String> labelish() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("abcxyzABC0189-_./=!,() ").ofMaxLength(80),
                Arbitraries.strings().withChars("ab-").ofMinLength(60).ofMaxLength(300),
                Arbitraries.strings().all().ofMaxLength(40),
                Arbitraries.of("", "-", ".", "a/b/c", "example.com/", "/x", "x/", "a b", "ä", "\u0000",
                        "k".repeat(64), "k".repeat(254) + "/k", "\uD800"));
    }

    /** Values of every JSON type, including the edges of numbers. */
    static Arbitrary<JsonNode> values() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return Arbitraries.oneOf(
                Arbitraries.integers().map(f::numberNode),
                Arbitraries.longs().map(f::numberNode),
                Arbitraries.doubles().map(f::numberNode),
                Arbitraries.bigIntegers().between(java.math.BigInteger.TEN.pow(30).negate(),
                        java.math.BigInteger.TEN.pow(30)).map(f::numberNode),
                labelish().map(f::textNode),
                Arbitraries.of(true, false).map(f::booleanNode),
                Arbitraries.just(f.nullNode()),
                Arbitraries.just(f.arrayNode()),
                Arbitraries.just(f.objectNode()),
                labelish().map(s -> (JsonNode) f.arrayNode().add(s)),
                labelish().map(s -> (JsonNode) f.objectNode().put(s, s)));
    }

    /** Numbers no field can hold, written as JSON text (Jackson would not produce some of them). */
    static Arbitrary<String> hugeNumbers() {
        return Arbitraries.of("1e400", "-1e400", "99999999999999999999999999999999", "-9223372036854775809",
                "9223372036854775808", "2147483648", "-2147483649", "1.7976931348623157e309", "0.0000000000000001e-400",
                "1" + "0".repeat(5000), "4.9e-325", "-0");
    }

    /** JSON pointers to every node of the tree but the root. */
    static List<String> pointers(JsonNode root) {
        List<String> out = new ArrayList<>();
        collect(root, "", out);
        return out;
    }

    private static void collect(JsonNode node, String at, List<String> out) {
        if (node instanceof ObjectNode o) {
            o.fieldNames().forEachRemaining(name -> {
                String p = at + "/" + name.replace("~", "~0").replace("/", "~1");
                out.add(p);
                collect(o.get(name), p, out);
            });
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                out.add(at + "/" + i);
                collect(a.get(i), at + "/" + i, out);
            }
        }
    }

    /** Replaces (or, with {@code value} null, removes) the node at {@code pointer}. */
    static JsonNode set(JsonNode root, String pointer, JsonNode value) {
        JsonNode copy = root.deepCopy();
        int cut = pointer.lastIndexOf('/');
        JsonNode parent = copy.at(pointer.substring(0, cut));
        String last = pointer.substring(cut + 1).replace("~1", "/").replace("~0", "~");
        if (parent instanceof ObjectNode o) {
            if (value == null) {
                o.remove(last);
            } else {
                o.set(last, value);
            }
        } else if (parent instanceof ArrayNode a) {
            int i = last.matches("\\d{1,9}") ? Integer.parseInt(last) : a.size();
            if (i >= a.size()) {
                if (value != null) {
                    a.add(value);
                }
            } else if (value == null) {
                a.remove(i);
            } else {
                a.set(i, value);
            }
        }
        return copy;
    }

    /** {@code depth} arrays or objects nested in one another, as text. */
    static String nested(int depth, boolean arrays) {
        StringBuilder b = new StringBuilder(depth * 6);
        for (int i = 0; i < depth; i++) {
            b.append(arrays ? "[" : "{\"a\":");
        }
        b.append("1");
        for (int i = 0; i < depth; i++) {
            b.append(arrays ? "]" : "}");
        }
        return b.toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code insert} spliced into {@code body} at {@code at} (modulo its length). */
    static byte[] splice(byte[] body, int at, byte[] insert, int removing) {
        int pos = Math.floorMod(at, body.length + 1);
        int end = Math.min(body.length, pos + Math.max(0, removing));
        ByteArrayOutputStream out = new ByteArrayOutputStream(body.length + insert.length);
        out.write(body, 0, pos);
        out.write(insert, 0, insert.length);
        out.write(body, end, body.length - end);
        return out.toByteArray();
    }
}
