package io.eventplane.testkit.objects;

import io.eventplane.model.Affinity;
import io.eventplane.model.Container;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PersistentVolumeClaimVolumeSource;
import io.eventplane.model.Toleration;
import io.eventplane.model.TopologySpreadConstraint;
import io.eventplane.model.Volume;
import io.eventplane.model.VolumeMount;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The pod spec part, shared by pods and pod templates: one container "c" with image nginx until containers are
 * given. {@link #image}, {@link #requests} and {@link #limits} change the first container.
 *
 * @param <B> the concrete builder
 */
public abstract class PodSpecBuilder<B extends PodSpecBuilder<B>> extends MetaBuilder<B> {
    private final PodSpec.Builder spec = PodSpec.newBuilder();
    private Map<String, String> nodeSelector;
    private List<ContainerBuilder> containers = new ArrayList<>(List.of(new ContainerBuilder("c")));
    private List<Volume> volumes;
    private final List<UnaryOperator<PodSpec.Builder>> specEdits = new ArrayList<>();

    PodSpecBuilder(String name, String namespace) {
        super(name, namespace);
    }

    /** The containers, replacing the default one. */
    public B containers(ContainerBuilder... containers) {
        this.containers = new ArrayList<>(Arrays.asList(containers));
        return self();
    }

    /** The containers, replacing the default one. */
    public B containers(Container... containers) {
        return containers(Arrays.stream(containers).map(ContainerBuilder::of).toArray(ContainerBuilder[]::new));
    }

    /** The init containers, in order (none: unset). */
    public B initContainers(ContainerBuilder... initContainers) {
        return initContainers(Arrays.stream(initContainers).map(ContainerBuilder::build).toArray(Container[]::new));
    }

    /** The init containers, in order (none: unset). */
    public B initContainers(Container... initContainers) {
        spec.setInitContainers(listOrNull(initContainers));
        return self();
    }

    /** The first container's image. */
    public B image(String image) {
        first().image(image);
        return self();
    }

    /** Adds CPU and memory requests to the first container; a null quantity is left out. */
    public B requests(String cpu, String memory) {
        first().requests(cpu, memory);
        return self();
    }

    /** Adds requests to the first container. */
    public B requests(Map<String, String> requests) {
        first().requests(requests);
        return self();
    }

    /** Adds CPU and memory limits to the first container; a null quantity is left out. */
    public B limits(String cpu, String memory) {
        first().limits(cpu, memory);
        return self();
    }

    /** Adds limits to the first container. */
    public B limits(Map<String, String> limits) {
        first().limits(limits);
        return self();
    }

    public B restartPolicy(String policy) {
        spec.setRestartPolicy(policy);
        return self();
    }

    public B schedulerName(String schedulerName) {
        spec.setSchedulerName(schedulerName);
        return self();
    }

    /** The resolved priority (null: unset). */
    public B priority(Integer priority) {
        spec.setPriority(priority);
        return self();
    }

    public B priorityClassName(String name) {
        spec.setPriorityClassName(name);
        return self();
    }

    /** The tolerations (none: unset). */
    public B tolerations(Toleration... tolerations) {
        spec.setTolerations(listOrNull(tolerations));
        return self();
    }

    /** Adds node selector entries given as key, value, key, value... */
    public B nodeSelector(String... keysAndValues) {
        nodeSelector = added(nodeSelector, KubeObjects.labels(keysAndValues));
        return self();
    }

    public B affinity(Affinity affinity) {
        spec.setAffinity(affinity);
        return self();
    }

    /** The topology spread constraints (none: unset). */
    public B topologySpread(TopologySpreadConstraint... constraints) {
        spec.setTopologySpreadConstraints(listOrNull(constraints));
        return self();
    }

    /** The pod's hostname and subdomain, as a StatefulSet sets them on its pods. */
    public B hostname(String hostname, String subdomain) {
        spec.setHostname(hostname).setSubdomain(subdomain);
        return self();
    }

    public B terminationGracePeriodSeconds(long seconds) {
        spec.setTerminationGracePeriodSeconds(seconds);
        return self();
    }

    public B activeDeadlineSeconds(long seconds) {
        spec.setActiveDeadlineSeconds(seconds);
        return self();
    }

    /**
     * Adds a volume {@code volumeName} from the PersistentVolumeClaim {@code claimName}, mounted by the first container
     * at /data/&lt;volumeName&gt; (set the containers before).
     */
    public B claimVolume(String volumeName, String claimName) {
        volumes = volumes == null ? new ArrayList<>() : volumes;
        volumes.add(Volume.newBuilder().setName(volumeName).setPersistentVolumeClaim(
                PersistentVolumeClaimVolumeSource.newBuilder().setClaimName(claimName).build()).build());
        first().edit(c -> {
            List<VolumeMount> mounts = c.getVolumeMounts() == null ? new ArrayList<>() : new ArrayList<>(c.getVolumeMounts());
            if (mounts.stream().noneMatch(m -> volumeName.equals(m.getName()))) { // builds may repeat
                mounts.add(VolumeMount.newBuilder().setName(volumeName).setMountPath("/data/" + volumeName).build());
            }
            return c.setVolumeMounts(mounts);
        });
        return self();
    }

    /** Any other spec field, applied last (after the containers are set). */
    public B spec(UnaryOperator<PodSpec.Builder> edit) {
        specEdits.add(edit);
        return self();
    }

    /** The node name: only pods are bound, so only {@link PodBuilder} offers it. */
    final void nodeName(String nodeName) {
        spec.setNodeName(nodeName);
    }

    final PodSpec buildSpec() {
        List<Container> built = new ArrayList<>();
        containers.forEach(c -> built.add(c.build()));
        PodSpec.Builder b = spec.setContainers(built).setNodeSelector(copy(nodeSelector))
                .setVolumes(volumes == null ? spec.getVolumes() : new ArrayList<>(volumes));
        for (UnaryOperator<PodSpec.Builder> edit : specEdits) {
            b = edit.apply(b);
        }
        return b.build();
    }

    private ContainerBuilder first() {
        if (containers.isEmpty()) {
            throw new IllegalStateException("no container to change");
        }
        return containers.get(0);
    }
}
