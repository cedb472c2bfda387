package io.eventplane.core.container;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.model.ConfigMap;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.Secret;
import io.eventplane.model.Service;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Objects from YAML and an in-memory {@link ContainerSources}; a {@link ShellIo} that records. */
final class Fixtures {
    private Fixtures() {
    }

    static <T extends org.apache.avro.specific.SpecificRecord> T parse(String yaml, Class<T> type) {
        return KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), type, FieldValidation.STRICT, null);
    }

    static final class Sources implements ContainerSources {
        final List<ConfigMap> configMaps = new ArrayList<>();
        final List<Secret> secrets = new ArrayList<>();
        final List<Service> services = new ArrayList<>();
        final List<Node> nodes = new ArrayList<>();

        Sources with(String yaml) {
            if (yaml.contains("kind: ConfigMap")) {
                configMaps.add(parse(yaml, ConfigMap.class));
            } else if (yaml.contains("kind: Secret")) {
                secrets.add(parse(yaml, Secret.class));
            } else if (yaml.contains("kind: Service")) {
                services.add(parse(yaml, Service.class));
            } else {
                nodes.add(parse(yaml, Node.class));
            }
            return this;
        }

        @Override
        public Optional<ConfigMap> configMap(String namespace, String name) {
            return configMaps.stream().filter(c -> c.getMetadata().getNamespace().equals(namespace)
                    && c.getMetadata().getName().equals(name)).findFirst();
        }

        @Override
        public Optional<Secret> secret(String namespace, String name) {
            return secrets.stream().filter(c -> c.getMetadata().getNamespace().equals(namespace)
                    && c.getMetadata().getName().equals(name)).findFirst();
        }

        @Override
        public List<Service> services(String namespace) {
            return services.stream().filter(s -> s.getMetadata().getNamespace().equals(namespace)).toList();
        }

        @Override
        public Optional<Node> node(String name) {
            return nodes.stream().filter(n -> n.getMetadata().getName().equals(name)).findFirst();
        }
    }

    /** Records what a command writes and how long it sleeps. */
    static final class Recording implements ShellIo {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final InputStream in;
        Duration slept = Duration.ZERO;

        Recording(String stdin) {
            in = new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public InputStream stdin() {
            return in;
        }

        @Override
        public void out(byte[] bytes) {
            out.writeBytes(bytes);
        }

        @Override
        public void err(byte[] bytes) {
            err.writeBytes(bytes);
        }

        @Override
        public void sleep(Duration duration) {
            slept = slept.plus(duration);
        }

        String stdout() {
            return out.toString(StandardCharsets.UTF_8);
        }

        String stderr() {
            return err.toString(StandardCharsets.UTF_8);
        }
    }
}
