package io.eventplane.gateway.alloc;

import io.eventplane.client.ClusterView;
import io.eventplane.client.Commands;
import io.eventplane.core.decide.Causes;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ServiceTypes;
import io.eventplane.gateway.alloc.Allocations.Held;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import io.eventplane.model.networking.ParentReference;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;

/**
 * kube-apiserver's Service allocators (registry/core/service/storage/alloc.go) on the log: a Service's cluster IP,
 * node ports and health-check node port are taken before the Service is written and given back after it is deleted
 * or stops needing them. Each IP and each node port is an object of its own (IPAddress, NodePortAllocation) whose
 * creation the writer decides alone: that per-key decision is the lock, so two Services never hold one IP or port
 * even when their creates race. What a write took is given back if the Service write is refused; what a write made
 * unneeded is given back once it is accepted. A write whose verdict never came keeps what it took, for the repair
 * loop ({@link AllocationRepair}) to settle.
 */
public final class ServiceAllocator {
    private static final int ATTEMPTS = 16;
    private static final String NONE = "None";
    private final ServiceNetwork network;
    private final Allocations allocations;
    private final Random random;

    public ServiceAllocator(ServiceNetwork network, ClusterView view, LogWriter writer, Commands commands, Random random) {
        this.network = network;
        this.allocations = new Allocations(view, writer, commands);
        this.random = random;
    }

    public ServiceAllocator(ServiceNetwork network, ClusterView view, LogWriter writer) {
        this(network, view, writer, new Commands("eventplane-gateway"), new SecureRandom());
    }

    public ServiceNetwork network() {
        return network;
    }

    Allocations allocations() {
        return allocations;
    }

    /** What one Service write allocated: the Service to write, and how to finish once the writer answered. */
    public final class Allocation {
        private final Service service;
        private final List<Held> taken;
        private final List<Runnable> releases;

        private Allocation(Service service, List<Held> taken, List<Runnable> releases) {
            this.service = service;
            this.taken = taken;
            this.releases = releases;
        }

        /** The Service with its allocations filled in. */
        public Service service() {
            return service;
        }

        /** The write was accepted: give back what it no longer needs. */
        public void commit() {
            releases.forEach(Runnable::run);
        }

        /** The write was refused: give back what it took. */
        public void revert() {
            taken.forEach(allocations::giveBack);
        }
    }

    /**
     * Allocates for a Service write (allocateCreate, allocateUpdate).
     *
     * @param old       the stored Service, or null for a creation
     * @param decided   the Service as the writer would store it (defaulted, validated), without allocations
     * @param requested what the client sent (which family fields it chose itself)
     * @param dryRun    check and pick, take nothing
     */
    public Allocation allocate(Service old, Service decided, Service requested, boolean dryRun) {
        if (!dryRun) {
            // Everything the view can already refuse is refused before anything is taken: such a refusal writes
            // nothing. Only a race the view cannot see yet gets as far as taking and giving back.
            allocate(old, decided, requested, true);
        }
        String namespace = decided.getMetadata().getNamespace();
        String name = decided.getMetadata().getName();
        Txn txn = new Txn(Allocations.parentOf(namespace, name), name, dryRun);
        ServiceSpec spec = ServiceSpec.newBuilder(decided.getSpec()).build();
        ServiceSpec before = old == null ? null : old.getSpec();
        try {
            if (old == null || ServiceTypes.externalName(before)) {
                families(spec, requested.getSpec(), txn);
            }
            clusterIps(before, spec, txn);
            nodePorts(before, spec, txn);
            healthCheck(before, spec, txn);
        } catch (RuntimeException e) {
            txn.taken.forEach(allocations::giveBack);
            throw e;
        }
        Service filled = Service.newBuilder(requested).setSpec(spec).build();
        return new Allocation(filled, txn.taken, txn.releases);
    }

    /** Gives back everything a deleted Service held (releaseAllocatedResources). */
    public void releaseAll(Service deleted) {
        ObjectMeta meta = deleted.getMetadata();
        ParentReference parent = Allocations.parentOf(meta.getNamespace(), meta.getName());
        ServiceSpec spec = deleted.getSpec() == null ? new ServiceSpec() : deleted.getSpec();
        if (ServiceTypes.holdsClusterIps(spec)) {
            spec.getClusterIPs().forEach(ip -> releaseIp(ip, parent));
        }
        ServiceTypes.nodePorts(spec).forEach(p -> releasePort(p, parent));
        if (ServiceTypes.needsHealthCheck(spec) && !ServiceTypes.zero(spec.getHealthCheckNodePort())) {
            releasePort(spec.getHealthCheckNodePort(), parent);
        }
    }

    private void releaseIp(String ip, ParentReference parent) {
        IpRange.canonical(ip).ifPresent(c -> allocations.release(Kinds.IP_ADDRESS, c, parent));
    }

    private void releasePort(int port, ParentReference parent) {
        allocations.release(Kinds.NODE_PORT_ALLOCATION, String.valueOf(port), parent);
    }

    // ------------------------------------------------------------------ families (initIPFamilyFields)

    /**
     * The IP family fields of a Service that gets cluster IPs: only this cluster's family, single-stack; a headless
     * Service without selector asks for both families by default, as Kubernetes lets it.
     */
    private void families(ServiceSpec spec, ServiceSpec requested, Txn txn) {
        if (ServiceTypes.externalName(spec)) {
            return;
        }
        String family = network.clusterIps().family();
        List<String> askedFamilies = requested == null || requested.getIpFamilies() == null ? List.of()
                : requested.getIpFamilies();
        String askedPolicy = requested == null ? null : requested.getIpFamilyPolicy();
        List<String> ips = spec.getClusterIPs() == null ? List.of() : spec.getClusterIPs();
        boolean headlessSelectorless = ServiceTypes.headless(spec)
                && (spec.getSelector() == null || spec.getSelector().isEmpty());
        String policy = askedPolicy != null ? askedPolicy : headlessSelectorless ? "RequireDualStack" : "SingleStack";
        List<StatusCause> causes = new ArrayList<>();
        for (int i = askedFamilies.size(); i < ips.size(); i++) {
            String ipFamily = IpRange.familyOf(ips.get(i)).orElse(null);
            if (ipFamily != null && !ipFamily.equals(family)) {
                causes.add(Causes.invalidShown("spec.clusterIPs[" + i + "]", goStrings(ips), ipFamily
                        + " is not configured on this cluster"));
            }
        }
        txn.fail(causes);
        List<String> families = new ArrayList<>(askedFamilies);
        if (headlessSelectorless) {
            if (families.isEmpty()) {
                families.add(family);
            }
            if (families.size() < 2 && !policy.equals("SingleStack")) {
                families.add(families.get(0).equals("IPv4") ? "IPv6" : "IPv4");
            }
        } else {
            if (policy.equals("RequireDualStack")) {
                causes.add(Causes.invalid("spec.ipFamilyPolicy", policy, "this cluster is not configured for dual-stack "
                        + "services"));
            }
            for (int i = 0; i < families.size(); i++) {
                if (!families.get(i).equals(family)) {
                    causes.add(Causes.invalid("spec.ipFamilies[" + i + "]", families.get(i), "not configured on this cluster"));
                }
            }
            txn.fail(causes);
            if (families.isEmpty()) {
                families.add(family);
            }
        }
        spec.setIpFamilyPolicy(policy);
        spec.setIpFamilies(families);
    }

    // ------------------------------------------------------------------ cluster IPs

    private void clusterIps(ServiceSpec before, ServiceSpec spec, Txn txn) {
        boolean wasExternal = before != null && ServiceTypes.externalName(before);
        if (before == null || wasExternal) {
            if (!ServiceTypes.externalName(spec) && !ServiceTypes.headless(spec)) {
                String ip = spec.getClusterIP() == null || spec.getClusterIP().isEmpty() ? nextIp(txn) : takeIp(spec, txn);
                spec.setClusterIP(ip);
                spec.setClusterIPs(List.of(ip));
            }
            return;
        }
        if (ServiceTypes.holdsClusterIps(before) && ServiceTypes.externalName(spec)) {
            ParentReference parent = txn.parent;
            List<String> held = List.copyOf(before.getClusterIPs());
            txn.releases.add(() -> held.forEach(ip -> releaseIp(ip, parent)));
        }
    }

    private String takeIp(ServiceSpec spec, Txn txn) {
        String ip = spec.getClusterIP();
        IpRange range = network.clusterIps();
        String shown = goStrings(spec.getClusterIPs() == null ? List.of(ip) : spec.getClusterIPs());
        String failed = "failed to allocate IP " + ip + ": ";
        if (!range.inPrefix(ip)) {
            txn.fail(List.of(Causes.invalidShown("spec.clusterIPs", shown, failed
                    + "the provided network does not match the current range")));
        }
        String canonical = IpRange.canonical(ip).orElseThrow();
        if (!range.allocatable(ip)) {
            txn.fail(List.of(Causes.invalidShown("spec.clusterIPs", shown, failed + "the provided IP (" + canonical
                    + ") is not in the valid range. The range of valid IPs is " + range.cidr())));
        }
        boolean taken = txn.dryRun ? allocations.ipTaken(canonical)
                : allocations.takeIp(canonical, range.family(), txn.parent).map(txn::took).isEmpty();
        if (taken) {
            txn.fail(List.of(Causes.invalidShown("spec.clusterIPs", shown, failed + "provided IP is already allocated")));
        }
        return canonical;
    }

    private String nextIp(Txn txn) {
        Set<String> collided = new HashSet<>();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Optional<String> ip = network.clusterIps().next(a -> collided.contains(a) || allocations.ipTaken(a), random);
            if (ip.isEmpty()) {
                break;
            }
            if (txn.dryRun) {
                return ip.get();
            }
            // Another gateway may take the same address between our look and our take: try the next one.
            Optional<Held> held = allocations.takeIp(ip.get(), network.clusterIps().family(), txn.parent);
            if (held.isPresent()) {
                txn.took(held.get());
                return ip.get();
            }
            collided.add(ip.get());
        }
        throw new ApiException(Statuses.internal("failed to allocate a serviceIP: range is full"));
    }

    // ------------------------------------------------------------------ node ports

    /** initNodePorts and updateNodePorts: one node port per service port number, requested ones first. */
    private void nodePorts(ServiceSpec before, ServiceSpec spec, Txn txn) {
        List<Integer> held = before == null ? List.of() : ServiceTypes.nodePorts(before);
        boolean needs = ServiceTypes.needsNodePorts(spec);
        if (before != null && ServiceTypes.needsNodePorts(before) && !needs) {
            releaseLater(held, txn);
            return;
        }
        if (!needs) {
            return;
        }
        boolean allocate = ServiceTypes.shouldAllocateNodePorts(spec);
        List<ServicePort> ports = new ArrayList<>(spec.getPorts() == null ? List.of() : spec.getPorts());
        Map<Integer, Integer> byServicePort = new HashMap<>();
        for (int i = 0; i < ports.size(); i++) {
            ServicePort p = ports.get(i);
            int number = p.getPort() == null ? 0 : p.getPort();
            Integer requested = ServiceTypes.zero(p.getNodePort()) ? null : p.getNodePort();
            if (requested == null && !allocate) {
                continue; // no new ports, but requested ones are respected
            }
            Integer shared = byServicePort.get(number);
            int nodePort;
            if (requested == null && shared != null) {
                nodePort = shared;
            } else if (requested == null) {
                requested = firstRequested(number, ports);
                nodePort = requested != null ? requested : nextPort(txn, "failed to allocate a nodePort: range is full");
                if (requested != null && !held.contains(requested)) {
                    takePort(requested, "spec.ports[" + i + "].nodePort", txn);
                }
            } else {
                nodePort = requested;
                if (!held.contains(requested)) {
                    takePort(requested, "spec.ports[" + i + "].nodePort", txn);
                }
            }
            byServicePort.putIfAbsent(number, nodePort);
            ports.set(i, ServicePort.newBuilder(p).setNodePort(nodePort).build());
        }
        spec.setPorts(ports);
        List<Integer> now = ServiceTypes.nodePorts(spec);
        List<Integer> unused = new ArrayList<>(held);
        unused.removeAll(now);
        releaseLater(unused, txn);
    }

    /** findRequestedNodePort: a node port another entry of the same port number asks for. */
    private static Integer firstRequested(int number, List<ServicePort> ports) {
        for (ServicePort p : ports) {
            if (p.getPort() != null && p.getPort() == number && !ServiceTypes.zero(p.getNodePort())) {
                return p.getNodePort();
            }
        }
        return null;
    }

    private void takePort(int port, String field, Txn txn) {
        if (txn.ports.contains(port)) {
            return; // one Service may use one node port for several protocols
        }
        if (!network.nodePorts().contains(port)) {
            txn.fail(List.of(Causes.invalid(field, port, "provided port is not in the valid range. The range of valid "
                    + "ports is " + network.nodePorts())));
        }
        boolean taken = txn.dryRun ? allocations.portTaken(port)
                : allocations.takePort(port, txn.parent).map(txn::took).isEmpty();
        if (taken) {
            txn.fail(List.of(Causes.invalid(field, port, "provided port is already allocated")));
        }
        txn.ports.add(port);
    }

    private int nextPort(Txn txn, String whenFull) {
        Set<Integer> collided = new HashSet<>();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            OptionalInt port = network.nodePorts().next(p -> collided.contains(p) || txn.ports.contains(p)
                    || allocations.portTaken(p), random);
            if (port.isEmpty()) {
                break;
            }
            if (txn.dryRun) {
                txn.ports.add(port.getAsInt());
                return port.getAsInt();
            }
            Optional<Held> held = allocations.takePort(port.getAsInt(), txn.parent);
            if (held.isPresent()) {
                txn.took(held.get());
                txn.ports.add(port.getAsInt());
                return port.getAsInt();
            }
            collided.add(port.getAsInt());
        }
        throw new ApiException(Statuses.internal(whenFull));
    }

    private void releaseLater(List<Integer> ports, Txn txn) {
        ParentReference parent = txn.parent;
        List<Integer> copy = List.copyOf(new LinkedHashSet<>(ports));
        if (!copy.isEmpty()) {
            txn.releases.add(() -> copy.forEach(p -> releasePort(p, parent)));
        }
    }

    // ------------------------------------------------------------------ health check node port

    /** allocHealthCheckNodePort and updateHealthCheckNodePort. */
    private void healthCheck(ServiceSpec before, ServiceSpec spec, Txn txn) {
        boolean needed = before != null && ServiceTypes.needsHealthCheck(before);
        boolean needs = ServiceTypes.needsHealthCheck(spec);
        if (needed && !needs) {
            if (!ServiceTypes.zero(before.getHealthCheckNodePort())) {
                releaseLater(List.of(before.getHealthCheckNodePort()), txn);
            }
            return;
        }
        if (!needs || needed) {
            return;
        }
        Integer requested = spec.getHealthCheckNodePort();
        if (ServiceTypes.zero(requested)) {
            spec.setHealthCheckNodePort(nextPort(txn, "failed to allocate a HealthCheck NodePort 0: range is full"));
            return;
        }
        try {
            takePort(requested, "spec.healthCheckNodePort", txn);
        } catch (ApiException e) {
            throw new ApiException(Statuses.internal("failed to allocate requested HealthCheck NodePort " + requested
                    + ": provided port is already allocated"));
        }
    }

    // ------------------------------------------------------------------ one write's allocations

    /** What one write took so far, and what it gives back once accepted. */
    private static final class Txn {
        final ParentReference parent;
        final String name;
        final boolean dryRun;
        final List<Held> taken = new ArrayList<>();
        final List<Runnable> releases = new ArrayList<>();
        final Set<Integer> ports = new HashSet<>();

        Txn(ParentReference parent, String name, boolean dryRun) {
            this.parent = parent;
            this.name = name;
            this.dryRun = dryRun;
        }

        Held took(Held held) {
            taken.add(held);
            return held;
        }

        /** Refuses the write as Invalid with {@code causes}, if any. */
        void fail(List<StatusCause> causes) {
            if (causes.isEmpty()) {
                return;
            }
            List<Cause> wire = new ArrayList<>();
            causes.forEach(c -> wire.add(new Cause(c.getReason(), c.getMessage(), c.getField())));
            throw new ApiException(Statuses.invalid(Kinds.SERVICE, name, wire));
        }
    }

    /** Go's %#v of a string slice: {@code []string{"10.96.0.10"}}. */
    static String goStrings(List<String> values) {
        List<String> quoted = new ArrayList<>();
        values.forEach(v -> quoted.add('"' + v + '"'));
        return "[]string{" + String.join(", ", quoted) + "}";
    }
}
