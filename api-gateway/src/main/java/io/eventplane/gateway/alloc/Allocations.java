package io.eventplane.gateway.alloc;

import io.eventplane.client.ClusterView;
import io.eventplane.client.Commands;
import io.eventplane.client.Requests;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.DeleteOptions;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.allocation.NodePortAllocation;
import io.eventplane.model.allocation.NodePortAllocationSpec;
import io.eventplane.model.networking.IPAddress;
import io.eventplane.model.networking.IPAddressSpec;
import io.eventplane.model.networking.ParentReference;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The allocation objects on the log: an IP is held by the IPAddress named by it, a node port by the
 * NodePortAllocation named by it. Taking one is creating its object (the writer refuses a second creation of one
 * name, so exactly one of two racing takers wins); giving one back is deleting it, only if it still belongs to the
 * parent that gives it back (a delete conditioned on the object's uid).
 */
final class Allocations {
    /** kube-apiserver's labels on the IPAddresses it allocates. */
    static final String FAMILY_LABEL = "ipaddress.kubernetes.io/ip-family";
    static final String MANAGED_BY_LABEL = "ipaddress.kubernetes.io/managed-by";
    static final String MANAGED_BY = "ipallocator.k8s.io";
    private static final Logger LOG = LoggerFactory.getLogger(Allocations.class);

    /** What taking a name came to. */
    enum Outcome { TAKEN, ALREADY_TAKEN }

    /** One allocation object this gateway created (and may give back by uid). */
    record Held(KindInfo kind, String name, String uid) {
    }

    private final ClusterView view;
    private final LogWriter writer;
    private final Commands commands;

    Allocations(ClusterView view, LogWriter writer, Commands commands) {
        this.view = view;
        this.writer = writer;
        this.commands = commands;
    }

    ClusterView view() {
        return view;
    }

    /** A Service as the parent of its allocations. */
    static ParentReference parentOf(String namespace, String name) {
        return ParentReference.newBuilder().setResource("services").setNamespace(namespace).setName(name).build();
    }

    boolean ipTaken(String ip) {
        return view.get(Kinds.IP_ADDRESS.kind(), "", ip).isPresent();
    }

    boolean portTaken(int port) {
        return view.get(Kinds.NODE_PORT_ALLOCATION.kind(), "", String.valueOf(port)).isPresent();
    }

    /** The parent an allocation object names, if it exists. */
    Optional<ParentReference> holder(KindInfo kind, String name) {
        return view.get(kind.kind(), "", name).map(c -> parentRef(c.getObject()));
    }

    static ParentReference parentRef(Object allocation) {
        if (allocation instanceof IPAddress ip) {
            return ip.getSpec() == null ? null : ip.getSpec().getParentRef();
        }
        NodePortAllocation port = (NodePortAllocation) allocation;
        return port.getSpec() == null ? null : port.getSpec().getParentRef();
    }

    /** Creates the IPAddress {@code ip} (canonical) for {@code parent}; empty when someone holds it already. */
    Optional<Held> takeIp(String ip, String family, ParentReference parent) {
        IPAddress address = IPAddress.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(ip)
                        .setLabels(Map.of(FAMILY_LABEL, family, MANAGED_BY_LABEL, MANAGED_BY)).build())
                .setSpec(IPAddressSpec.newBuilder().setParentRef(parent).build()).build();
        return take(Kinds.IP_ADDRESS, address);
    }

    /** Creates the NodePortAllocation of {@code port} for {@code parent}; empty when someone holds it already. */
    Optional<Held> takePort(int port, ParentReference parent) {
        NodePortAllocation allocation = NodePortAllocation.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(String.valueOf(port)).build())
                .setSpec(NodePortAllocationSpec.newBuilder().setParentRef(parent).build()).build();
        return take(Kinds.NODE_PORT_ALLOCATION, allocation);
    }

    private Optional<Held> take(KindInfo kind, org.apache.avro.specific.SpecificRecord object) {
        Requests.Result r = writer.submit(commands.create(object));
        if (r.accepted()) {
            return Optional.of(new Held(kind, r.object().getName(), r.object().getUid()));
        }
        if ("AlreadyExists".equals(r.outcome().getReason())) {
            return Optional.empty();
        }
        throw new ApiException(io.eventplane.gateway.wire.Statuses.internal("failed to allocate "
                + kind.kind() + " " + r.outcome().getName() + ": " + r.outcome().getMessage()));
    }

    /** Gives back what this gateway took; a failure is logged (the repair loop finds what stays behind). */
    void giveBack(Held held) {
        delete(held.kind(), held.name(), held.uid());
    }

    /** Gives back {@code kind/name} if {@code parent} holds it. */
    void release(KindInfo kind, String name, ParentReference parent) {
        Optional<ObjectChanged> current = view.get(kind.kind(), "", name);
        if (current.isPresent() && sameParent(parentRef(current.get().getObject()), parent)) {
            delete(kind, name, current.get().getUid());
        }
    }

    static boolean sameParent(ParentReference a, ParentReference b) {
        return a != null && b != null && Objects.equals(nz(a.getGroup()), nz(b.getGroup()))
                && Objects.equals(a.getResource(), b.getResource()) && Objects.equals(nz(a.getNamespace()),
                nz(b.getNamespace())) && Objects.equals(a.getName(), b.getName());
    }

    void delete(KindInfo kind, String name, String uid) {
        try {
            Requests.Result r = writer.submit(commands.deleteWith(kind, "", name,
                    Preconditions.newBuilder().setUid(uid).build(), new DeleteOptions()));
            if (!r.accepted() && r.outcome().getCode() != 404 && r.outcome().getCode() != 409) {
                LOG.warn("cannot release {} {}: {}", kind.kind(), name, r.outcome().getMessage());
            }
        } catch (ApiException e) {
            LOG.warn("cannot release {} {}: {}", kind.kind(), name, e.status().message());
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
