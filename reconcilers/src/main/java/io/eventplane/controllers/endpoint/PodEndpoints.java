package io.eventplane.controllers.endpoint;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.PodStates;
import io.eventplane.core.meta.ServiceTypes;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodIP;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * What the endpoints and EndpointSlice controllers share (Kubernetes' pkg/controller/util/endpoint and
 * endpointslice/util): which pods a Service selects, which of them belong in its endpoints, a pod's address of the
 * Service's family, a service port resolved against the pod's container ports, and which Services a pod change
 * concerns.
 */
public final class PodEndpoints {
    private PodEndpoints() {
    }

    /**
     * Whether the controllers give the Service endpoints at all: not ExternalName, and with a selector (an empty
     * selector is none, as Kubernetes stores it).
     */
    public static boolean managed(Service service) {
        ServiceSpec spec = service.getSpec();
        return spec != null && !ServiceTypes.externalName(spec) && spec.getSelector() != null
                && !spec.getSelector().isEmpty();
    }

    /** The pods of the Service's namespace its selector matches, in key order. */
    public static List<Pod> selected(Service service, ClusterView view) {
        List<Pod> out = new ArrayList<>();
        Map<String, String> selector = service.getSpec().getSelector();
        for (ObjectChanged c : view.list(Kinds.POD.kind(), service.getMetadata().getNamespace())) {
            Pod p = (Pod) c.getObject();
            if (LabelSelectors.matches(selector, p.getMetadata().getLabels())) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * ShouldPodBeInEndpoints: not terminal, with an IP, and (unless terminating pods are wanted) not being deleted.
     */
    public static boolean shouldBeInEndpoints(Pod pod, boolean includeTerminating) {
        if (PodStates.isTerminal(pod) || pod.getStatus() == null) {
            return false;
        }
        boolean hasIp = pod.getStatus().getPodIP() != null && !pod.getStatus().getPodIP().isEmpty()
                || pod.getStatus().getPodIPs() != null && !pod.getStatus().getPodIPs().isEmpty();
        return hasIp && (includeTerminating || pod.getMetadata().getDeletionTimestamp() == null);
    }

    /** The family the Service's endpoints are of: its first IP family, IPv4 when it names none. */
    public static String family(Service service) {
        List<String> families = service.getSpec().getIpFamilies();
        if (families != null && !families.isEmpty()) {
            return families.get(0);
        }
        String ip = service.getSpec().getClusterIP();
        return ip != null && ip.contains(":") ? "IPv6" : "IPv4";
    }

    /** The pod's IP of {@code family}, if it has one. */
    public static Optional<String> address(Pod pod, String family) {
        List<String> ips = new ArrayList<>();
        if (pod.getStatus().getPodIPs() != null) {
            for (PodIP ip : pod.getStatus().getPodIPs()) {
                if (ip.getIp() != null) {
                    ips.add(ip.getIp());
                }
            }
        }
        if (ips.isEmpty() && pod.getStatus().getPodIP() != null) {
            ips.add(pod.getStatus().getPodIP());
        }
        boolean v6 = "IPv6".equals(family);
        return ips.stream().filter(ip -> ip.contains(":") == v6).findFirst();
    }

    /** ShouldSetHostname: the pod names a hostname and this Service as its subdomain. */
    public static Optional<String> hostname(Pod pod, Service service) {
        String hostname = pod.getSpec().getHostname();
        boolean set = hostname != null && !hostname.isEmpty()
                && service.getMetadata().getName().equals(pod.getSpec().getSubdomain())
                && service.getMetadata().getNamespace().equals(pod.getMetadata().getNamespace());
        return set ? Optional.of(hostname) : Optional.empty();
    }

    /** The pod as an endpoint's target. */
    public static ObjectReference targetRef(Pod pod) {
        return ObjectReference.newBuilder().setKind("Pod").setNamespace(pod.getMetadata().getNamespace())
                .setName(pod.getMetadata().getName()).setUid(pod.getMetadata().getUid()).build();
    }

    /**
     * FindPort: a numeric target port as it is; a named one is the container port of that name and protocol (app
     * containers, then sidecars); empty when the pod has none.
     */
    public static OptionalInt findPort(Pod pod, ServicePort port) {
        Object target = port.getTargetPort();
        if (target instanceof Integer n) {
            return n == 0 ? OptionalInt.of(port.getPort() == null ? 0 : port.getPort()) : OptionalInt.of(n);
        }
        if (target == null) {
            return port.getPort() == null ? OptionalInt.empty() : OptionalInt.of(port.getPort());
        }
        String name = target.toString();
        String protocol = port.getProtocol() == null ? "TCP" : port.getProtocol();
        List<Container> containers = new ArrayList<>(pod.getSpec().getContainers() == null ? List.of()
                : pod.getSpec().getContainers());
        if (pod.getSpec().getInitContainers() != null) {
            pod.getSpec().getInitContainers().stream().filter(c -> "Always".equals(c.getRestartPolicy()))
                    .forEach(containers::add);
        }
        for (Container c : containers) {
            for (ContainerPort p : c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts()) {
                String pp = p.getProtocol() == null ? "TCP" : p.getProtocol();
                if (name.equals(p.getName()) && protocol.equals(pp) && p.getContainerPort() != null) {
                    return OptionalInt.of(p.getContainerPort());
                }
            }
        }
        return OptionalInt.empty();
    }

    /**
     * The Services a pod change concerns (GetServicesToUpdateOnPodChange): those of its namespace whose selector
     * matches the pod's labels now or before, as Service keys.
     */
    public static Set<String> servicesOf(Pod now, Pod before, ClusterView view) {
        Set<String> keys = new LinkedHashSet<>();
        String namespace = now.getMetadata().getNamespace();
        for (ObjectChanged c : view.list(Kinds.SERVICE.kind(), namespace)) {
            Service s = (Service) c.getObject();
            if (!managed(s)) {
                continue;
            }
            Map<String, String> selector = s.getSpec().getSelector();
            if (LabelSelectors.matches(selector, now.getMetadata().getLabels())
                    || before != null && LabelSelectors.matches(selector, before.getMetadata().getLabels())) {
                keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
            }
        }
        return keys;
    }
}
