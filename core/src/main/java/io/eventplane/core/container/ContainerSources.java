package io.eventplane.core.container;

import io.eventplane.model.ConfigMap;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.Secret;
import io.eventplane.model.Service;
import io.eventplane.model.ServiceAccountTokenProjection;
import java.util.List;
import java.util.Optional;

/** The objects a container's environment is resolved from, as the kubelet reads them when it starts a container. */
public interface ContainerSources {
    Optional<ConfigMap> configMap(String namespace, String name);

    Optional<Secret> secret(String namespace, String name);

    /** The Services of a namespace, in name order (for the service link variables). */
    List<Service> services(String namespace);

    /** The pod's node (for the allocatable fallback of resource limits), if known. */
    Optional<Node> node(String name);

    /**
     * The token of a projected ServiceAccount token source, as the kubelet gets it from TokenRequest (bound to the
     * pod); empty where no one signs tokens, and a placeholder is shown.
     */
    default Optional<String> serviceAccountToken(Pod pod, ServiceAccountTokenProjection projection) {
        return Optional.empty();
    }
}
