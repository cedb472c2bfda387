package io.eventplane.faults;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Issue 20 item 5: the API fuzzed with jqwik, 10,000 generated requests a run: mutated valid manifests of every kind
 * (wrong types, huge numbers, deep nesting, invalid UTF-8, duplicate keys, bad labels and names), bad patches of each
 * patch type, bad selectors and query parameters, and wrong content types. Every request is answered before its
 * timeout and never with a 5xx, and a request the API refused leaves the event log as it was (its end offset, read
 * after each answer; nothing else writes to it here).
 */
class ApiFuzzProperties {
    static final String CASE = "5 API fuzzing";
    static final Duration TIMEOUT = Duration.ofSeconds(30);
    static final List<String> PATCH_TYPES = List.of("application/json-patch+json", "application/merge-patch+json",
            "application/strategic-merge-patch+json", "application/apply-patch+yaml");
    /** Objects made once, for the patches and updates to aim at. */
    static final List<String> TARGETS = List.of(FuzzInputs.NS + "pods/target", FuzzInputs.NS + "configmaps/target",
            "/apis/apps/v1/namespaces/default/deployments/target", "/api/v1/nodes/target");

    static WriterAndGateway cluster;
    static KafkaConsumer<byte[], byte[]> events;
    static List<TopicPartition> partitions;
    static long logEnd;
    static final AtomicInteger tried = new AtomicInteger();
    static final AtomicLong slowestMillis = new AtomicLong();
    static final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();

    /** One generated request. */
    record Request(String method, String path, String contentType, byte[] body) {
        @Override
        public String toString() {
            String text = body == null ? "" : new String(body, StandardCharsets.UTF_8);
            return method + " " + path + " [" + contentType + "] " + Api.abbreviate(text);
        }
    }

    @BeforeContainer
    static void start() throws Exception {
        cluster = WriterAndGateway.start("fuzz", null, 10);
        for (FuzzInputs.Base base : FuzzInputs.BASES) {
            String path = base.collection();
            boolean target = TARGETS.stream().anyMatch(t -> t.startsWith(path + "/"));
            if (target) {
                ObjectNode o = (ObjectNode) base.tree();
                ((ObjectNode) o.get("metadata")).put("name", "target");
                HttpResponse<String> r = cluster.api.post(path, o.toString());
                if (r.statusCode() != 201) {
                    throw new IllegalStateException("cannot create the target at " + path + ": " + r.body());
                }
            }
        }
        events = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                cluster.config.bootstrapServers(), ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        partitions = new ArrayList<>();
        for (int p = 0; p < cluster.config.partitions(); p++) {
            partitions.add(new TopicPartition(cluster.config.topics().events(), p));
        }
        logEnd = logEnd();
    }

    @AfterContainer
    static void stop() {
        Map<Integer, Integer> byStatus = new TreeMap<>();
        statuses.forEach((s, n) -> byStatus.put(s, n.get()));
        Figures.report(CASE, "inputs tried", tried.get());
        Figures.report(CASE, "answers by status", byStatus);
        Figures.report(CASE, "5xx", byStatus.entrySet().stream().filter(e -> e.getKey() >= 500)
                .mapToInt(Map.Entry::getValue).sum());
        Figures.report(CASE, "slowest answer", slowestMillis.get() + " ms");
        if (events != null) {
            events.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static long logEnd() {
        return events.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Sends the request and checks the promises: an answer in time, no 5xx, a refusal leaves the log unchanged. */
    static void check(Request r) throws Exception {
        tried.incrementAndGet();
        long before = logEnd;
        HttpResponse<String> answer;
        long t0 = System.nanoTime();
        try {
            answer = cluster.api.send(r.method(), r.path(), r.contentType(), r.body(), TIMEOUT);
        } catch (HttpTimeoutException e) {
            throw new AssertionError("no answer within " + TIMEOUT + ": " + r, e);
        } catch (IOException e) {
            throw new AssertionError("the connection failed (" + e + "): " + r, e);
        }
        slowestMillis.accumulateAndGet((System.nanoTime() - t0) / 1_000_000, Math::max);
        int status = answer.statusCode();
        statuses.computeIfAbsent(status, s -> new AtomicInteger()).incrementAndGet();
        logEnd = logEnd();
        if (status >= 500) {
            throw new AssertionError(status + " " + Api.abbreviate(answer.body()) + " for " + r);
        }
        if (status >= 300 && logEnd != before) {
            throw new AssertionError("refused with " + status + " yet the event log moved from " + before + " to "
                    + logEnd + ": " + r);
        }
    }

    // ---- mutated manifests ------------------------------------------------------------------------------------

    enum Mutation { WRONG_TYPE, REMOVE, HUGE_NUMBER, DEEP_NESTING, INVALID_UTF8, DUPLICATE_KEY, BAD_LABEL, BAD_NAME,
        UNKNOWN_FIELD, TRUNCATE, BYTE_FLIP }

    @Provide
    Arbitrary<Request> mutatedManifests() {
        return Combinators.combine(FuzzInputs.bases(), Arbitraries.of(Mutation.class),
                        Arbitraries.integers().greaterOrEqual(0), FuzzInputs.values(), FuzzInputs.labelish(),
                        FuzzInputs.hugeNumbers(), Arbitraries.integers().between(1, 3000), Arbitraries.of(true, false))
                .as(ApiFuzzProperties::mutate);
    }

    static Request mutate(FuzzInputs.Base base, Mutation m, int at, JsonNode value, String label, String huge,
                          int depth, boolean put) {
        JsonNode tree = base.tree();
        List<String> pointers = FuzzInputs.pointers(tree);
        String pointer = pointers.get(at % pointers.size());
        byte[] body;
        switch (m) {
            case WRONG_TYPE -> body = FuzzInputs.utf8(FuzzInputs.set(tree, pointer, value).toString());
            case REMOVE -> body = FuzzInputs.utf8(FuzzInputs.set(tree, pointer, null).toString());
            case HUGE_NUMBER, DEEP_NESTING -> {
                String marker = "\"@@fuzz@@\"";
                String text = FuzzInputs.set(tree, pointer, JsonNodeFactory.instance.textNode("@@fuzz@@")).toString();
                body = FuzzInputs.utf8(text.replace(marker, m == Mutation.HUGE_NUMBER ? huge
                        : FuzzInputs.nested(depth, put)));
            }
            case INVALID_UTF8 -> body = FuzzInputs.splice(FuzzInputs.utf8(tree.toString()), at,
                    new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xED, (byte) 0xA0, (byte) 0x80}, 0);
            case DUPLICATE_KEY -> {
                String text = tree.toString();
                String first = pointer.substring(1).split("/")[0];
                body = FuzzInputs.utf8("{\"" + first + "\":" + value + "," + text.substring(1));
            }
            case BAD_LABEL -> {
                ObjectNode copy = tree.deepCopy();
                ObjectNode meta = (ObjectNode) copy.get("metadata");
                meta.putObject(put ? "labels" : "annotations").put(label, at % 2 == 0 ? label : "v");
                body = FuzzInputs.utf8(copy.toString());
            }
            case BAD_NAME -> {
                ObjectNode copy = tree.deepCopy();
                ((ObjectNode) copy.get("metadata")).put(put ? "name" : "generateName", label);
                body = FuzzInputs.utf8(copy.toString());
            }
            case UNKNOWN_FIELD -> body = FuzzInputs.utf8(FuzzInputs.set(tree, pointer + "/" + "x".repeat(1 + at % 3)
                    .replace("x", label.isEmpty() ? "x" : label.substring(0, 1)), value).toString());
            case TRUNCATE -> {
                byte[] whole = FuzzInputs.utf8(tree.toString());
                body = Arrays.copyOf(whole, at % whole.length);
            }
            case BYTE_FLIP -> {
                byte[] whole = FuzzInputs.utf8(tree.toString());
                whole[at % whole.length] ^= (byte) (1 + depth % 255);
                body = whole;
            }
            default -> throw new IllegalStateException();
        }
        return put ? new Request("PUT", base.collection() + "/" + base.name(), "application/json", body)
                : new Request("POST", base.collection(), "application/json", body);
    }

    @Property(tries = 4000, shrinking = ShrinkingMode.BOUNDED)
    @Label("issue 20 item 5: mutated manifests of every kind: no 5xx, no hang, a refusal leaves the log unchanged")
    void mutatedManifestsAreAnsweredSafely(@ForAll("mutatedManifests") Request r) throws Exception {
        check(r);
    }

    // ---- bad patches ------------------------------------------------------------------------------------------

    @Provide
    Arbitrary<Request> badPatches() {
        Arbitrary<String> paths = Arbitraries.oneOf(Arbitraries.of("/metadata/labels/x", "/metadata/name",
                "/metadata/uid", "/spec/containers/0/image", "/spec/containers/-", "/spec/replicas", "/data/k",
                "/status/phase", "", "/", "/nope/deeper/still", "/spec/containers/99", "/metadata/labels/a~1b",
                "/metadata/resourceVersion", "/spec/template/spec/containers/0", "~", "/spec/containers/01"),
                FuzzInputs.labelish());
        Arbitrary<String> ops = Arbitraries.of("add", "remove", "replace", "move", "copy", "test", "bogus", "");
        Arbitrary<String> jsonPatch = Combinators.combine(ops, paths, paths, FuzzInputs.values(),
                Arbitraries.integers().between(0, 4)).as((op, path, from, value, shape) -> switch (shape) {
                    case 0 -> "[{\"op\":\"" + op + "\",\"path\":\"" + path.replace("\"", "") + "\",\"value\":"
                            + value + "}]";
                    case 1 -> "[{\"op\":\"" + op + "\",\"from\":\"" + from.replace("\"", "") + "\",\"path\":\""
                            + path.replace("\"", "") + "\"}]";
                    case 2 -> "[{\"op\":" + value + ",\"path\":" + value + "}]";
                    case 3 -> value.toString();
                    default -> "[" + value + "]";
                });
        Arbitrary<String> mergePatch = Combinators.combine(paths, FuzzInputs.values(),
                Arbitraries.of("", "$patch", "$retainKeys", "$setElementOrder/containers", "$deleteFromPrimitiveList/x"))
                .as((path, value, directive) -> {
                    ObjectNode root = JsonNodeFactory.instance.objectNode();
                    ObjectNode at = root;
                    for (String part : path.split("/")) {
                        if (!part.isEmpty()) {
                            at = at.putObject(part);
                        }
                    }
                    if (directive.isEmpty()) {
                        return root.toString().replace("{}", value.toString());
                    }
                    at.set(directive, value);
                    return root.toString();
                });
        Arbitrary<String> applyPatch = Combinators.combine(FuzzInputs.bases(), FuzzInputs.values(),
                FuzzInputs.labelish()).as((base, value, text) -> switch (Math.floorMod(text.hashCode(), 3)) {
                    case 0 -> "apiVersion: " + value + "\nkind: " + text + "\nmetadata:\n  name: target\n";
                    case 1 -> base.json().replace("\"name\":\"" + base.name() + "\"", "\"name\":" + value);
                    default -> text + ":\n  - : [" + text;
                });
        return Combinators.combine(Arbitraries.of(TARGETS), Arbitraries.of(PATCH_TYPES), jsonPatch, mergePatch,
                        applyPatch, Arbitraries.of("", "?fieldManager=fuzz", "?fieldManager=fuzz&force=true",
                                "?dryRun=All", "?fieldManager=" + "x".repeat(200), "?fieldValidation=Strict"))
                .as((target, type, json, merge, apply, query) -> {
                    String body = switch (type) {
                        case "application/json-patch+json" -> json;
                        case "application/apply-patch+yaml" -> apply;
                        default -> merge;
                    };
                    return new Request("PATCH", target + query, type, FuzzInputs.utf8(body));
                });
    }

    @Property(tries = 3000, shrinking = ShrinkingMode.BOUNDED)
    @Label("issue 20 item 5: bad patches of each patch type: no 5xx, no hang, a refusal leaves the log unchanged")
    void badPatchesAreAnsweredSafely(@ForAll("badPatches") Request r) throws Exception {
        check(r);
    }

    // ---- bad selectors and query parameters -------------------------------------------------------------------

    @Provide
    Arbitrary<Request> badQueries() {
        Arbitrary<String> selectors = Arbitraries.oneOf(FuzzInputs.labelish(), Arbitraries.of("a=b", "a in (b,c)",
                "!a", "a notin (", "=", "a==b", "a!=", "a in ()", ",", "a,b,", "metadata.name=target",
                "spec.nodeName!=", "bogus.field=1", "status.phase=Running", "a in (b", "x>1", "a=b=c"));
        Arbitrary<String> params = Arbitraries.of("labelSelector", "fieldSelector", "limit", "continue",
                "resourceVersion", "resourceVersionMatch", "timeoutSeconds", "timeout", "pretty", "allowWatchBookmarks",
                "sendInitialEvents", "propagationPolicy", "gracePeriodSeconds", "dryRun", "fieldManager", "orphanDependents");
        Arbitrary<String> collections = Arbitraries.oneOf(FuzzInputs.bases().map(FuzzInputs.Base::collection),
                Arbitraries.of("/api/v1/pods", "/apis/apps/v1/deployments", "/api/v1/namespaces/nope/pods",
                        "/apis/eventplane.io/v1/audit", "/api/v1/namespaces/default/pods/target/log",
                        "/api/v1/namespaces/default/pods/target/status", "/apis/nope/v1/things", "/api"));
        return Combinators.combine(collections, params, selectors, Arbitraries.of("GET", "DELETE"),
                        Arbitraries.integers().between(0, 3))
                .as((path, param, value, method, shape) -> {
                    String encoded = URLEncoder.encode(value, StandardCharsets.UTF_8);
                    String query = switch (shape) {
                        case 0 -> "?" + param + "=" + encoded;
                        case 1 -> "?" + param + "=" + encoded + "&" + param + "=" + encoded;
                        case 2 -> "?" + param + "=%C3%28%FF" + encoded; // percent-encoded invalid UTF-8
                        default -> "?" + param;
                    };
                    // DELETE only of names that do not exist, or of the targets with a precondition that fails
                    if (method.equals("DELETE")) {
                        return new Request("DELETE", path + "/fuzz-missing" + query, "application/json",
                                FuzzInputs.utf8("{\"preconditions\":{\"uid\":\"" + value.replace("\"", "")
                                        + "\"},\"gracePeriodSeconds\":" + (shape == 3 ? "\"x\"" : "0") + "}"));
                    }
                    return new Request("GET", path + query, null, null);
                });
    }

    @Property(tries = 2000, shrinking = ShrinkingMode.BOUNDED)
    @Label("issue 20 item 5: bad selectors and query parameters: no 5xx, no hang, the log unchanged")
    void badQueriesAreAnsweredSafely(@ForAll("badQueries") Request r) throws Exception {
        check(r);
    }

    // ---- wrong content types ----------------------------------------------------------------------------------

    @Provide
    Arbitrary<Request> wrongContentTypes() {
        Arbitrary<String> types = Arbitraries.oneOf(Arbitraries.of("text/plain", "application/xml", "application/yaml",
                "application/vnd.kubernetes.protobuf", "application/json; charset=latin1", "", "*/*",
                "multipart/form-data; boundary=x", "application/x-www-form-urlencoded", "application/json;;",
                "application/cbor", "application/json-patch+json", "application/apply-patch+yaml"),
                FuzzInputs.labelish());
        return Combinators.combine(FuzzInputs.bases(), types, Arbitraries.of("POST", "PUT")).as((base, type, method) -> {
            byte[] body = FuzzInputs.utf8(base.json().replace("\"name\":\"" + base.name() + "\"",
                    "\"name\":\"" + base.name() + "-ct\""));
            String path = method.equals("POST") ? base.collection() : base.collection() + "/" + base.name() + "-ct";
            String header = type.replaceAll("[^\\x20-\\x7e]", "").trim();
            return new Request(method, path, header.isEmpty() ? null : header, body);
        });
    }

    @Property(tries = 1000, shrinking = ShrinkingMode.BOUNDED)
    @Label("issue 20 item 5: valid bodies with wrong content types: no 5xx, no hang, a refusal leaves the log unchanged")
    void wrongContentTypesAreAnsweredSafely(@ForAll("wrongContentTypes") Request r) throws Exception {
        check(r);
    }
}
