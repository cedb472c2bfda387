package io.eventplane.core.decide;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Secret;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * core/v1 Secret: {@code type} defaults to Opaque and never changes; stringData is merged into data on every write
 * and never stored; the well-known types require their keys; an immutable Secret keeps its data (ValidateSecret,
 * ValidateSecretUpdate).
 */
final class SecretRules implements KindRules<Secret> {
    static final String OPAQUE = "Opaque";
    static final String SERVICE_ACCOUNT_TOKEN = "kubernetes.io/service-account-token";
    static final String SERVICE_ACCOUNT_NAME = "kubernetes.io/service-account.name";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** SetDefaults_Secret, and the conversion that folds the write-only stringData into data. */
    @Override
    public Secret defaults(Secret secret) {
        Secret.Builder out = Secret.newBuilder(secret);
        if (secret.getType() == null || secret.getType().isEmpty()) {
            out.setType(OPAQUE);
        }
        if (secret.getStringData() != null) {
            Map<String, ByteBuffer> data = secret.getData() == null ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(secret.getData());
            secret.getStringData().forEach((k, v) -> data.put(k, ByteBuffer.wrap(v.getBytes(StandardCharsets.UTF_8))));
            out.setData(data).setStringData(null);
        }
        return out.build();
    }

    @Override
    public Secret prepareForCreate(Secret secret, Instant now) {
        return secret;
    }

    @Override
    public List<StatusCause> validate(Secret secret) {
        List<StatusCause> causes = new ArrayList<>();
        Map<String, ByteBuffer> data = secret.getData() == null ? Map.of() : secret.getData();
        long size = 0;
        for (Map.Entry<String, ByteBuffer> e : new TreeMap<>(data).entrySet()) {
            String f = "data[" + e.getKey() + "]";
            Formats.configKey(e.getKey()).forEach(m -> causes.add(Causes.invalid(f, e.getKey(), m)));
            size += e.getValue().remaining();
        }
        if (size > ConfigMapRules.MAX_SIZE) {
            causes.add(ConfigMapRules.tooLong("data", ConfigMapRules.MAX_SIZE));
        }
        String type = secret.getType() == null ? "" : secret.getType();
        switch (type) {
            case SERVICE_ACCOUNT_TOKEN -> {
                ObjectMeta meta = Workloads.meta(secret.getMetadata());
                String account = meta.getAnnotations() == null ? null : meta.getAnnotations().get(SERVICE_ACCOUNT_NAME);
                if (account == null || account.isEmpty()) {
                    causes.add(Causes.required("metadata.annotations[" + SERVICE_ACCOUNT_NAME + "]"));
                }
            }
            case "kubernetes.io/dockercfg" -> jsonKey(data, ".dockercfg", causes);
            case "kubernetes.io/dockerconfigjson" -> jsonKey(data, ".dockerconfigjson", causes);
            case "kubernetes.io/basic-auth" -> {
                if (!data.containsKey("username") && !data.containsKey("password")) {
                    causes.add(Causes.required("data[username]"));
                    causes.add(Causes.required("data[password]"));
                }
            }
            case "kubernetes.io/ssh-auth" -> {
                ByteBuffer key = data.get("ssh-privatekey");
                if (key == null || key.remaining() == 0) {
                    causes.add(Causes.required("data[ssh-privatekey]"));
                }
            }
            case "kubernetes.io/tls" -> {
                for (String k : List.of("tls.crt", "tls.key")) {
                    if (!data.containsKey(k)) {
                        causes.add(Causes.required("data[" + k + "]"));
                    }
                }
            }
            default -> {
                // Opaque and any other type: no required keys
            }
        }
        return causes;
    }

    /** The key must be present and hold a JSON object (Go's json.Unmarshal into a map). */
    private static void jsonKey(Map<String, ByteBuffer> data, String key, List<StatusCause> causes) {
        ByteBuffer value = data.get(key);
        String f = "data[" + key + "]";
        if (value == null) {
            causes.add(Causes.required(f));
            return;
        }
        byte[] bytes = new byte[value.remaining()];
        value.duplicate().get(bytes);
        String problem;
        try {
            JsonNode node = JSON.readTree(bytes);
            problem = node == null || node.isMissingNode() ? "unexpected end of JSON input"
                    : node.isObject() || node.isNull() ? null
                    : "json: cannot unmarshal " + goType(node) + " into Go value of type map[string]interface {}";
        } catch (IOException e) {
            problem = goJsonError(new String(bytes, StandardCharsets.UTF_8));
        }
        if (problem != null) {
            // Kubernetes never echoes secret data in an error.
            causes.add(Causes.invalid(f, "<secret contents redacted>", problem));
        }
    }

    /** Go's json.Unmarshal error for text that is not JSON, for the common cases. */
    private static String goJsonError(String text) {
        String t = text.strip();
        if (t.isEmpty()) {
            return "unexpected end of JSON input";
        }
        char c = t.charAt(0);
        if ("{[\"-0123456789tfn".indexOf(c) < 0) {
            return "invalid character '" + c + "' looking for beginning of value";
        }
        return "unexpected end of JSON input";
    }

    private static String goType(JsonNode node) {
        return node.isArray() ? "array" : node.isTextual() ? "string" : node.isNumber() ? "number"
                : node.isBoolean() ? "bool" : "value";
    }

    @Override
    public List<StatusCause> validateUpdate(Secret old, Secret updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (!java.util.Objects.equals(old.getType(), updated.getType())) {
            causes.add(Causes.invalid("type", updated.getType() == null ? "" : updated.getType(), "field is immutable"));
        }
        if (Boolean.TRUE.equals(old.getImmutable())) {
            // stringData is already folded into data here, so it is covered by the data check.
            ConfigMapRules.immutableWhenSet(updated.getImmutable(), old.getData(), updated.getData(), "data", causes);
        }
        return causes;
    }
}
