package io.eventplane.schemas.serde;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.avro.Schema;

/**
 * A Confluent schema registry REST client (works with Apicurio's {@code /apis/ccompat/v7}) over
 * {@link java.net.http.HttpClient}. Ids are cached both ways, so a schema is registered or fetched once per client.
 * Several comma-separated base URLs are tried in order when one cannot be reached.
 */
public final class RestSchemaRegistryClient implements SchemaRegistryClient {

    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final String ACCEPT =
            "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json; q=0.9, application/json; q=0.5";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final List<String> baseUrls;
    /**
     * Credentials for a secured registry, from the environment (or the system property of the same name in lower case
     * with dots): {@code EVENTPLANE_REGISTRY_BASIC_AUTH_USER_INFO} ({@code user:password}, Confluent's
     * {@code basic.auth.user.info}) or {@code EVENTPLANE_REGISTRY_BEARER_TOKEN}. HTTPS trusts the JVM's trust store
     * ({@code -Djavax.net.ssl.trustStore=...}).
     */
    private static final String AUTHORIZATION = authorization();
    private final HttpClient http;
    private final Duration requestTimeout;
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Integer>> idsBySubjectAndText = new ConcurrentHashMap<>();

    public RestSchemaRegistryClient(String baseUrls) {
        this(baseUrls, HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(), Duration.ofSeconds(30));
    }

    public RestSchemaRegistryClient(String baseUrls, HttpClient http, Duration requestTimeout) {
        this.baseUrls = Arrays.stream(baseUrls.split(","))
                .map(String::trim)
                .filter(url -> !url.isEmpty())
                .map(url -> url.endsWith("/") ? url.substring(0, url.length() - 1) : url)
                .toList();
        if (this.baseUrls.isEmpty()) {
            throw new IllegalArgumentException("no schema registry URL in '" + baseUrls + "'");
        }
        this.http = http;
        this.requestTimeout = requestTimeout;
    }

    @Override
    public int register(String subject, Schema schema) {
        String text = schema.toString();
        Integer cached = cachedId(subject, text);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send("POST", "/subjects/" + encode(subject) + "/versions", schemaBody(text));
        int id = requiredInt(answer, "id", "POST /subjects/" + subject + "/versions");
        remember(subject, text, id, schema);
        return id;
    }

    @Override
    public int lookupId(String subject, Schema schema) {
        String text = schema.toString();
        Integer cached = cachedId(subject, text);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send("POST", "/subjects/" + encode(subject), schemaBody(text));
        int id = requiredInt(answer, "id", "POST /subjects/" + subject);
        remember(subject, text, id, schema);
        return id;
    }

    @Override
    public Schema getById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        JsonNode answer = send("GET", "/schemas/ids/" + id, null);
        Schema schema = parseAvro(answer, "GET /schemas/ids/" + id);
        Schema raced = schemasById.putIfAbsent(id, schema);
        return raced != null ? raced : schema;
    }

    @Override
    public RegisteredSchema getLatest(String subject) {
        String what = "GET /subjects/" + subject + "/versions/latest";
        JsonNode answer = send("GET", "/subjects/" + encode(subject) + "/versions/latest", null);
        int id = requiredInt(answer, "id", what);
        Schema schema = parseAvro(answer, what);
        schemasById.putIfAbsent(id, schema);
        return new RegisteredSchema(subject, answer.path("version").asInt(-1), id, schema);
    }

    @Override
    public Optional<CompatibilityLevel> getCompatibility(String subject) {
        try {
            JsonNode answer = send("GET", configPath(subject), null);
            JsonNode level = answer.has("compatibilityLevel") ? answer.get("compatibilityLevel") : answer.get("compatibility");
            return level == null || level.isNull() ? Optional.empty() : Optional.of(CompatibilityLevel.parse(level.asText()));
        } catch (SchemaRegistryException e) {
            if (e.isNotFound()) {
                return Optional.empty();
            }
            throw e;
        }
    }

    @Override
    public void setCompatibility(String subject, CompatibilityLevel level) {
        ObjectNode body = JSON.createObjectNode().put("compatibility", level.name());
        send("PUT", configPath(subject), body);
    }

    @Override
    public boolean testCompatibility(String subject, Schema schema) {
        try {
            JsonNode answer = send("POST", "/compatibility/subjects/" + encode(subject) + "/versions/latest",
                    schemaBody(schema.toString()));
            return answer.path("is_compatible").asBoolean(false);
        } catch (SchemaRegistryException e) {
            if (e.isNotFound()) {
                return true;
            }
            throw e;
        }
    }

    @Override
    public String toString() {
        return "RestSchemaRegistryClient" + baseUrls;
    }

    private Integer cachedId(String subject, String text) {
        Map<String, Integer> ids = idsBySubjectAndText.get(subject);
        return ids == null ? null : ids.get(text);
    }

    private void remember(String subject, String text, int id, Schema schema) {
        idsBySubjectAndText.computeIfAbsent(subject, s -> new ConcurrentHashMap<>()).put(text, id);
        schemasById.putIfAbsent(id, schema);
    }

    private static ObjectNode schemaBody(String schemaText) {
        return JSON.createObjectNode().put("schema", schemaText);
    }

    private static String configPath(String subject) {
        return subject == null ? "/config" : "/config/" + encode(subject);
    }

    private static String encode(String pathSegment) {
        return URLEncoder.encode(pathSegment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static int requiredInt(JsonNode answer, String field, String what) {
        JsonNode value = answer.get(field);
        if (value == null || !value.canConvertToInt()) {
            throw new SchemaRegistryException("schema registry answered " + what + " without a numeric '" + field
                    + "': " + answer, 200, 0);
        }
        return value.asInt();
    }

    private static Schema parseAvro(JsonNode answer, String what) {
        String type = answer.path("schemaType").asText("AVRO");
        if (!type.isEmpty() && !type.equalsIgnoreCase("AVRO")) {
            throw new SchemaRegistryException(what + " is a " + type + " schema, not Avro", 200, 0);
        }
        JsonNode text = answer.get("schema");
        if (text == null || !text.isTextual()) {
            throw new SchemaRegistryException("schema registry answered " + what + " without a schema: " + answer, 200, 0);
        }
        try {
            return new Schema.Parser().parse(text.asText());
        } catch (RuntimeException e) {
            throw new SchemaRegistryException(what + " returned a schema Avro cannot parse: " + e.getMessage(), 200, 0, e);
        }
    }

    private static String authorization() {
        String basic = setting("EVENTPLANE_REGISTRY_BASIC_AUTH_USER_INFO");
        if (basic != null) {
            return "Basic " + java.util.Base64.getEncoder().encodeToString(basic.getBytes(StandardCharsets.UTF_8));
        }
        String bearer = setting("EVENTPLANE_REGISTRY_BEARER_TOKEN");
        return bearer == null ? null : "Bearer " + bearer;
    }

    private static String setting(String env) {
        String v = System.getProperty(env.toLowerCase(java.util.Locale.ROOT).replace('_', '.'));
        if (v == null || v.isBlank()) {
            v = System.getenv(env);
        }
        return v == null || v.isBlank() ? null : v;
    }

    private JsonNode send(String method, String path, JsonNode body) {
        IOException lastFailure = null;
        for (String baseUrl : baseUrls) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                    .timeout(requestTimeout)
                    .header("Accept", ACCEPT);
            if (AUTHORIZATION != null) {
                request.header("Authorization", AUTHORIZATION);
            }
            if (body != null) {
                request.header("Content-Type", CONTENT_TYPE)
                        .method(method, HttpRequest.BodyPublishers.ofString(body.toString(), StandardCharsets.UTF_8));
            } else {
                request.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<String> response;
            try {
                response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                lastFailure = e;
                continue;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SchemaRegistryException("interrupted during " + method + " " + baseUrl + path,
                        SchemaRegistryException.UNREACHABLE, 0, e);
            }
            return answer(method, baseUrl + path, response);
        }
        throw new SchemaRegistryException("schema registry unreachable for " + method + " " + path + " at " + baseUrls
                + ": " + lastFailure, SchemaRegistryException.UNREACHABLE, 0, lastFailure);
    }

    private static JsonNode answer(String method, String url, HttpResponse<String> response) {
        int status = response.statusCode();
        JsonNode json;
        try {
            json = response.body() == null || response.body().isBlank() ? JSON.createObjectNode()
                    : JSON.readTree(response.body());
        } catch (IOException e) {
            json = null;
        }
        if (status >= 200 && status < 300) {
            if (json == null) {
                throw new SchemaRegistryException(method + " " + url + " answered HTTP " + status
                        + " with a body that is not JSON: " + abbreviate(response.body()), status, 0);
            }
            return json;
        }
        int errorCode = json != null && json.path("error_code").canConvertToInt() ? json.path("error_code").asInt() : status;
        String message = json != null && json.hasNonNull("message") ? json.get("message").asText() : abbreviate(response.body());
        throw new SchemaRegistryException("schema registry refused " + method + " " + url + ": HTTP " + status
                + ", error_code " + errorCode + ": " + message, status, errorCode);
    }

    private static String abbreviate(String text) {
        if (text == null) {
            return "";
        }
        return text.length() <= 500 ? text : text.substring(0, 500) + "...";
    }
}
