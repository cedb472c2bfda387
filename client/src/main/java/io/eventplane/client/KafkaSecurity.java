package io.eventplane.client;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The Kafka client settings a secured broker needs (SASL mechanism and JAAS config, TLS trust and key stores), passed
 * through untouched from a properties file and the environment; read once per process.
 */
final class KafkaSecurity {
    static final String FILE = "EVENTPLANE_KAFKA_CLIENT_CONFIG";
    static final String PREFIX = "EVENTPLANE_KAFKA_PROP_";
    private static final Map<String, Object> SETTINGS = read(System.getenv());

    private KafkaSecurity() {
    }

    static Map<String, Object> settings() {
        return SETTINGS;
    }

    static Map<String, Object> read(Map<String, String> env) {
        Map<String, Object> out = new HashMap<>();
        String file = EventplaneConfig.setting(FILE, env.getOrDefault(FILE, ""));
        if (!file.isBlank()) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(Path.of(file))) {
                p.load(r);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the Kafka client settings in " + file, e);
            }
            p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
        }
        env.forEach((k, v) -> {
            if (k.startsWith(PREFIX) && k.length() > PREFIX.length()) {
                out.put(k.substring(PREFIX.length()).toLowerCase(Locale.ROOT).replace('_', '.'), v);
            }
        });
        out.remove("bootstrap.servers");
        return Map.copyOf(out);
    }
}
