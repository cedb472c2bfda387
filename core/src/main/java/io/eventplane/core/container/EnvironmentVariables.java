package io.eventplane.core.container;

import io.eventplane.model.ConfigMap;
import io.eventplane.model.EnvFromSource;
import io.eventplane.model.EnvVar;
import io.eventplane.model.EnvVarSource;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.Secret;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A container's environment variables as the kubelet and the runtime set them: the image's {@code PATH}, the
 * {@code HOSTNAME}; {@code envFrom} then {@code env} in declaration order (a later one wins), each {@code env} value
 * with {@code $(VAR)} references expanded ({@code $$} escapes); the service link variables of the namespace's
 * Services (and always the {@code kubernetes} Service) for names not already set; {@code HOME}.
 */
public final class EnvironmentVariables {
    static final String PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
    private static final String MASTER_NAMESPACE = "default";
    private static final String MASTER_SERVICE = "kubernetes";

    private EnvironmentVariables() {
    }

    public static Map<String, String> of(Pod pod, ContainerShape container, String hostname,
                                         ContainerSources sources) {
        String namespace = pod.getMetadata().getNamespace();
        Map<String, String> services = serviceLinks(pod, sources);
        Map<String, String> declared = new LinkedHashMap<>();
        for (EnvFromSource from : container.envFrom()) {
            String prefix = from.getPrefix() == null ? "" : from.getPrefix();
            if (from.getConfigMapRef() != null) {
                sources.configMap(namespace, from.getConfigMapRef().getName()).ifPresent(cm ->
                        configMapData(cm).forEach((k, v) -> declared.put(prefix + k, v)));
            }
            if (from.getSecretRef() != null) {
                sources.secret(namespace, from.getSecretRef().getName()).ifPresent(s ->
                        secretData(s).forEach((k, v) -> declared.put(prefix + k, v)));
            }
        }
        Node node = pod.getSpec().getNodeName() == null ? null
                : sources.node(pod.getSpec().getNodeName()).orElse(null);
        for (EnvVar var : container.env()) {
            String value = var.getValueFrom() == null
                    ? expand(var.getValue() == null ? "" : var.getValue(), declared, services)
                    : valueFrom(pod, container, var.getValueFrom(), sources, node);
            if (value != null) {
                declared.remove(var.getName()); // a redefinition moves to where it was last set
                declared.put(var.getName(), value);
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PATH", PATH);
        env.put("HOSTNAME", hostname);
        env.putAll(declared);
        services.forEach(env::putIfAbsent);
        env.putIfAbsent("HOME", "/root");
        return env;
    }

    private static String valueFrom(Pod pod, ContainerShape container, EnvVarSource from, ContainerSources sources,
                                     Node node) {
        String namespace = pod.getMetadata().getNamespace();
        if (from.getFieldRef() != null) {
            return DownwardApi.field(pod, from.getFieldRef().getFieldPath(), DownwardApi.Via.ENV).orElse(null);
        }
        if (from.getResourceFieldRef() != null) {
            var selector = from.getResourceFieldRef();
            ContainerShape target = selector.getContainerName() == null || selector.getContainerName().isEmpty()
                    ? container : ContainerShape.find(pod, selector.getContainerName()).orElse(container);
            return DownwardApi.resource(target, selector, node).orElse(null);
        }
        if (from.getConfigMapKeyRef() != null) {
            var ref = from.getConfigMapKeyRef();
            return sources.configMap(namespace, ref.getName()).map(cm -> configMapData(cm).get(ref.getKey()))
                    .orElse(null);
        }
        if (from.getSecretKeyRef() != null) {
            var ref = from.getSecretKeyRef();
            return sources.secret(namespace, ref.getName()).map(s -> secretData(s).get(ref.getKey())).orElse(null);
        }
        return null;
    }

    /** {@code $(NAME)} replaced by a defined variable's value, {@code $$} by {@code $}; anything else kept. */
    static String expand(String input, Map<String, String> declared, Map<String, String> services) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < input.length()) {
            char c = input.charAt(i);
            if (c == '$' && i + 1 < input.length()) {
                char next = input.charAt(i + 1);
                if (next == '$') {
                    out.append('$');
                    i += 2;
                    continue;
                }
                int close = next == '(' ? input.indexOf(')', i + 2) : -1;
                if (close > 0) {
                    String name = input.substring(i + 2, close);
                    String value = declared.containsKey(name) ? declared.get(name) : services.get(name);
                    if (value != null) {
                        out.append(value);
                    } else {
                        out.append(input, i, close + 1);
                    }
                    i = close + 1;
                    continue;
                }
            }
            out.append(c);
            i++;
        }
        return out.toString();
    }

    /** The Docker-link style variables of the Services a container sees, sorted by name. */
    public static Map<String, String> serviceLinks(Pod pod, ContainerSources sources) {
        Map<String, String> env = new TreeMap<>();
        String namespace = pod.getMetadata().getNamespace();
        boolean links = !Boolean.FALSE.equals(pod.getSpec().getEnableServiceLinks());
        if (links) {
            sources.services(namespace).forEach(s -> addService(env, s));
        }
        if (!links || !MASTER_NAMESPACE.equals(namespace)) {
            sources.services(MASTER_NAMESPACE).stream()
                    .filter(s -> MASTER_SERVICE.equals(s.getMetadata().getName()))
                    .forEach(s -> addService(env, s));
        }
        return env;
    }

    private static void addService(Map<String, String> env, Service service) {
        var spec = service.getSpec();
        if (spec == null || spec.getClusterIP() == null || spec.getClusterIP().isEmpty()
                || spec.getClusterIP().equals("None") || spec.getPorts() == null || spec.getPorts().isEmpty()) {
            return;
        }
        String ip = spec.getClusterIP();
        String name = envName(service.getMetadata().getName());
        env.put(name + "_SERVICE_HOST", ip);
        env.put(name + "_SERVICE_PORT", String.valueOf(spec.getPorts().get(0).getPort()));
        for (int i = 0; i < spec.getPorts().size(); i++) {
            ServicePort port = spec.getPorts().get(i);
            if (port.getName() != null && !port.getName().isEmpty()) {
                env.put(name + "_SERVICE_PORT_" + envName(port.getName()), String.valueOf(port.getPort()));
            }
            String protocol = port.getProtocol() == null ? "TCP" : port.getProtocol();
            String url = protocol.toLowerCase(Locale.ROOT) + "://" + ip + ":" + port.getPort();
            String prefix = name + "_PORT_" + port.getPort() + "_" + protocol.toUpperCase(Locale.ROOT);
            if (i == 0) {
                env.put(name + "_PORT", url);
            }
            env.put(prefix, url);
            env.put(prefix + "_PROTO", protocol.toLowerCase(Locale.ROOT));
            env.put(prefix + "_PORT", String.valueOf(port.getPort()));
            env.put(prefix + "_ADDR", ip);
        }
    }

    private static String envName(String name) {
        return name.toUpperCase(Locale.ROOT).replace('-', '_');
    }

    static Map<String, String> configMapData(ConfigMap cm) {
        Map<String, String> out = new TreeMap<>();
        if (cm.getData() != null) {
            out.putAll(cm.getData());
        }
        if (cm.getBinaryData() != null) {
            cm.getBinaryData().forEach((k, v) -> out.put(k, text(v)));
        }
        return out;
    }

    static Map<String, String> secretData(Secret s) {
        Map<String, String> out = new TreeMap<>();
        if (s.getData() != null) {
            s.getData().forEach((k, v) -> out.put(k, text(v)));
        }
        return out;
    }

    static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer b = buffer.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static String text(ByteBuffer buffer) {
        return new String(bytes(buffer), StandardCharsets.UTF_8);
    }
}
