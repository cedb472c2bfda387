package io.eventplane.core.container;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.EnvFromSource;
import io.eventplane.model.EnvVar;
import io.eventplane.model.EphemeralContainer;
import io.eventplane.model.Pod;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.model.VolumeMount;
import java.util.List;
import java.util.Optional;

/**
 * What the environment needs of a container, whichever list it comes from (app, init or ephemeral: the Go types
 * share these fields, the Avro records do not).
 */
public record ContainerShape(String name, Kind kind, String image, List<String> command, List<String> args,
                             List<EnvFromSource> envFrom, List<EnvVar> env, List<VolumeMount> volumeMounts,
                             ResourceRequirements resources, List<ContainerPort> ports, boolean stdin,
                             String targetContainerName) {

    public enum Kind { APP, INIT, EPHEMERAL }

    public ContainerShape {
        command = command == null ? List.of() : command;
        args = args == null ? List.of() : args;
        envFrom = envFrom == null ? List.of() : envFrom;
        env = env == null ? List.of() : env;
        volumeMounts = volumeMounts == null ? List.of() : volumeMounts;
        ports = ports == null ? List.of() : ports;
    }

    public static ContainerShape of(Container c, Kind kind) {
        return new ContainerShape(c.getName(), kind, c.getImage(), c.getCommand(), c.getArgs(), c.getEnvFrom(),
                c.getEnv(), c.getVolumeMounts(), c.getResources(), c.getPorts(), Boolean.TRUE.equals(c.getStdin()),
                null);
    }

    public static ContainerShape of(EphemeralContainer c) {
        return new ContainerShape(c.getName(), Kind.EPHEMERAL, c.getImage(), c.getCommand(), c.getArgs(),
                c.getEnvFrom(), c.getEnv(), c.getVolumeMounts(), c.getResources(), c.getPorts(),
                Boolean.TRUE.equals(c.getStdin()), c.getTargetContainerName());
    }

    /** The named container of any list, app containers first, as the kubelet looks one up. */
    public static Optional<ContainerShape> find(Pod pod, String name) {
        return all(pod).stream().filter(c -> c.name().equals(name)).findFirst();
    }

    public static List<ContainerShape> all(Pod pod) {
        List<ContainerShape> out = new java.util.ArrayList<>();
        var spec = pod.getSpec();
        if (spec == null) {
            return out;
        }
        if (spec.getContainers() != null) {
            spec.getContainers().forEach(c -> out.add(of(c, Kind.APP)));
        }
        if (spec.getInitContainers() != null) {
            spec.getInitContainers().forEach(c -> out.add(of(c, Kind.INIT)));
        }
        if (spec.getEphemeralContainers() != null) {
            spec.getEphemeralContainers().forEach(c -> out.add(of(c)));
        }
        return out;
    }

    /** The command line of its process: command then args, or the image's entrypoint (unknown: a shell). */
    public List<String> process() {
        List<String> line = new java.util.ArrayList<>(command);
        line.addAll(args);
        return line.isEmpty() ? List.of("/bin/sh") : line;
    }
}
