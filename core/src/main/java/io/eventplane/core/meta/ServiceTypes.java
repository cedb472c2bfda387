package io.eventplane.core.meta;

import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * What a core/v1 Service's type asks for (Kubernetes' pkg/api/service helpers): the writer's rules, the gateway's
 * allocators and the endpoints controllers read a Service through these.
 */
public final class ServiceTypes {
    public static final String CLUSTER_IP = "ClusterIP";
    public static final String NODE_PORT = "NodePort";
    public static final String LOAD_BALANCER = "LoadBalancer";
    public static final String EXTERNAL_NAME = "ExternalName";
    /** The cluster IP of a headless Service. */
    public static final String NONE = "None";

    private ServiceTypes() {
    }

    public static boolean externalName(ServiceSpec spec) {
        return EXTERNAL_NAME.equals(spec.getType());
    }

    /** Every type but ExternalName gets cluster IPs (or None). */
    public static boolean needsClusterIp(ServiceSpec spec) {
        return !externalName(spec);
    }

    public static boolean needsNodePorts(ServiceSpec spec) {
        return NODE_PORT.equals(spec.getType()) || LOAD_BALANCER.equals(spec.getType());
    }

    /** shouldAllocateNodePorts: NodePort, and LoadBalancer unless allocateLoadBalancerNodePorts is false. */
    public static boolean shouldAllocateNodePorts(ServiceSpec spec) {
        return NODE_PORT.equals(spec.getType())
                || LOAD_BALANCER.equals(spec.getType()) && !Boolean.FALSE.equals(spec.getAllocateLoadBalancerNodePorts());
    }

    /** ExternallyAccessible: NodePort, LoadBalancer, or ClusterIP with external IPs. */
    public static boolean externallyAccessible(ServiceSpec spec) {
        return needsNodePorts(spec) || (CLUSTER_IP.equals(spec.getType()) && spec.getExternalIPs() != null
                && !spec.getExternalIPs().isEmpty());
    }

    /** NeedsHealthCheck: a LoadBalancer with externalTrafficPolicy Local. */
    public static boolean needsHealthCheck(ServiceSpec spec) {
        return LOAD_BALANCER.equals(spec.getType()) && "Local".equals(spec.getExternalTrafficPolicy());
    }

    /** clusterIPs is exactly [None]. */
    public static boolean headless(ServiceSpec spec) {
        return spec.getClusterIPs() != null && spec.getClusterIPs().size() == 1 && NONE.equals(spec.getClusterIPs().get(0));
    }

    /** Whether the Service holds allocated cluster IPs: it needs them, is not headless and has some. */
    public static boolean holdsClusterIps(ServiceSpec spec) {
        return needsClusterIp(spec) && !headless(spec) && spec.getClusterIPs() != null && !spec.getClusterIPs().isEmpty();
    }

    /** collectServiceNodePorts: the node ports the ports name (any type), in port order, repeats included. */
    public static List<Integer> nodePorts(ServiceSpec spec) {
        List<Integer> out = new ArrayList<>();
        if (spec.getPorts() != null) {
            for (ServicePort p : spec.getPorts()) {
                if (!zero(p.getNodePort())) {
                    out.add(p.getNodePort());
                }
            }
        }
        return out;
    }

    public static boolean zero(Integer i) {
        return i == null || i == 0;
    }
}
