package io.eventplane.client;

import io.eventplane.schemas.Topics;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the cluster's log lives: what every service needs to join it.
 *
 * @param bootstrapServers Kafka bootstrap
 * @param registryUrl      schema registry (Confluent API) URL, or {@code mock://scope} in unit tests
 * @param topics           topic names
 * @param partitions       partitions of the command and event topics (fixed once created: resourceVersions encode it)
 */
public record EventplaneConfig(String bootstrapServers, String registryUrl, Topics topics, int partitions) {

    public EventplaneConfig {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1");
        }
    }

    public EventplaneConfig(String bootstrapServers, String registryUrl) {
        this(bootstrapServers, registryUrl, Topics.DEFAULT, 1);
    }

    /**
     * From the environment: {@code EVENTPLANE_KAFKA_BOOTSTRAP} (default localhost:9092), {@code EVENTPLANE_REGISTRY_URL},
     * {@code EVENTPLANE_TOPIC_PREFIX} (ep), {@code EVENTPLANE_PARTITIONS} (1); each overridable by a system property of
     * the same name in lower case with dots ({@code eventplane.kafka.bootstrap}).
     */
    public static EventplaneConfig fromEnvironment() {
        return new EventplaneConfig(
                setting("EVENTPLANE_KAFKA_BOOTSTRAP", "localhost:9092"),
                setting("EVENTPLANE_REGISTRY_URL", "http://localhost:8081/apis/ccompat/v7"),
                new Topics(setting("EVENTPLANE_TOPIC_PREFIX", "ep")),
                configuredPartitions());
    }

    /**
     * Partitions of the command and event topics when a new log is created ({@code EVENTPLANE_PARTITIONS}, default 1).
     * The integration suite runs on this too: {@code -Pscale} sets 4.
     */
    public static int configuredPartitions() {
        return Integer.parseInt(setting("EVENTPLANE_PARTITIONS", "1"));
    }

    /**
     * Writer instances one process runs ({@code EVENTPLANE_WRITERS}, default 1): Kafka Streams spreads the command
     * partitions' tasks across them as across writer processes. More than one in a process is for tests ({@code
     * -Pscale} sets 2) and benchmarks; in production each writer is its own process.
     */
    public static int configuredWriters() {
        return Integer.parseInt(setting("EVENTPLANE_WRITERS", "1"));
    }

    /**
     * Each setting's system property name ({@code EVENTPLANE_X_Y} -> {@code eventplane.x.y}), derived once: every
     * command sent reads several settings.
     */
    private static final Map<String, String> PROPERTY_NAMES = new ConcurrentHashMap<>();

    /**
     * How long a consumer's fetch waits at the broker when there is nothing new. The broker answers a waiting fetch as
     * soon as data arrives (a committed transaction, for read-committed consumers), so this bounds only how often an
     * idle consumer asks again: at 20 ms each idle consumer cost the broker 50 requests a second.
     */
    public static final int FETCH_WAIT_MS = 500;

    public static String setting(String env, String fallback) {
        String prop = System.getProperty(PROPERTY_NAMES.computeIfAbsent(env, e -> e.toLowerCase().replace('_', '.')));
        if (prop != null && !prop.isBlank()) {
            return prop;
        }
        String v = System.getenv(env);
        return v == null || v.isBlank() ? fallback : v;
    }

    /**
     * The writer's Kafka Streams application id, which is also its consumer group: its committed offsets on the
     * command log say which commands it has decided.
     */
    public String writerGroup() {
        return topics.prefix() + "-writer";
    }

    /** The serde settings for records of this cluster. */
    public Map<String, Object> serdeConfig() {
        Map<String, Object> m = new HashMap<>();
        m.put("schema.registry.url", registryUrl);
        m.put("auto.register.schemas", true);
        return m;
    }

    /**
     * Every Kafka client's settings: the bootstrap servers plus the security passthrough, so each service can reach a
     * broker that wants SASL and/or TLS: the properties file {@code EVENTPLANE_KAFKA_CLIENT_CONFIG} (as Kafka's own
     * tools take {@code --command-config}) and then each {@code EVENTPLANE_KAFKA_PROP_<NAME>} environment variable as
     * the property {@code <name>} with underscores as dots ({@code EVENTPLANE_KAFKA_PROP_SECURITY_PROTOCOL=SASL_SSL},
     * {@code EVENTPLANE_KAFKA_PROP_SASL_JAAS_CONFIG=...}).
     */
    public Map<String, Object> kafkaConfig() {
        Map<String, Object> m = new HashMap<>(KafkaSecurity.settings());
        m.put("bootstrap.servers", bootstrapServers);
        return m;
    }
}
