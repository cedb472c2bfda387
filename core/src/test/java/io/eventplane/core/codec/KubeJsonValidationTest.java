package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

@DisplayName("Decoding untrusted input")
class KubeJsonValidationTest {
    private final KubeJson codec = KubeJson.get();

    private static final String TYPO = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: typo
              colour: blue
            spec:
              containers:
              - name: web
                imagee: nginx
                ports:
                - containerPort: 80
                  portName: http
            """;

    private DecodeException failure(String doc, FieldValidation mode) {
        return assertThrows(DecodeException.class, () -> codec.parseObject(Fixtures.utf8(doc), Pod.class, mode, null));
    }

    @Nested
    @DisplayName("unknown fields")
    class UnknownFields {
        @Test
        @DisplayName("are all listed in one strict decoding error under STRICT")
        void strictRejectsThemAll() {
            DecodeException e = failure(TYPO, FieldValidation.STRICT);
            assertEquals("strict decoding error: unknown field \"metadata.colour\", "
                    + "unknown field \"spec.containers[0].imagee\", unknown field \"spec.containers[0].ports[0].portName\"",
                    e.getMessage());
            assertEquals(new FieldError("spec.containers[0].imagee", "unknown field \"spec.containers[0].imagee\""),
                    e.errors().get(1));
        }

        @Test
        @DisplayName("are dropped and reported as warnings under WARN")
        void warnDropsAndWarns() {
            List<String> warnings = new ArrayList<>();
            Pod pod = codec.parseObject(Fixtures.utf8(TYPO), Pod.class, FieldValidation.WARN, warnings);
            assertEquals(List.of("unknown field \"metadata.colour\"", "unknown field \"spec.containers[0].imagee\"",
                    "unknown field \"spec.containers[0].ports[0].portName\""), warnings);
            assertEquals(80, pod.getSpec().getContainers().get(0).getPorts().get(0).getContainerPort());
            assertEquals(null, pod.getSpec().getContainers().get(0).getImage());
        }

        @Test
        @DisplayName("are dropped silently under IGNORE")
        void ignoreDropsSilently() {
            Decoded<Pod> d = codec.decode(Fixtures.yamlTree(TYPO), Pod.class, FieldValidation.IGNORE);
            assertTrue(d.warnings().isEmpty());
            assertEquals("typo", d.value().getMetadata().getName());
        }

        @Test
        @DisplayName("do not include apiVersion and kind at the top level, but do anywhere else")
        void typeMetaOnlyAtTheTop() {
            JsonNode json = Fixtures.yamlTree("{apiVersion: v1, kind: Pod, spec: {kind: x}}");
            DecodeException e = assertThrows(DecodeException.class,
                    () -> codec.decode(json, Pod.class, FieldValidation.STRICT));
            assertEquals("strict decoding error: unknown field \"spec.kind\"", e.getMessage());
        }
    }

    @Nested
    @DisplayName("duplicate keys")
    class DuplicateKeys {
        private static final String DUPLICATED = """
                {"metadata":{"name":"a","name":"b","labels":{"app":"x","app":"y"}}}""";

        @Test
        @DisplayName("are errors under STRICT, with map keys in brackets")
        void strictRejects() {
            DecodeException e = failure(DUPLICATED, FieldValidation.STRICT);
            assertEquals("strict decoding error: duplicate field \"metadata.name\", duplicate field \"metadata.labels[app]\"",
                    e.getMessage());
        }

        @Test
        @DisplayName("warn under WARN and the last value wins")
        void warnKeepsLast() {
            List<String> warnings = new ArrayList<>();
            Pod pod = codec.parseObject(Fixtures.utf8(DUPLICATED), Pod.class, FieldValidation.WARN, warnings);
            assertEquals(List.of("duplicate field \"metadata.name\"", "duplicate field \"metadata.labels[app]\""), warnings);
            assertEquals("b", pod.getMetadata().getName());
            assertEquals("y", pod.getMetadata().getLabels().get("app"));
        }

        @Test
        @DisplayName("are found in YAML too")
        void yamlDuplicates() {
            DecodeException e = failure("metadata:\n  name: a\n  name: b\n", FieldValidation.STRICT);
            assertEquals(List.of(new FieldError("metadata.name", "duplicate field \"metadata.name\"")), e.errors());
        }
    }

    @Nested
    @DisplayName("type errors")
    class TypeErrors {
        @ParameterizedTest(name = "{0} -> {1}: {2}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                {"spec":{"containers":[{"ports":[{"containerPort":"eighty"}]}]}}        | spec.containers[0].ports[0].containerPort | expected integer (int32), got string "eighty"
                {"spec":{"containers":[{"ports":[{},{"containerPort":80.5}]}]}}         | spec.containers[0].ports[1].containerPort | expected integer (int32), got number 80.5
                {"spec":{"containers":[{"ports":[{"containerPort":3000000000}]}]}}      | spec.containers[0].ports[0].containerPort | expected integer (int32), got number 3000000000 (out of range)
                {"spec":{"activeDeadlineSeconds":9223372036854775808}}                  | spec.activeDeadlineSeconds                | expected integer (int64), got number 9223372036854775808 (out of range)
                {"spec":{"containers":{"name":"web"}}}                                  | spec.containers                           | expected array, got object
                {"spec":{"containers":["web"]}}                                         | spec.containers[0]                        | expected object, got string "web"
                {"spec":{"containers":[null]}}                                          | spec.containers[0]                        | expected object, got null
                {"spec":{"hostNetwork":"true"}}                                         | spec.hostNetwork                          | expected boolean, got string "true"
                {"spec":{"nodeName":5}}                                                 | spec.nodeName                             | expected string, got number 5
                {"metadata":{"labels":{"app":1}}}                                       | metadata.labels[app]                      | expected string, got number 1
                {"metadata":{"labels":["app"]}}                                         | metadata.labels                           | expected object, got array
                {"metadata":{"creationTimestamp":"yesterday"}}                          | metadata.creationTimestamp                | expected RFC3339 time (e.g. "2026-11-21T10:00:00Z"), got string "yesterday"
                {"metadata":{"creationTimestamp":1700000000}}                           | metadata.creationTimestamp                | expected RFC3339 time (e.g. "2026-11-21T10:00:00Z"), got number 1700000000
                {"spec":{"containers":[{"livenessProbe":{"httpGet":{"port":true}}}]}}   | spec.containers[0].livenessProbe.httpGet.port | expected integer (int32) or string, got boolean true
                {"spec":{"overhead":{"cpu":"lots"}}}                                    | spec.overhead[cpu]                        | invalid quantity "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'
                {"spec":{"overhead":{"cpu":true}}}                                      | spec.overhead[cpu]                        | expected quantity (string or number), got boolean true
                {"spec":"none"}                                                         | spec                                      | expected object, got string "none"
                """)
        @DisplayName("name the exact path and what was expected")
        void exactPaths(String json, String path, String message) {
            for (FieldValidation mode : FieldValidation.values()) {
                DecodeException e = failure(json, mode);
                assertEquals(List.of(new FieldError(path, message)), e.errors());
                assertEquals(path + ": " + message, e.getMessage());
            }
        }

        @Test
        @DisplayName("are all reported at once, before the strict decoding errors")
        void allAtOnce() {
            String json = """
                    {"spec":{"priority":"high","containers":[{"name":7,"bogus":1,"resources":{"limits":{"cpu":"1x"}}}]}}""";
            DecodeException e = failure(json, FieldValidation.STRICT);
            assertEquals("spec.priority: expected integer (int32), got string \"high\"; "
                    + "spec.containers[0].name: expected string, got number 7; "
                    + "spec.containers[0].resources.limits[cpu]: invalid quantity \"1x\": "
                    + "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'; "
                    + "strict decoding error: unknown field \"spec.containers[0].bogus\"", e.getMessage());
            assertEquals(4, e.errors().size());
        }

        @Test
        @DisplayName("accept integral numbers written as decimals, as Kubernetes does for YAML")
        void integralDecimalsAreIntegers() {
            Pod pod = codec.parseObject(Fixtures.utf8("{\"spec\":{\"priority\":10.0,\"terminationGracePeriodSeconds\":3e1}}"),
                    Pod.class, FieldValidation.STRICT, null);
            assertEquals(10, pod.getSpec().getPriority());
            assertEquals(30L, pod.getSpec().getTerminationGracePeriodSeconds());
        }
    }

    @Nested
    @DisplayName("malformed documents")
    class Malformed {
        @ParameterizedTest(name = "{0}")
        @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
                broken JSON            | {"metadata": {"name": "a",}}           | malformed JSON at line 1, column
                truncated JSON         | {"metadata": {"name": "a"              | malformed JSON at line 1, column
                trailing JSON          | {"metadata": {}} {"spec": {}}          | unexpected data after the JSON object at line 1
                top-level array        | [{"metadata": {}}]                     | expected an object at the top level, got array
                top-level scalar       | just a string                          | expected an object at the top level, got string "just a string"
                """)
        @DisplayName("fail with a one-line message and no stack trace text")
        void oneLineMessages(String name, String input, String expectedStart) {
            DecodeException e = assertThrows(DecodeException.class,
                    () -> codec.parseObject(Fixtures.utf8(input), Pod.class, FieldValidation.STRICT, null));
            assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            assertFalse(e.getMessage().contains("Exception"), e.getMessage());
            assertFalse(e.getMessage().contains("Source:"), e.getMessage());
        }

        @Test
        @DisplayName("bad YAML reports its line and column")
        void badYaml() {
            DecodeException e = assertThrows(DecodeException.class, () -> codec.parseObject(
                    Fixtures.utf8("metadata:\n  name: a\n   labels: x: y\n"), Pod.class, FieldValidation.STRICT, null));
            assertEquals("malformed YAML at line 3, column 10: mapping values are not allowed here", e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
        }

        @Test
        @DisplayName("an unclosed YAML flow sequence names the problem, not the context")
        void unclosedFlowSequence() {
            DecodeException e = assertThrows(DecodeException.class, () -> codec.parseObject(
                    Fixtures.utf8("spec:\n  nodeSelector: [a, b\n"), Pod.class, FieldValidation.STRICT, null));
            assertTrue(e.getMessage().startsWith("malformed YAML at line "), e.getMessage());
            assertTrue(e.getMessage().endsWith("expected ',' or ']', but got <stream end>"), e.getMessage());
        }

        @Test
        @DisplayName("YAML anchors, aliases and merge keys are resolved, and an alias bomb is refused")
        void yamlAliases() {
            String yaml = """
                    metadata:
                      labels: &common
                        app: web
                        tier: frontend
                      annotations:
                        <<: *common
                        tier: backend
                    spec:
                      nodeSelector: *common
                    """;
            Pod pod = codec.parseObject(Fixtures.utf8(yaml), Pod.class, FieldValidation.STRICT, null);
            assertEquals(java.util.Map.of("app", "web", "tier", "frontend"), pod.getSpec().getNodeSelector());
            assertEquals(java.util.Map.of("app", "web", "tier", "backend"), pod.getMetadata().getAnnotations());
            StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
            for (char c = 'b'; c <= 'i'; c++) {
                String prev = "*" + (char) (c - 1);
                bomb.append(c).append(": &").append(c).append(" [").append(String.join(", ", java.util.Collections.nCopies(10, prev))).append("]\n");
            }
            DecodeException e = assertThrows(DecodeException.class,
                    () -> codec.parseObject(Fixtures.utf8(bomb.toString()), Pod.class, FieldValidation.STRICT, null));
            assertEquals("malformed YAML: aliases expand to too many nodes", e.getMessage());
        }

        @Test
        @DisplayName("an empty YAML value is null, a quoted empty string is a string")
        void emptyYamlValues() {
            Pod pod = codec.parseObject(Fixtures.utf8("metadata:\n  name: \"\"\n  labels:\n"), Pod.class,
                    FieldValidation.STRICT, null);
            assertEquals("", pod.getMetadata().getName());
            assertEquals(null, pod.getMetadata().getLabels());
        }

        @Test
        @DisplayName("empty input is rejected")
        void emptyInput() {
            DecodeException e = assertThrows(DecodeException.class,
                    () -> codec.parseObject(new byte[0], Pod.class, FieldValidation.STRICT, null));
            assertEquals("empty YAML document: expected an object", e.getMessage());
        }

        @Test
        @DisplayName("a trailing document separator is not a second document")
        void trailingSeparator() {
            Pod pod = codec.parseObject(Fixtures.utf8("metadata:\n  name: a\n---\n"), Pod.class, FieldValidation.STRICT, null);
            assertEquals("a", pod.getMetadata().getName());
        }

        @Test
        @DisplayName("input starting with a brace is read as JSON, not as a YAML flow mapping")
        void braceMeansJson() {
            DecodeException e = assertThrows(DecodeException.class, () -> codec.parseObject(
                    Fixtures.utf8("{metadata: {name: a}}"), Pod.class, FieldValidation.STRICT, null));
            assertTrue(e.getMessage().startsWith("malformed JSON at line 1, column 2: Unexpected character ('m'"), e.getMessage());
        }

        @Test
        @DisplayName("an object of another kind is rejected by its kind")
        void wrongKind() {
            DecodeException e = assertThrows(DecodeException.class, () -> codec.parseObject(
                    Fixtures.utf8("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}"),
                    Pod.class, FieldValidation.STRICT, null));
            assertEquals(List.of(new FieldError("kind", "expected \"Pod\", got string \"Node\"")), e.errors());
            assertEquals("n", codec.parseObject(Fixtures.utf8("{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}"),
                    Node.class, FieldValidation.STRICT, null).getMetadata().getName());
        }

        @Test
        @DisplayName("decode refuses a JSON value that is not an object")
        void decodeNeedsAnObject() {
            DecodeException e = assertThrows(DecodeException.class,
                    () -> codec.decode(Fixtures.JSON.createArrayNode(), Pod.class, FieldValidation.STRICT));
            assertEquals("expected a JSON object, got array", e.getMessage());
        }
    }
}
