package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.core.codec.KubeJson;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Secret;
import io.eventplane.model.ServiceAccount;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ConfigMap, Secret and ServiceAccount defaulting and validation, with Kubernetes' messages (issue 16). */
class ConfigRulesTest {
    private static final String IMMUTABLE = "Forbidden: field is immutable when `immutable` is set";
    private final Decisions decisions = new Decisions();

    private static final ConfigMap GAME = parse(ConfigMap.class, """
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: game}
            data: {lives: "3", game.properties: "enemies=aliens"}
            binaryData: {logo.bin: AAEC}
            """);
    private static final Secret TLS = parse(Secret.class, """
            apiVersion: v1
            kind: Secret
            metadata: {name: tls}
            type: kubernetes.io/tls
            data: {tls.crt: Y2VydA==, tls.key: a2V5}
            """);

    @Test
    @DisplayName("a Secret's type defaults to Opaque; stringData is merged into data (winning over it) and never stored")
    void secretDefaultsAndStringData() {
        Secret s = decisions.created(parse(Secret.class, """
                apiVersion: v1
                kind: Secret
                metadata: {name: creds}
                data: {user: b2xk, keep: a2VlcA==}
                stringData: {user: admin, password: s3cr3t}
                """));
        assertEquals("Opaque", s.getType());
        assertNull(s.getStringData());
        assertEquals("admin", text(s, "user"));
        assertEquals("s3cr3t", text(s, "password"));
        assertEquals("keep", text(s, "keep"));
        assertEquals("{\"keep\":\"a2VlcA==\",\"password\":\"czNjcjN0\",\"user\":\"YWRtaW4=\"}",
                sorted(KubeJson.get().encode(s).path("data")));
    }

    static Stream<Arguments> invalidSecrets() {
        return Stream.of(
                Arguments.of("kubernetes.io/tls needs tls.crt and tls.key", "{data: {tls.crt: null, tls.key: null}}",
                        List.of("data[tls.crt]: Required value", "data[tls.key]: Required value")),
                Arguments.of("kubernetes.io/dockerconfigjson needs .dockerconfigjson",
                        "{type: kubernetes.io/dockerconfigjson, data: {tls.crt: null, tls.key: null}}",
                        List.of("data[.dockerconfigjson]: Required value")),
                Arguments.of("a .dockerconfigjson that is not a JSON object",
                        "{type: kubernetes.io/dockerconfigjson, data: {.dockerconfigjson: W10=}}",
                        List.of("data[.dockerconfigjson]: Invalid value: \"<secret contents redacted>\": json: cannot "
                                + "unmarshal array into Go value of type map[string]interface {}")),
                Arguments.of("a truncated .dockercfg", "{type: kubernetes.io/dockercfg, data: {.dockercfg: ew==}}",
                        List.of("data[.dockercfg]: Invalid value: \"<secret contents redacted>\": unexpected end of "
                                + "JSON input")),
                Arguments.of("a service account token without the account's name",
                        "{type: kubernetes.io/service-account-token}",
                        List.of("metadata.annotations[kubernetes.io/service-account.name]: Required value")),
                Arguments.of("basic-auth with neither username nor password", "{type: kubernetes.io/basic-auth}",
                        List.of("data[username]: Required value", "data[password]: Required value")),
                Arguments.of("a key that is not a config key", "{type: Opaque, data: {\"bad key\": AA==}}",
                        List.of("data[bad key]: Invalid value: \"bad key\": a valid config key must consist of "
                                + "alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or "
                                + "'key-name', regex used for validation is '[-._a-zA-Z0-9]+')")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidSecrets")
    void invalidSecret(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(TLS, patch))));
    }

    @Test
    @DisplayName("a Secret's type never changes; once immutable, its data stays and immutable cannot be unset")
    void immutableSecret() {
        ObjectChanged stored = decisions.createdChange(merge(TLS, "{immutable: true}"));
        Secret s = (Secret) stored.getObject();
        assertEquals(List.of("data: " + IMMUTABLE), rejected(decisions.update(stored, merge(s, "{data: {tls.key: bmV3}}"))));
        assertEquals(List.of("data: " + IMMUTABLE), rejected(decisions.update(stored, merge(s, "{stringData: {extra: x}}"))));
        assertEquals(List.of("immutable: " + IMMUTABLE), rejected(decisions.update(stored, merge(s, "{immutable: null}"))));
        assertEquals(List.of("type: Invalid value: \"Opaque\": field is immutable"),
                rejected(decisions.update(stored, merge(s, "{type: null}"))));
        Secret labelled = decisions.updated(stored, merge(s, "{metadata: {labels: {team: web}}}"));
        assertEquals("web", labelled.getMetadata().getLabels().get("team"));
    }

    @Test
    @DisplayName("a ConfigMap key is either text or binary; an immutable ConfigMap keeps data and binaryData")
    void configMaps() {
        assertEquals(List.of("data[logo.bin]: Invalid value: \"logo.bin\": duplicate of key present in binaryData"),
                rejected(decisions.create(merge(GAME, "{data: {logo.bin: x}}"))));
        assertEquals(List.of("binaryData[..]: Invalid value: \"..\": must not be '..'"),
                rejected(decisions.create(merge(GAME, "{binaryData: {\"..\": AA==}}"))));
        ObjectChanged mutable = decisions.createdChange(GAME);
        ConfigMap changed = decisions.updated(mutable, merge((ConfigMap) mutable.getObject(), "{data: {lives: \"5\"}}"));
        assertEquals("5", changed.getData().get("lives"));

        ObjectChanged stored = decisions.createdChange(merge(GAME, "{metadata: {name: frozen}, immutable: true}"));
        ConfigMap cm = (ConfigMap) stored.getObject();
        assertEquals(List.of("data: " + IMMUTABLE), rejected(decisions.update(stored, merge(cm, "{data: {lives: \"5\"}}"))));
        assertEquals(List.of("binaryData: " + IMMUTABLE),
                rejected(decisions.update(stored, merge(cm, "{binaryData: {logo.bin: AAED}}"))));
        assertEquals(List.of("immutable: " + IMMUTABLE), rejected(decisions.update(stored, merge(cm, "{immutable: false}"))));
        assertEquals("x", decisions.updated(stored, merge(cm, "{metadata: {annotations: {a: x}}}")).getMetadata()
                .getAnnotations().get("a"));
    }

    @Test
    @DisplayName("a ServiceAccount is stored as given; only its name is checked (a DNS subdomain)")
    void serviceAccounts() {
        ServiceAccount sa = parse(ServiceAccount.class, """
                apiVersion: v1
                kind: ServiceAccount
                metadata: {name: build-robot}
                automountServiceAccountToken: false
                imagePullSecrets: [{name: registry}]
                """);
        assertEquals(false, decisions.created(sa).getAutomountServiceAccountToken());
        List<String> messages = rejected(decisions.create(merge(sa, "{metadata: {name: Build_Robot}}")));
        assertEquals(1, messages.size());
        assertEquals(true, messages.get(0).startsWith("metadata.name: Invalid value: \"Build_Robot\": a lowercase RFC 1123 subdomain"));
    }

    private static String text(Secret s, String key) {
        var b = s.getData().get(key).duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static String sorted(com.fasterxml.jackson.databind.JsonNode node) {
        var out = new java.util.TreeMap<String, String>();
        node.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        StringBuilder s = new StringBuilder("{");
        out.forEach((k, v) -> s.append(s.length() > 1 ? "," : "").append('"').append(k).append("\":\"").append(v).append('"'));
        return s.append('}').toString();
    }
}
