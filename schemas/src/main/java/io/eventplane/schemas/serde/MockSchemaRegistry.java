package io.eventplane.schemas.serde;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * An in-memory schema registry, one per scope and JVM ({@code mock://<scope>}), for unit tests.
 *
 * <p>It behaves like a Confluent registry where the serde can tell: ids are global and the same schema text gets
 * the same id in every subject; the registry-wide compatibility starts as BACKWARD and is enforced on register with
 * Avro's own {@link SchemaCompatibility} rules; refusals carry the Confluent HTTP status and error code.
 */
public final class MockSchemaRegistry implements SchemaRegistryClient {

    private static final Map<String, MockSchemaRegistry> SCOPES = new ConcurrentHashMap<>();

    private final String scope;
    private final Map<String, Integer> idsByText = new HashMap<>();
    private final Map<Integer, Schema> schemasById = new HashMap<>();
    private final Map<String, List<Integer>> versionsBySubject = new HashMap<>();
    private final Map<String, CompatibilityLevel> compatibilityBySubject = new HashMap<>();
    private CompatibilityLevel globalCompatibility = CompatibilityLevel.BACKWARD;
    private int nextId = 1;
    private final AtomicInteger requests = new AtomicInteger();

    private MockSchemaRegistry(String scope) {
        this.scope = scope;
    }

    /** The registry of {@code scope}, created empty on first use. */
    public static MockSchemaRegistry forScope(String scope) {
        return SCOPES.computeIfAbsent(scope, MockSchemaRegistry::new);
    }

    /** Forgets the registry of {@code scope}; the next {@link #forScope} starts empty. */
    public static void dropScope(String scope) {
        SCOPES.remove(scope);
    }

    /** How many requests this registry has served, to check a serde's caching. */
    public int requestCount() {
        return requests.get();
    }

    @Override
    public synchronized int register(String subject, Schema schema) {
        requests.incrementAndGet();
        String text = schema.toString();
        List<Integer> versions = versionsBySubject.getOrDefault(subject, List.of());
        Integer existing = idsByText.get(text);
        if (existing != null && versions.contains(existing)) {
            return existing;
        }
        String incompatibility = incompatibility(subject, schema, versions);
        if (incompatibility != null) {
            throw new SchemaRegistryException("Schema being registered is incompatible with an earlier schema for "
                    + "subject \"" + subject + "\": " + incompatibility + " (HTTP 409, error_code 409)", 409, 409);
        }
        int id = existing != null ? existing : nextId++;
        idsByText.put(text, id);
        schemasById.putIfAbsent(id, schema);
        versionsBySubject.computeIfAbsent(subject, s -> new ArrayList<>()).add(id);
        return id;
    }

    @Override
    public synchronized int lookupId(String subject, Schema schema) {
        requests.incrementAndGet();
        Integer id = idsByText.get(schema.toString());
        if (id == null || !versionsBySubject.getOrDefault(subject, List.of()).contains(id)) {
            throw notFound("Schema not found in subject \"" + subject + "\"", 40403);
        }
        return id;
    }

    @Override
    public synchronized Schema getById(int id) {
        requests.incrementAndGet();
        Schema schema = schemasById.get(id);
        if (schema == null) {
            throw notFound("Schema " + id + " not found", 40403);
        }
        return schema;
    }

    @Override
    public synchronized RegisteredSchema getLatest(String subject) {
        requests.incrementAndGet();
        List<Integer> versions = versionsBySubject.get(subject);
        if (versions == null || versions.isEmpty()) {
            throw notFound("Subject '" + subject + "' not found.", 40401);
        }
        int id = versions.get(versions.size() - 1);
        return new RegisteredSchema(subject, versions.size(), id, schemasById.get(id));
    }

    @Override
    public synchronized Optional<CompatibilityLevel> getCompatibility(String subject) {
        requests.incrementAndGet();
        return subject == null ? Optional.of(globalCompatibility)
                : Optional.ofNullable(compatibilityBySubject.get(subject));
    }

    @Override
    public synchronized void setCompatibility(String subject, CompatibilityLevel level) {
        requests.incrementAndGet();
        if (subject == null) {
            globalCompatibility = level;
        } else {
            compatibilityBySubject.put(subject, level);
        }
    }

    @Override
    public synchronized boolean testCompatibility(String subject, Schema schema) {
        requests.incrementAndGet();
        return incompatibility(subject, schema, versionsBySubject.getOrDefault(subject, List.of())) == null;
    }

    @Override
    public String toString() {
        return SerdeConfig.MOCK_URL_PREFIX + scope;
    }

    /** Why {@code candidate} may not follow {@code versions} in {@code subject}, or null if it may. */
    private String incompatibility(String subject, Schema candidate, List<Integer> versions) {
        if (versions.isEmpty()) {
            return null;
        }
        CompatibilityLevel level = compatibilityBySubject.getOrDefault(subject, globalCompatibility);
        List<Integer> checked = level.isTransitive() ? versions : versions.subList(versions.size() - 1, versions.size());
        for (int id : checked) {
            Schema earlier = schemasById.get(id);
            if (level.includesBackward()) {
                String problem = problem(candidate, earlier);
                if (problem != null) {
                    return "new schema cannot read data written with id " + id + ": " + problem;
                }
            }
            if (level.includesForward()) {
                String problem = problem(earlier, candidate);
                if (problem != null) {
                    return "schema id " + id + " cannot read data written with the new schema: " + problem;
                }
            }
        }
        return null;
    }

    private static String problem(Schema reader, Schema writer) {
        SchemaCompatibility.SchemaPairCompatibility result =
                SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        if (result.getType() == SchemaCompatibilityType.COMPATIBLE) {
            return null;
        }
        return result.getResult().getIncompatibilities().stream()
                .map(i -> i.getType() + " at " + i.getLocation() + " (" + i.getMessage() + ")")
                .toList().toString();
    }

    private static SchemaRegistryException notFound(String message, int errorCode) {
        return new SchemaRegistryException(message + " (HTTP 404, error_code " + errorCode + ")", 404, errorCode);
    }
}
