package io.eventplane.gateway.alloc;

import io.eventplane.client.EventplaneConfig;

/**
 * The cluster's service network: the CIDR cluster IPs come from ({@code --service-cluster-ip-range}) and the node
 * port range. The CIDR is configurable ({@code EVENTPLANE_SERVICE_CLUSTER_IP_RANGE}); the node port range is
 * Kubernetes' default, which the writer's validation checks too.
 */
public record ServiceNetwork(IpRange clusterIps, PortRange nodePorts) {
    public static final String DEFAULT_CIDR = "10.96.0.0/12";

    public static ServiceNetwork defaults() {
        return of(DEFAULT_CIDR);
    }

    public static ServiceNetwork of(String cidr) {
        return new ServiceNetwork(IpRange.parse(cidr), PortRange.DEFAULT);
    }

    /** {@code EVENTPLANE_SERVICE_CLUSTER_IP_RANGE} (or the system property {@code eventplane.service.cluster.ip.range}). */
    public static ServiceNetwork fromEnvironment() {
        return of(EventplaneConfig.setting("EVENTPLANE_SERVICE_CLUSTER_IP_RANGE", DEFAULT_CIDR));
    }
}
