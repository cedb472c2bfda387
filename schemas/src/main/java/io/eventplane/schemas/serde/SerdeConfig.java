package io.eventplane.schemas.serde;

import java.util.List;
import java.util.Map;

/**
 * Configuration keys of the Avro serde. The Confluent keys keep their Confluent names, so a Confluent-style client
 * configuration works unchanged.
 */
public final class SerdeConfig {

    /** {@code http://host:port/apis/ccompat/v7} (comma-separated for several), or {@code mock://<scope>}. */
    public static final String SCHEMA_REGISTRY_URL = "schema.registry.url";
    /** Register the record's schema on first use (default true); otherwise look its id up. */
    public static final String AUTO_REGISTER_SCHEMAS = "auto.register.schemas";
    /** Serialize with the subject's latest registered schema instead of registering (default false). */
    public static final String USE_LATEST_VERSION = "use.latest.version";
    public static final String KEY_SUBJECT_NAME_STRATEGY = "key.subject.name.strategy";
    public static final String VALUE_SUBJECT_NAME_STRATEGY = "value.subject.name.strategy";
    /** Deserialize into the generated class that the writer schema names (default false: GenericRecord). */
    public static final String SPECIFIC_AVRO_READER = "specific.avro.reader";
    /** The generated class a value deserializer reads into (its {@code SCHEMA$} is the reader schema). */
    public static final String VALUE_TYPE = "eventplane.avro.value.type";
    /** The generated class a key deserializer reads into. */
    public static final String KEY_TYPE = "eventplane.avro.key.type";
    /**
     * Before registering into a subject, make its compatibility at least BACKWARD (default true). See
     * {@link SchemaRegistration}.
     */
    public static final String ENSURE_BACKWARD_COMPATIBILITY = "eventplane.avro.ensure.backward.compatibility";

    /** The URL scheme of the in-JVM registry shared per scope, for unit tests. */
    public static final String MOCK_URL_PREFIX = "mock://";

    private SerdeConfig() {
    }

    /** The registry URL from {@code configs}; Confluent also allows a list of URLs. */
    static String registryUrl(Map<String, ?> configs) {
        Object value = configs.get(SCHEMA_REGISTRY_URL);
        if (value instanceof List<?> list) {
            return String.join(",", list.stream().map(String::valueOf).toList());
        }
        return value == null ? null : value.toString().trim();
    }

    static boolean flag(Map<String, ?> configs, String key, boolean defaultValue) {
        Object value = configs.get(key);
        if (value == null) {
            return defaultValue;
        }
        if (value instanceof Boolean b) {
            return b;
        }
        String text = value.toString().trim();
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(key + " must be true or false, not '" + value + "'");
    }

    static SubjectNameStrategy subjectNameStrategy(Map<String, ?> configs, boolean isKey) {
        Object value = configs.get(isKey ? KEY_SUBJECT_NAME_STRATEGY : VALUE_SUBJECT_NAME_STRATEGY);
        if (value == null) {
            return new TopicNameStrategy();
        }
        if (value instanceof SubjectNameStrategy strategy) {
            return strategy;
        }
        return SubjectNameStrategy.named(value instanceof Class<?> type ? type.getName() : value.toString().trim());
    }

    /** The class named by {@link #KEY_TYPE} or {@link #VALUE_TYPE}, or null if unset. */
    static Class<?> recordType(Map<String, ?> configs, boolean isKey) {
        Object value = configs.get(isKey ? KEY_TYPE : VALUE_TYPE);
        if (value == null) {
            return null;
        }
        if (value instanceof Class<?> type) {
            return type;
        }
        String name = value.toString().trim();
        try {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            return Class.forName(name, true, loader != null ? loader : SerdeConfig.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException((isKey ? KEY_TYPE : VALUE_TYPE) + ": no class " + name, e);
        }
    }
}
