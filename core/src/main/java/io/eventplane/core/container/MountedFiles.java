package io.eventplane.core.container;

import io.eventplane.model.DownwardAPIVolumeFile;
import io.eventplane.model.KeyToPath;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import io.eventplane.model.VolumeProjection;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The files a container sees: each volume mount's content at its mount path (ConfigMap and Secret keys or their
 * {@code items}, downward API files, projected volumes' sources, a service account token (the sources' one, else a
 * placeholder); emptyDir and the other kinds as empty directories; {@code subPath} mounts one entry), plus
 * {@code /etc/hostname} and {@code /etc/hosts}.
 */
public final class MountedFiles {
    static final String TOKEN = "eyJhbGciOiJSUzI1NiJ9.simulated-service-account-token.c2lt";

    private MountedFiles() {
    }

    /** Absolute path to content; directories with no files are listed in {@code directories}. */
    public record Tree(Map<String, byte[]> files, java.util.SortedSet<String> directories) {
    }

    public static Tree of(Pod pod, ContainerShape container, String hostname, ContainerSources sources) {
        Map<String, byte[]> files = new TreeMap<>();
        java.util.SortedSet<String> dirs = new java.util.TreeSet<>(List.of("/", "/bin", "/dev", "/etc", "/home",
                "/proc", "/root", "/sys", "/tmp", "/usr", "/var"));
        files.put("/etc/hostname", (hostname + "\n").getBytes(StandardCharsets.UTF_8));
        files.put("/etc/hosts", hosts(pod, hostname).getBytes(StandardCharsets.UTF_8));
        Node node = pod.getSpec().getNodeName() == null ? null
                : sources.node(pod.getSpec().getNodeName()).orElse(null);
        for (VolumeMount mount : container.volumeMounts()) {
            Optional<Volume> volume = volume(pod, mount.getName());
            if (volume.isEmpty() || mount.getMountPath() == null) {
                continue;
            }
            String root = trimSlash(mount.getMountPath());
            Map<String, byte[]> content = content(pod, container, volume.get(), sources, node);
            String subPath = mount.getSubPath() == null ? "" : trimSlash("/" + mount.getSubPath()).substring(1);
            dirs.add(root.isEmpty() ? "/" : root);
            content.forEach((relative, bytes) -> {
                if (subPath.isEmpty()) {
                    files.put(root + "/" + relative, bytes);
                } else if (relative.equals(subPath)) {
                    dirs.remove(root);
                    files.put(root, bytes);
                } else if (relative.startsWith(subPath + "/")) {
                    files.put(root + relative.substring(subPath.length()), bytes);
                }
            });
        }
        for (String path : files.keySet()) {
            for (int i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
                dirs.add(path.substring(0, i));
            }
        }
        return new Tree(files, dirs);
    }

    /** A volume's files by path relative to its root. */
    static Map<String, byte[]> content(Pod pod, ContainerShape container, Volume volume, ContainerSources sources,
                                       Node node) {
        String namespace = pod.getMetadata().getNamespace();
        Map<String, byte[]> out = new TreeMap<>();
        if (volume.getConfigMap() != null) {
            sources.configMap(namespace, volume.getConfigMap().getName()).ifPresent(cm ->
                    keys(EnvironmentVariables.configMapData(cm), volume.getConfigMap().getItems(), out));
        } else if (volume.getSecret() != null) {
            sources.secret(namespace, volume.getSecret().getSecretName()).ifPresent(s ->
                    keys(EnvironmentVariables.secretData(s), volume.getSecret().getItems(), out));
        } else if (volume.getDownwardAPI() != null) {
            downward(pod, container, volume.getDownwardAPI().getItems(), node, out);
        } else if (volume.getProjected() != null && volume.getProjected().getSources() != null) {
            for (VolumeProjection source : volume.getProjected().getSources()) {
                if (source.getConfigMap() != null) {
                    sources.configMap(namespace, source.getConfigMap().getName()).ifPresent(cm ->
                            keys(EnvironmentVariables.configMapData(cm), source.getConfigMap().getItems(), out));
                } else if (source.getSecret() != null) {
                    sources.secret(namespace, source.getSecret().getName()).ifPresent(s ->
                            keys(EnvironmentVariables.secretData(s), source.getSecret().getItems(), out));
                } else if (source.getDownwardAPI() != null) {
                    downward(pod, container, source.getDownwardAPI().getItems(), node, out);
                } else if (source.getServiceAccountToken() != null) {
                    String path = source.getServiceAccountToken().getPath();
                    String token = sources.serviceAccountToken(pod, source.getServiceAccountToken()).orElse(TOKEN);
                    out.put(path == null ? "token" : path, token.getBytes(StandardCharsets.UTF_8));
                }
            }
        }
        return out;
    }

    private static void keys(Map<String, String> data, List<KeyToPath> items, Map<String, byte[]> out) {
        if (items == null || items.isEmpty()) {
            data.forEach((k, v) -> out.put(k, v.getBytes(StandardCharsets.UTF_8)));
            return;
        }
        for (KeyToPath item : items) {
            String value = data.get(item.getKey());
            if (value != null) {
                out.put(item.getPath() == null ? item.getKey() : item.getPath(), value.getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    private static void downward(Pod pod, ContainerShape container, List<DownwardAPIVolumeFile> items, Node node,
                                 Map<String, byte[]> out) {
        if (items == null) {
            return;
        }
        for (DownwardAPIVolumeFile item : items) {
            Optional<String> value = Optional.empty();
            if (item.getFieldRef() != null) {
                value = DownwardApi.field(pod, item.getFieldRef().getFieldPath(), DownwardApi.Via.VOLUME);
            } else if (item.getResourceFieldRef() != null) {
                String name = item.getResourceFieldRef().getContainerName();
                ContainerShape target = name == null || name.isEmpty() ? container
                        : ContainerShape.find(pod, name).orElse(container);
                value = DownwardApi.resource(target, item.getResourceFieldRef(), node);
            }
            value.ifPresent(v -> out.put(item.getPath(), v.getBytes(StandardCharsets.UTF_8)));
        }
    }

    private static Optional<Volume> volume(Pod pod, String name) {
        List<Volume> volumes = pod.getSpec().getVolumes();
        return volumes == null ? Optional.empty()
                : volumes.stream().filter(v -> name != null && name.equals(v.getName())).findFirst();
    }

    private static String hosts(Pod pod, String hostname) {
        String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        StringBuilder out = new StringBuilder("# Kubernetes-managed hosts file.\n127.0.0.1\tlocalhost\n"
                + "::1\tlocalhost ip6-localhost ip6-loopback\n");
        if (ip != null && !ip.isEmpty()) {
            String subdomain = pod.getSpec().getSubdomain();
            String names = subdomain == null || subdomain.isEmpty() ? hostname
                    : hostname + "." + subdomain + "." + pod.getMetadata().getNamespace() + ".svc.cluster.local\t"
                    + hostname;
            out.append(ip).append('\t').append(names).append('\n');
        }
        return out.toString();
    }

    static String trimSlash(String path) {
        String p = path;
        while (p.length() > 1 && p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.equals("/") ? "" : p;
    }
}
