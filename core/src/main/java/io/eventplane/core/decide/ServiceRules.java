package io.eventplane.core.decide;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.core.meta.ServiceTypes;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ClientIPConfig;
import io.eventplane.model.LoadBalancerIngress;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import io.eventplane.model.ServiceStatus;
import io.eventplane.model.SessionAffinityConfig;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * core/v1 Service: Kubernetes' defaulting (SetDefaults_Service), its strategy (clusterIP and clusterIPs kept in step,
 * fields a new type does not use dropped, allocated values a client left out kept) and its update and status rules.
 * What one Service must satisfy is {@link ServiceValidation}.
 *
 * <p>Allocation is not the writer's: the writer decides one object alone, and uniqueness across Services needs more
 * than one. The API gateway takes a Service's cluster IP, node ports and health-check node port before it sends the
 * Service (one IPAddress or NodePortAllocation object each, whose creation the writer decides) and fills them in; the
 * writer keeps what a Service carries (range-checked as the allocator checks node ports) and, for a Service written
 * without the gateway, the IP family of a single-stack IPv4 cluster.
 */
final class ServiceRules implements KindRules<Service> {
    static final String CLUSTER_IP = ServiceTypes.CLUSTER_IP;
    static final String NODE_PORT = ServiceTypes.NODE_PORT;
    static final String LOAD_BALANCER = ServiceTypes.LOAD_BALANCER;
    static final String EXTERNAL_NAME = ServiceTypes.EXTERNAL_NAME;
    static final String NONE = ServiceTypes.NONE;
    static final int DEFAULT_AFFINITY_SECONDS = 10800;
    /** The family a Service written without the gateway gets (the gateway sets its service network's). */
    static final String CLUSTER_FAMILY = "IPv4";

    @Override
    public Optional<StatusCause> validateName(String name) {
        return Names.dns1035Label("metadata.name", name);
    }

    @Override
    public Service defaults(Service service) {
        ServiceSpec spec = service.getSpec() == null ? new ServiceSpec() : ObjectAccess.shallow(service.getSpec());
        if (blank(spec.getSessionAffinity())) {
            spec.setSessionAffinity(NONE);
        }
        if (NONE.equals(spec.getSessionAffinity())) {
            spec.setSessionAffinityConfig(null);
        }
        if ("ClientIP".equals(spec.getSessionAffinity())) {
            SessionAffinityConfig c = spec.getSessionAffinityConfig();
            if (c == null || c.getClientIP() == null || c.getClientIP().getTimeoutSeconds() == null) {
                spec.setSessionAffinityConfig(new SessionAffinityConfig(new ClientIPConfig(DEFAULT_AFFINITY_SECONDS)));
            }
        }
        if (blank(spec.getType())) {
            spec.setType(CLUSTER_IP);
        }
        if (spec.getPorts() != null) {
            List<ServicePort> ports = new ArrayList<>();
            for (ServicePort p : spec.getPorts()) {
                ServicePort q = ObjectAccess.shallow(p);
                if (blank(q.getProtocol())) {
                    q.setProtocol("TCP");
                }
                Object target = q.getTargetPort();
                if (target == null || Integer.valueOf(0).equals(target) || "".equals(target.toString())) {
                    q.setTargetPort(q.getPort() == null ? 0 : q.getPort());
                }
                ports.add(q);
            }
            spec.setPorts(ports);
        }
        if (ServiceTypes.externallyAccessible(spec) && blank(spec.getExternalTrafficPolicy())) {
            spec.setExternalTrafficPolicy("Cluster");
        }
        if (spec.getInternalTrafficPolicy() == null && List.of(CLUSTER_IP, NODE_PORT, LOAD_BALANCER).contains(spec.getType())) {
            spec.setInternalTrafficPolicy("Cluster");
        }
        if (LOAD_BALANCER.equals(spec.getType()) && spec.getAllocateLoadBalancerNodePorts() == null) {
            spec.setAllocateLoadBalancerNodePorts(true);
        }
        return ObjectAccess.with(service, "spec", spec);
    }

    /** Status is the controllers' (load balancers); a new Service has none. */
    @Override
    public Service prepareForCreate(Service service, Instant now) {
        ServiceSpec spec = ObjectAccess.shallow(service.getSpec());
        if (!blank(spec.getClusterIP()) && empty(spec.getClusterIPs())) {
            spec.setClusterIPs(List.of(spec.getClusterIP()));
        }
        withFamilies(spec);
        return Service.newBuilder(service).setSpec(spec).setStatus(new ServiceStatus()).build();
    }

    @Override
    public Service prepareForUpdate(Service old, Service updated) {
        ServiceSpec before = old.getSpec() == null ? new ServiceSpec() : old.getSpec();
        ServiceSpec spec = ObjectAccess.shallow(updated.getSpec());
        keepAllocated(before, spec);
        normalizeClusterIps(before, spec);
        dropTypeDependentFields(before, spec);
        if (!EXTERNAL_NAME.equals(spec.getType()) && !EXTERNAL_NAME.equals(before.getType())) {
            if (empty(spec.getIpFamilies())) {
                spec.setIpFamilies(before.getIpFamilies());
            }
            if (spec.getIpFamilyPolicy() == null) {
                spec.setIpFamilyPolicy(before.getIpFamilyPolicy());
            }
        }
        withFamilies(spec);
        return ObjectAccess.with(updated, "spec", spec);
    }

    /** A single-stack Service of this cluster's family, or of its cluster IP's (what the allocator would record). */
    private static void withFamilies(ServiceSpec spec) {
        if (EXTERNAL_NAME.equals(spec.getType())) {
            return;
        }
        if (spec.getIpFamilyPolicy() == null) {
            spec.setIpFamilyPolicy(empty(spec.getIpFamilies()) || spec.getIpFamilies().size() < 2 ? "SingleStack"
                    : "RequireDualStack");
        }
        if (empty(spec.getIpFamilies())) {
            String first = empty(spec.getClusterIPs()) ? null : spec.getClusterIPs().get(0);
            spec.setIpFamilies(List.of(first != null && Formats.isIPv6(first) ? "IPv6" : CLUSTER_FAMILY));
        }
    }

    /** patchAllocatedValues: an update that leaves out an allocated value keeps it (a PUT without clusterIP). */
    private static void keepAllocated(ServiceSpec before, ServiceSpec spec) {
        if (ServiceTypes.needsClusterIp(before) && ServiceTypes.needsClusterIp(spec) && blank(spec.getClusterIP())
                && empty(spec.getClusterIPs())) {
            spec.setClusterIP(before.getClusterIP());
            spec.setClusterIPs(before.getClusterIPs());
        }
        if (ServiceTypes.needsNodePorts(before) && ServiceTypes.needsNodePorts(spec) && spec.getPorts() != null
                && before.getPorts() != null) {
            Set<Integer> used = nodePorts(before);
            used.retainAll(nodePorts(spec));
            Map<String, Integer> byName = new HashMap<>();
            before.getPorts().forEach(p -> byName.put(nz(p.getName()), p.getNodePort()));
            List<ServicePort> ports = new ArrayList<>();
            for (ServicePort p : spec.getPorts()) {
                Integer old = byName.get(nz(p.getName()));
                ports.add(zero(p.getNodePort()) && !zero(old) && !used.contains(old)
                        ? ServicePort.newBuilder(p).setNodePort(old).build() : p);
            }
            spec.setPorts(ports);
        }
        if (ServiceTypes.needsHealthCheck(before) && ServiceTypes.needsHealthCheck(spec)
                && zero(spec.getHealthCheckNodePort())) {
            spec.setHealthCheckNodePort(before.getHealthCheckNodePort());
        }
    }

    /** NormalizeClusterIPs on update: an old client that only speaks clusterIP keeps clusterIPs in step. */
    private static void normalizeClusterIps(ServiceSpec before, ServiceSpec spec) {
        String oldIp = nz(before.getClusterIP());
        String newIp = nz(spec.getClusterIP());
        if (!empty(before.getClusterIPs()) && empty(spec.getClusterIPs()) && oldIp.equals(newIp)) {
            spec.setClusterIPs(before.getClusterIPs());
        }
        if (!oldIp.equals(newIp)) {
            if (!oldIp.isEmpty() && newIp.isEmpty() && sameList(before.getClusterIPs(), spec.getClusterIPs())) {
                spec.setClusterIPs(null);
            }
            if (!newIp.isEmpty() && sameList(before.getClusterIPs(), spec.getClusterIPs())) {
                spec.setClusterIPs(List.of(newIp));
            }
        }
    }

    /** dropTypeDependentFields: a type change drops what the new type does not use, when the client kept it. */
    private static void dropTypeDependentFields(ServiceSpec before, ServiceSpec spec) {
        if (Objects.equals(before.getType(), spec.getType())) {
            return;
        }
        if (ServiceTypes.needsClusterIp(before) && !ServiceTypes.needsClusterIp(spec)) {
            if (Objects.equals(before.getClusterIP(), spec.getClusterIP())
                    && sameList(before.getClusterIPs(), spec.getClusterIPs())) {
                spec.setClusterIP(null);
                spec.setClusterIPs(null);
            }
            if (sameList(before.getIpFamilies(), spec.getIpFamilies())) {
                spec.setIpFamilies(null);
            }
            if (Objects.equals(before.getIpFamilyPolicy(), spec.getIpFamilyPolicy())) {
                spec.setIpFamilyPolicy(null);
            }
        }
        if (ServiceTypes.needsNodePorts(before) && !ServiceTypes.needsNodePorts(spec) && sameNodePorts(before, spec)
                && spec.getPorts() != null) {
            List<ServicePort> ports = new ArrayList<>();
            spec.getPorts().forEach(p -> ports.add(ServicePort.newBuilder(p).setNodePort(null).build()));
            spec.setPorts(ports);
        }
        if (ServiceTypes.needsHealthCheck(before) && !ServiceTypes.needsHealthCheck(spec)
                && Objects.equals(before.getHealthCheckNodePort(), spec.getHealthCheckNodePort())) {
            spec.setHealthCheckNodePort(null);
        }
        if (!LOAD_BALANCER.equals(spec.getType())) {
            if (Objects.equals(before.getAllocateLoadBalancerNodePorts(), spec.getAllocateLoadBalancerNodePorts())) {
                spec.setAllocateLoadBalancerNodePorts(null);
            }
            if (Objects.equals(before.getLoadBalancerClass(), spec.getLoadBalancerClass())) {
                spec.setLoadBalancerClass(null);
            }
        }
        if (!ServiceTypes.externallyAccessible(spec)
                && Objects.equals(before.getExternalTrafficPolicy(), spec.getExternalTrafficPolicy())) {
            spec.setExternalTrafficPolicy(null);
        }
    }

    @Override
    public List<StatusCause> validate(Service service) {
        return ServiceValidation.validate(service.getSpec() == null ? new ServiceSpec() : service.getSpec());
    }

    @Override
    public List<StatusCause> validateCreate(Service service) {
        List<StatusCause> causes = new ArrayList<>();
        ServiceValidation.nodePortRanges(service.getSpec(), null, causes);
        return causes;
    }

    @Override
    public List<StatusCause> validateUpdate(Service old, Service updated) {
        ServiceSpec before = old.getSpec() == null ? new ServiceSpec() : old.getSpec();
        ServiceSpec spec = updated.getSpec() == null ? new ServiceSpec() : updated.getSpec();
        List<StatusCause> causes = new ArrayList<>();
        ServiceValidation.clusterIpUpdate(before, spec, causes);
        ServiceValidation.familiesUpdate(before, spec, causes);
        if (LOAD_BALANCER.equals(before.getType()) && LOAD_BALANCER.equals(spec.getType())
                && !Objects.equals(before.getLoadBalancerClass(), spec.getLoadBalancerClass())) {
            causes.add(Causes.invalid("spec.loadBalancerClass", spec.getLoadBalancerClass() == null ? "null"
                    : spec.getLoadBalancerClass(), "may not change once set"));
        }
        if (ServiceTypes.needsHealthCheck(before) && ServiceTypes.needsHealthCheck(spec)
                && !Objects.equals(before.getHealthCheckNodePort(), spec.getHealthCheckNodePort())) {
            causes.add(Causes.forbidden("spec.healthCheckNodePort", "field is immutable"));
        }
        ServiceValidation.nodePortRanges(spec, before, causes);
        return causes;
    }

    /** ValidateLoadBalancerStatus. */
    @Override
    public List<StatusCause> validateStatusUpdate(Service old, Service updated) {
        List<StatusCause> causes = new ArrayList<>();
        ServiceStatus status = updated.getStatus() == null ? new ServiceStatus() : updated.getStatus();
        List<LoadBalancerIngress> ingress = status.getLoadBalancer() == null || status.getLoadBalancer().getIngress() == null
                ? List.of() : status.getLoadBalancer().getIngress();
        String type = updated.getSpec() == null ? null : updated.getSpec().getType();
        if (!LOAD_BALANCER.equals(type) && !ingress.isEmpty()) {
            causes.add(Causes.forbidden("status.loadBalancer.ingress", "may only be used when `spec.type` is 'LoadBalancer'"));
            return causes;
        }
        for (int i = 0; i < ingress.size(); i++) {
            LoadBalancerIngress in = ingress.get(i);
            String f = "status.loadBalancer.ingress[" + i + "]";
            if (!blank(in.getIp())) {
                Formats.ip(f + ".ip", in.getIp(), causes);
            }
            if (in.getIpMode() != null && blank(in.getIp())) {
                causes.add(Causes.forbidden(f + ".ipMode", "may not be specified when `ip` is not set"));
            } else if (in.getIpMode() != null && !List.of("Proxy", "VIP").contains(in.getIpMode())) {
                causes.add(Causes.notSupported(f + ".ipMode", in.getIpMode(), List.of("Proxy", "VIP")));
            }
            if (!blank(in.getHostname())) {
                Formats.subdomain(in.getHostname()).forEach(m -> causes.add(Causes.invalid(f + ".hostname",
                        in.getHostname(), m)));
                if (Formats.parseIp(in.getHostname()).isPresent()) {
                    causes.add(Causes.invalid(f + ".hostname", in.getHostname(), "must be a DNS name, not an IP address"));
                }
            }
        }
        return causes;
    }

    private static Set<Integer> nodePorts(ServiceSpec spec) {
        return new HashSet<>(ServiceTypes.nodePorts(spec));
    }

    private static boolean sameNodePorts(ServiceSpec a, ServiceSpec b) {
        List<Integer> x = new ArrayList<>();
        List<Integer> y = new ArrayList<>();
        if (a.getPorts() != null) {
            a.getPorts().forEach(p -> x.add(p.getNodePort()));
        }
        if (b.getPorts() != null) {
            b.getPorts().forEach(p -> y.add(p.getNodePort()));
        }
        return x.equals(y);
    }

    static boolean blank(String s) {
        return s == null || s.isEmpty();
    }

    static boolean empty(List<?> l) {
        return l == null || l.isEmpty();
    }

    static boolean zero(Integer i) {
        return ServiceTypes.zero(i);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static boolean sameList(List<?> a, List<?> b) {
        return empty(a) ? empty(b) : a.equals(b);
    }
}
