package io.eventplane.core.container;

import io.eventplane.model.Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * What a simulated container is, seen from inside: its environment variables, its files (mounted volumes and a
 * few of the runtime's), its hostname and its declared processes (PID 1 is the container's command). Resolved from
 * the pod and the objects it refers to, as the kubelet resolves them when it starts the container; what
 * {@code exec}, {@code attach} and {@code cp} show.
 */
public record ContainerEnvironment(String namespace, String pod, ContainerShape container, String hostname,
                                   Map<String, String> env, Map<String, byte[]> files, SortedSet<String> directories,
                                   List<String> processes) {

    /** The environment of {@code containerName} in {@code pod}, or empty when the pod has no such container. */
    public static Optional<ContainerEnvironment> resolve(Pod pod, String containerName, ContainerSources sources) {
        return ContainerShape.find(pod, containerName).map(c -> resolve(pod, c, sources));
    }

    public static ContainerEnvironment resolve(Pod pod, ContainerShape container, ContainerSources sources) {
        String hostname = hostname(pod);
        MountedFiles.Tree tree = MountedFiles.of(pod, container, hostname, sources);
        return new ContainerEnvironment(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), container,
                hostname, EnvironmentVariables.of(pod, container, hostname, sources), tree.files(),
                tree.directories(), List.of(String.join(" ", container.process())));
    }

    /** {@code spec.hostname}, else the pod's name, cut to a DNS label's 63 characters as the kubelet does. */
    static String hostname(Pod pod) {
        String h = pod.getSpec().getHostname();
        String name = h == null || h.isEmpty() ? pod.getMetadata().getName() : h;
        name = name.length() > 63 ? name.substring(0, 63) : name;
        while (name.endsWith("-") || name.endsWith(".")) {
            name = name.substring(0, name.length() - 1);
        }
        return name;
    }

    public boolean isDirectory(String path) {
        return directories.contains(path);
    }
}
