package io.eventplane.gateway.alloc;

import io.eventplane.client.ClusterView;
import io.eventplane.client.Commands;
import io.eventplane.client.Requests;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.IpAddresses;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Condition;
import io.eventplane.model.EndpointAddress;
import io.eventplane.model.EndpointPort;
import io.eventplane.model.EndpointSubset;
import io.eventplane.model.Endpoints;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import io.eventplane.model.discovery.Endpoint;
import io.eventplane.model.discovery.EndpointConditions;
import io.eventplane.model.discovery.EndpointSlice;
import io.eventplane.model.networking.ServiceCIDR;
import io.eventplane.model.networking.ServiceCIDRSpec;
import io.eventplane.model.networking.ServiceCIDRStatus;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Clock;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What kube-apiserver keeps for itself: the default ServiceCIDR {@code kubernetes} (the configured range, Ready), the
 * Service {@code default/kubernetes} (the range's first IP, port 443 to the gateway's port, no selector) and its
 * Endpoints and EndpointSlice (this gateway's address). Created when missing, corrected when they differ; several
 * gateways share them, the last to start being the one they name (Kubernetes lists every apiserver through leases).
 */
public final class KubernetesService {
    public static final String NAME = "kubernetes";
    public static final String NAMESPACE = "default";
    private static final Logger LOG = LoggerFactory.getLogger(KubernetesService.class);
    private final ServiceAllocator allocator;
    private final Allocations allocations;
    private final ClusterView view;
    private final LogWriter writer;
    private final Commands commands;
    private final int port;
    private final String address;

    /**
     * @param port    the gateway's port (the Service's target port)
     * @param address the address the Endpoints name, or null for none (a gateway on loopback only)
     */
    public KubernetesService(ServiceAllocator allocator, LogWriter writer, Clock clock, int port, String address) {
        this.allocator = allocator;
        this.allocations = allocator.allocations();
        this.view = allocations.view();
        this.writer = writer;
        this.commands = new Commands("eventplane-gateway", clock);
        this.port = port;
        this.address = address;
    }

    /** One pass: each object created or corrected; failures are logged and retried by the next pass. */
    public void ensure() {
        try {
            serviceCidr();
            service();
            if (address != null) {
                endpoints();
                endpointSlice();
            }
        } catch (ApiException e) {
            LOG.warn("maintaining the kubernetes Service: {}", e.status().message());
        }
    }

    private void serviceCidr() {
        String cidr = allocator.network().clusterIps().cidr();
        Optional<ObjectChanged> current = view.get(Kinds.SERVICE_CIDR.kind(), "", NAME);
        if (current.isEmpty()) {
            ServiceCIDR created = ServiceCIDR.newBuilder()
                    .setMetadata(ObjectMeta.newBuilder().setName(NAME).build())
                    .setSpec(ServiceCIDRSpec.newBuilder().setCidrs(List.of(cidr)).build()).build();
            Requests.Result r = writer.submit(commands.create(created));
            if (!r.accepted()) {
                return;
            }
            current = Optional.of(r.object());
        }
        ServiceCIDR stored = (ServiceCIDR) current.get().getObject();
        if (!List.of(cidr).equals(stored.getSpec() == null ? null : stored.getSpec().getCidrs())) {
            LOG.warn("the ServiceCIDR {} holds {}, this gateway allocates from {}", NAME,
                    stored.getSpec() == null ? null : stored.getSpec().getCidrs(), cidr);
        }
        boolean ready = stored.getStatus() != null && stored.getStatus().getConditions() != null
                && stored.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType())
                && "True".equals(c.getStatus()));
        if (!ready) {
            Condition condition = Condition.newBuilder().setType("Ready").setStatus("True")
                    .setLastTransitionTime(commands.envelope(null, null).getTime())
                    .setMessage("Kubernetes default Service CIDR is ready").build();
            writer.submit(commands.updateStatus(ServiceCIDR.newBuilder(stored)
                    .setStatus(ServiceCIDRStatus.newBuilder().setConditions(List.of(condition)).build()).build()));
        }
    }

    private List<ServicePort> ports() {
        return List.of(ServicePort.newBuilder().setName("https").setProtocol("TCP").setPort(443).setTargetPort(port)
                .build());
    }

    private void service() {
        Optional<ObjectChanged> current = view.get(Kinds.SERVICE.kind(), NAMESPACE, NAME);
        if (current.isPresent()) {
            Service stored = (Service) current.get().getObject();
            if (!Objects.equals(stored.getSpec().getPorts(), ports())) {
                ServiceSpec spec = ServiceSpec.newBuilder(stored.getSpec()).setPorts(ports()).build();
                writer.submit(commands.update(Service.newBuilder(stored).setSpec(spec).build()));
            }
            return;
        }
        String ip = allocator.network().clusterIps().first();
        var parent = Allocations.parentOf(NAMESPACE, NAME);
        Optional<Allocations.Held> held = allocations.takeIp(ip, allocator.network().clusterIps().family(), parent);
        if (held.isEmpty() && !allocations.holder(Kinds.IP_ADDRESS, ip).map(p -> Allocations.sameParent(p, parent))
                .orElse(false)) {
            LOG.error("the kubernetes Service's cluster IP {} is held by another Service", ip);
            return;
        }
        Service service = Service.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(NAME).setNamespace(NAMESPACE)
                        .setLabels(Map.of("component", "apiserver", "provider", "kubernetes")).build())
                .setSpec(ServiceSpec.newBuilder().setType("ClusterIP").setClusterIP(ip).setClusterIPs(List.of(ip))
                        .setSessionAffinity("None").setPorts(ports()).build()).build();
        Requests.Result r = writer.submit(commands.create(service));
        if (!r.accepted() && held.isPresent() && !"AlreadyExists".equals(r.outcome().getReason())) {
            allocations.giveBack(held.get());
            LOG.warn("cannot create the kubernetes Service: {}", r.outcome().getMessage());
        }
    }

    private List<EndpointPort> endpointPorts() {
        return List.of(EndpointPort.newBuilder().setName("https").setPort(port).setProtocol("TCP").build());
    }

    private void endpoints() {
        List<EndpointSubset> subsets = List.of(EndpointSubset.newBuilder()
                .setAddresses(List.of(EndpointAddress.newBuilder().setIp(address).build()))
                .setPorts(endpointPorts()).build());
        Optional<ObjectChanged> current = view.get(Kinds.ENDPOINTS.kind(), NAMESPACE, NAME);
        if (current.isEmpty()) {
            write(Endpoints.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(NAME).setNamespace(NAMESPACE)
                    .setLabels(Map.of("endpointslice.kubernetes.io/skip-mirror", "true")).build())
                    .setSubsets(subsets).build(), null);
        } else if (!subsets.equals(((Endpoints) current.get().getObject()).getSubsets())) {
            write(Endpoints.newBuilder((Endpoints) current.get().getObject()).setSubsets(subsets).build(), current.get());
        }
    }

    private void endpointSlice() {
        String family = address.contains(":") ? "IPv6" : "IPv4";
        List<Endpoint> endpoints = List.of(Endpoint.newBuilder().setAddresses(List.of(address))
                .setConditions(EndpointConditions.newBuilder().setReady(true).build()).build());
        List<io.eventplane.model.discovery.EndpointPort> ports = List.of(io.eventplane.model.discovery.EndpointPort
                .newBuilder().setName("https").setProtocol("TCP").setPort(port).build());
        Optional<ObjectChanged> current = view.get(Kinds.ENDPOINT_SLICE.kind(), NAMESPACE, NAME);
        if (current.isEmpty()) {
            write(EndpointSlice.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(NAME).setNamespace(NAMESPACE)
                    .setLabels(Map.of("kubernetes.io/service-name", NAME)).build())
                    .setAddressType(family).setEndpoints(endpoints).setPorts(ports).build(), null);
            return;
        }
        EndpointSlice stored = (EndpointSlice) current.get().getObject();
        if (!endpoints.equals(stored.getEndpoints()) || !ports.equals(stored.getPorts())) {
            write(EndpointSlice.newBuilder(stored).setEndpoints(endpoints).setPorts(ports).build(), current.get());
        }
    }

    private void write(SpecificRecord object, ObjectChanged current) {
        writer.submit(current == null ? commands.create(object) : commands.update(object));
    }

    /**
     * The address the Endpoints name: {@code EVENTPLANE_ADVERTISE_ADDRESS}, else the bind address when it is a
     * routable one, else the first such address of this host; null when there is none (loopback only).
     */
    public static String advertiseAddress(String configured, String bindHost) {
        for (String candidate : new String[] {configured, bindHost}) {
            Optional<InetAddress> a = IpAddresses.parse(candidate);
            if (a.isPresent() && routable(a.get())) {
                return IpAddresses.canonical(a.get());
            }
        }
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nic.isUp() || nic.isLoopback()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address && routable(a)) {
                        return a.getHostAddress();
                    }
                }
            }
        } catch (SocketException e) {
            LOG.warn("cannot list the network interfaces: {}", e.toString());
        }
        return null;
    }

    private static boolean routable(InetAddress a) {
        return !a.isAnyLocalAddress() && !a.isLoopbackAddress() && !a.isLinkLocalAddress() && !a.isMulticastAddress();
    }
}
