package io.eventplane.testkit.objects;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.ResourceClaim;
import io.eventplane.model.ResourceRequirements;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** A container: image nginx unless told otherwise; resources only once requests or limits are given. */
public final class ContainerBuilder {
    private final Container.Builder container;
    // kept apart so that each build gets its own copy, in the order given
    private boolean hasResources;
    private Map<String, String> requests;
    private Map<String, String> limits;
    private List<ResourceClaim> claims;
    private final List<UnaryOperator<Container.Builder>> edits = new ArrayList<>();

    ContainerBuilder(String name) {
        container = Container.newBuilder().setName(name).setImage("nginx");
    }

    private ContainerBuilder(Container given) {
        ResourceRequirements r = given.getResources();
        container = Container.newBuilder(given).setResources(null);
        if (r != null) {
            hasResources = true;
            requests = MetaBuilder.copy(r.getRequests());
            limits = MetaBuilder.copy(r.getLimits());
            claims = r.getClaims();
        }
    }

    /** Continues from a built container. */
    static ContainerBuilder of(Container container) {
        return new ContainerBuilder(container);
    }

    /** The image; null for none. */
    public ContainerBuilder image(String image) {
        container.setImage(image);
        return this;
    }

    /** Adds CPU and memory requests; a null quantity is left out (both null: an empty requests map). */
    public ContainerBuilder requests(String cpu, String memory) {
        return requests(quantities(cpu, memory));
    }

    /** Adds these requests (an empty map still sets requests). */
    public ContainerBuilder requests(Map<String, String> requests) {
        hasResources = true;
        this.requests = MetaBuilder.added(this.requests, requests);
        return this;
    }

    /** Adds CPU and memory limits; a null quantity is left out. */
    public ContainerBuilder limits(String cpu, String memory) {
        return limits(quantities(cpu, memory));
    }

    /** Adds these limits (an empty map still sets limits). */
    public ContainerBuilder limits(Map<String, String> limits) {
        hasResources = true;
        this.limits = MetaBuilder.added(this.limits, limits);
        return this;
    }

    /** Adds a container port. */
    public ContainerBuilder port(int containerPort) {
        List<ContainerPort> ports = new ArrayList<>();
        if (container.getPorts() != null) {
            ports.addAll(container.getPorts());
        }
        ports.add(ContainerPort.newBuilder().setContainerPort(containerPort).build());
        container.setPorts(ports);
        return this;
    }

    public ContainerBuilder imagePullPolicy(String policy) {
        container.setImagePullPolicy(policy);
        return this;
    }

    /** The container's own restart policy: {@code Always} on an init container makes it a sidecar. */
    public ContainerBuilder restartPolicy(String policy) {
        container.setRestartPolicy(policy);
        return this;
    }

    /** The command (none: unset). */
    public ContainerBuilder command(String... command) {
        container.setCommand(MetaBuilder.listOrNull(command));
        return this;
    }

    /** Any other field (probes, lifecycle, env...), applied last. */
    public ContainerBuilder edit(UnaryOperator<Container.Builder> edit) {
        edits.add(edit);
        return this;
    }

    public Container build() {
        Container.Builder b = container;
        if (hasResources) {
            b.setResources(ResourceRequirements.newBuilder().setRequests(MetaBuilder.copy(requests))
                    .setLimits(MetaBuilder.copy(limits)).setClaims(claims == null ? null : new ArrayList<>(claims))
                    .build());
        }
        for (UnaryOperator<Container.Builder> edit : edits) {
            b = edit.apply(b);
        }
        return b.build();
    }

    static Map<String, String> quantities(String cpu, String memory) {
        Map<String, String> out = new LinkedHashMap<>();
        if (cpu != null) {
            out.put("cpu", cpu);
        }
        if (memory != null) {
            out.put("memory", memory);
        }
        return out;
    }
}
