package io.eventplane.gateway.alloc;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.core.meta.ServiceTypes;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Service;
import io.eventplane.model.ServiceSpec;
import io.eventplane.model.networking.ParentReference;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-apiserver's repair loops for cluster IPs and node ports (ipallocator/controller/repairip.go,
 * portallocator/controller/repair.go), on the allocation objects: an IPAddress or NodePortAllocation whose Service
 * is gone or no longer uses it is given back once it is older than a grace period (a Service may still be on its way
 * to the writer after its allocations were taken: a write that timed out, a delete that finished without the
 * gateway); a Service that uses an IP or port nobody holds gets it back. A Service using what another holds is
 * reported, as Kubernetes reports it, and left alone.
 */
public final class AllocationRepair {
    /** How old an unused allocation must be before it is given back. */
    public static final Duration GRACE = Duration.ofMinutes(1);
    private static final Logger LOG = LoggerFactory.getLogger(AllocationRepair.class);
    private final ServiceAllocator allocator;
    private final Allocations allocations;
    private final Clock clock;
    private final Duration grace;

    public AllocationRepair(ServiceAllocator allocator, Clock clock, Duration grace) {
        this.allocator = allocator;
        this.allocations = allocator.allocations();
        this.clock = clock;
        this.grace = grace;
    }

    /** What one pass did, for logs and tests. */
    public record Pass(List<String> released, List<String> restored, List<String> conflicts) {
    }

    public Pass run() {
        List<String> released = new ArrayList<>();
        List<String> restored = new ArrayList<>();
        List<String> conflicts = new ArrayList<>();
        Instant cutoff = clock.instant().minus(grace);
        for (KindInfo kind : List.of(Kinds.IP_ADDRESS, Kinds.NODE_PORT_ALLOCATION)) {
            for (ObjectChanged c : allocations.view().list(kind.kind(), null)) {
                Instant created = ObjectAccess.meta((org.apache.avro.specific.SpecificRecord) c.getObject())
                        .getCreationTimestamp();
                ParentReference parent = Allocations.parentRef(c.getObject());
                if (created != null && created.isAfter(cutoff) || usedBy(parent, kind, c.getName())) {
                    continue;
                }
                if (kind == Kinds.IP_ADDRESS && !ipManagedHere(c)) {
                    continue;
                }
                allocations.delete(kind, c.getName(), c.getUid());
                released.add(kind.kind() + " " + c.getName());
            }
        }
        for (ObjectChanged c : allocations.view().list(Kinds.SERVICE.kind(), null)) {
            Service svc = (Service) c.getObject();
            ServiceSpec spec = svc.getSpec() == null ? new ServiceSpec() : svc.getSpec();
            ParentReference parent = Allocations.parentOf(c.getNamespace(), c.getName());
            for (String ip : ips(spec)) {
                if (!allocator.network().clusterIps().allocatable(ip)) {
                    continue; // another range's, or a Service the range no longer holds
                }
                restore(Kinds.IP_ADDRESS, ip, parent, c, restored, conflicts);
            }
            for (int port : ports(spec)) {
                if (allocator.network().nodePorts().contains(port)) {
                    restore(Kinds.NODE_PORT_ALLOCATION, String.valueOf(port), parent, c, restored, conflicts);
                }
            }
        }
        if (!released.isEmpty() || !restored.isEmpty()) {
            LOG.info("allocation repair: released {}, restored {}", released, restored);
        }
        return new Pass(released, restored, conflicts);
    }

    private void restore(KindInfo kind, String name, ParentReference parent, ObjectChanged service,
                         List<String> restored, List<String> conflicts) {
        var holder = allocations.holder(kind, name);
        if (holder.isPresent()) {
            if (!Allocations.sameParent(holder.get(), parent)) {
                String what = (kind == Kinds.IP_ADDRESS ? "Cluster IP " : "Port ") + name + " of Service "
                        + service.getNamespace() + "/" + service.getName() + " is held by " + holder.get().getNamespace()
                        + "/" + holder.get().getName();
                if (!conflicts.contains(what)) {
                    LOG.warn("{}", what);
                    conflicts.add(what);
                }
            }
            return;
        }
        boolean took = kind == Kinds.IP_ADDRESS
                ? allocations.takeIp(name, allocator.network().clusterIps().family(), parent).isPresent()
                : allocations.takePort(Integer.parseInt(name), parent).isPresent();
        if (took) {
            restored.add(kind.kind() + " " + name);
        }
    }

    /** Whether the parent Service still uses the IP or port. */
    private boolean usedBy(ParentReference parent, KindInfo kind, String name) {
        if (parent == null || !"services".equals(parent.getResource())) {
            return false;
        }
        return allocations.view().get(Kinds.SERVICE.kind(), parent.getNamespace(), parent.getName())
                .map(c -> ((Service) c.getObject()).getSpec())
                .map(spec -> kind == Kinds.IP_ADDRESS ? ips(spec).contains(name)
                        : ports(spec).contains(Integer.parseInt(name)))
                .orElse(false);
    }

    /** IPAddresses another allocator manages (labelled otherwise) are not this loop's to give back. */
    private static boolean ipManagedHere(ObjectChanged c) {
        var labels = ObjectAccess.meta((org.apache.avro.specific.SpecificRecord) c.getObject()).getLabels();
        return labels != null && Allocations.MANAGED_BY.equals(labels.get(Allocations.MANAGED_BY_LABEL));
    }

    /** The canonical cluster IPs a Service holds. */
    private static Set<String> ips(ServiceSpec spec) {
        Set<String> out = new HashSet<>();
        if (ServiceTypes.holdsClusterIps(spec)) {
            spec.getClusterIPs().forEach(ip -> IpRange.canonical(ip).ifPresent(out::add));
        }
        return out;
    }

    /** The node ports a Service holds, its health-check node port included. */
    private static Set<Integer> ports(ServiceSpec spec) {
        Set<Integer> out = new HashSet<>(ServiceTypes.nodePorts(spec));
        if (ServiceTypes.needsHealthCheck(spec) && !ServiceTypes.zero(spec.getHealthCheckNodePort())) {
            out.add(spec.getHealthCheckNodePort());
        }
        return out;
    }
}
