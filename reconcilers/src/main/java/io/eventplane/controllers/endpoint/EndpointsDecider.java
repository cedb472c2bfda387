package io.eventplane.controllers.endpoint;

import io.eventplane.core.meta.ServiceTypes;
import io.eventplane.model.EndpointAddress;
import io.eventplane.model.EndpointPort;
import io.eventplane.model.EndpointSubset;
import io.eventplane.model.Endpoints;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The endpoints controller's decision (pkg/controller/endpoint syncService): a Service's Endpoints from the pods it
 * selects. A pod with an IP is a ready address when it is Ready (or the Service publishes not-ready addresses), a
 * not-ready one otherwise; terminating pods are left out unless not-ready addresses are published; each service port
 * is resolved against the pod's container ports (a pod without the named port is left out of that port). Addresses
 * with the same ports share a subset (RepackSubsets); at most 1000 addresses are kept, ready ones first. Pure.
 */
public final class EndpointsDecider {
    static final int MAX_CAPACITY = 1000;
    static final String OVER_CAPACITY = "endpoints.kubernetes.io/over-capacity";
    static final String HEADLESS = "service.kubernetes.io/headless";

    private EndpointsDecider() {
    }

    /** The Endpoints the Service should have, or empty when {@code current} is already it. */
    public static Optional<Endpoints> decide(Service service, List<Pod> pods, Endpoints current) {
        List<EndpointSubset> subsets = subsets(service, pods);
        boolean truncated = truncate(subsets);
        Map<String, String> labels = new TreeMap<>(service.getMetadata().getLabels() == null ? Map.of()
                : service.getMetadata().getLabels());
        if (!ipSet(service)) {
            labels.put(HEADLESS, "");
        } else {
            labels.remove(HEADLESS);
        }
        Map<String, String> annotations = new TreeMap<>(current == null || current.getMetadata().getAnnotations() == null
                ? Map.of() : current.getMetadata().getAnnotations());
        if (truncated) {
            annotations.put(OVER_CAPACITY, "truncated");
        } else {
            annotations.remove(OVER_CAPACITY);
        }
        if (current != null && Objects.equals(nullIfEmpty(current.getSubsets()), nullIfEmpty(subsets))
                && Objects.equals(new TreeMap<>(orEmpty(current.getMetadata().getLabels())), labels)
                && Objects.equals(new TreeMap<>(orEmpty(current.getMetadata().getAnnotations())), annotations)) {
            return Optional.empty();
        }
        ObjectMeta meta = current == null
                ? ObjectMeta.newBuilder().setName(service.getMetadata().getName())
                        .setNamespace(service.getMetadata().getNamespace()).build()
                : ObjectMeta.newBuilder(current.getMetadata()).build();
        meta.setLabels(labels.isEmpty() ? null : new LinkedHashMap<>(labels));
        meta.setAnnotations(annotations.isEmpty() ? null : new LinkedHashMap<>(annotations));
        return Optional.of(Endpoints.newBuilder().setMetadata(meta).setSubsets(subsets.isEmpty() ? null : subsets).build());
    }

    /** IsServiceIPSet: a cluster IP that is not None. */
    static boolean ipSet(Service service) {
        String ip = service.getSpec().getClusterIP();
        return ip != null && !ip.isEmpty() && !ServiceTypes.NONE.equals(ip);
    }

    /** One address and the ports it serves. */
    private record Member(EndpointAddress address, boolean ready, List<EndpointPort> ports) {
    }

    /** The subsets of the Service's endpoints, repacked and sorted. */
    public static List<EndpointSubset> subsets(Service service, List<Pod> pods) {
        boolean publishNotReady = Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses());
        String family = PodEndpoints.family(service);
        List<ServicePort> servicePorts = service.getSpec().getPorts() == null ? List.of() : service.getSpec().getPorts();
        boolean headless = ServiceTypes.headless(service.getSpec());
        List<Member> members = new ArrayList<>();
        for (Pod pod : pods) {
            if (!PodEndpoints.shouldBeInEndpoints(pod, publishNotReady)) {
                continue;
            }
            Optional<String> ip = PodEndpoints.address(pod, family);
            if (ip.isEmpty()) {
                continue;
            }
            EndpointAddress.Builder address = EndpointAddress.newBuilder().setIp(ip.get())
                    .setNodeName(pod.getSpec().getNodeName()).setTargetRef(PodEndpoints.targetRef(pod));
            PodEndpoints.hostname(pod, service).ifPresent(address::setHostname);
            boolean ready = publishNotReady || io.eventplane.core.meta.PodStates.isReady(pod);
            List<EndpointPort> ports = new ArrayList<>();
            for (ServicePort sp : servicePorts) {
                OptionalInt number = PodEndpoints.findPort(pod, sp);
                if (number.isPresent()) {
                    ports.add(EndpointPort.newBuilder().setName(sp.getName()).setPort(number.getAsInt())
                            .setProtocol(sp.getProtocol()).setAppProtocol(sp.getAppProtocol()).build());
                }
            }
            if (!ports.isEmpty() || servicePorts.isEmpty() && headless) {
                ports.sort(PORT_ORDER);
                members.add(new Member(address.build(), ready, ports));
            }
        }
        return repack(members);
    }

    private static final Comparator<EndpointPort> PORT_ORDER = Comparator
            .comparing((EndpointPort p) -> p.getName() == null ? "" : p.getName())
            .thenComparing(p -> p.getPort() == null ? 0 : p.getPort())
            .thenComparing(p -> p.getProtocol() == null ? "" : p.getProtocol());
    private static final Comparator<EndpointAddress> ADDRESS_ORDER = Comparator
            .comparing((EndpointAddress a) -> a.getIp() == null ? "" : a.getIp())
            .thenComparing(a -> a.getTargetRef() == null || a.getTargetRef().getUid() == null ? ""
                    : a.getTargetRef().getUid());

    /** RepackSubsets: addresses serving the same ports share one subset; addresses, ports and subsets sorted. */
    private static List<EndpointSubset> repack(List<Member> members) {
        Map<List<EndpointPort>, List<Member>> byPorts = new HashMap<>();
        for (Member m : members) {
            byPorts.computeIfAbsent(m.ports(), p -> new ArrayList<>()).add(m);
        }
        List<EndpointSubset> out = new ArrayList<>();
        for (Map.Entry<List<EndpointPort>, List<Member>> e : byPorts.entrySet()) {
            List<EndpointAddress> ready = new ArrayList<>();
            List<EndpointAddress> notReady = new ArrayList<>();
            for (Member m : e.getValue()) {
                (m.ready() ? ready : notReady).add(m.address());
            }
            ready.sort(ADDRESS_ORDER);
            notReady.sort(ADDRESS_ORDER);
            out.add(EndpointSubset.newBuilder().setAddresses(ready.isEmpty() ? null : ready)
                    .setNotReadyAddresses(notReady.isEmpty() ? null : notReady)
                    .setPorts(e.getKey().isEmpty() ? null : e.getKey()).build());
        }
        out.sort(Comparator.comparing(EndpointsDecider::firstAddress).thenComparing(s -> String.valueOf(s.getPorts())));
        return out;
    }

    private static String firstAddress(EndpointSubset s) {
        List<EndpointAddress> a = s.getAddresses() != null ? s.getAddresses() : s.getNotReadyAddresses();
        return a == null || a.isEmpty() ? "" : a.get(0).getIp();
    }

    /**
     * truncateEndpoints: over 1000 addresses, not-ready ones are cut first, then ready ones, each subset keeping its
     * share; whether it cut.
     */
    static boolean truncate(List<EndpointSubset> subsets) {
        int ready = 0;
        int notReady = 0;
        for (EndpointSubset s : subsets) {
            ready += size(s.getAddresses());
            notReady += size(s.getNotReadyAddresses());
        }
        if (ready + notReady <= MAX_CAPACITY) {
            return false;
        }
        boolean cutReady = ready > MAX_CAPACITY;
        int max = cutReady ? MAX_CAPACITY : MAX_CAPACITY - ready;
        int total = cutReady ? ready : notReady;
        int left = max;
        for (int i = 0; i < subsets.size(); i++) {
            EndpointSubset s = subsets.get(i);
            int in = cutReady ? size(s.getAddresses()) : size(s.getNotReadyAddresses());
            int keep = Math.min((int) Math.ceil((double) in / total * max), left);
            EndpointSubset.Builder b = EndpointSubset.newBuilder(s);
            if (cutReady) {
                b.setAddresses(head(s.getAddresses(), keep)).setNotReadyAddresses(null);
                left -= size(b.getAddresses());
            } else {
                b.setNotReadyAddresses(head(s.getNotReadyAddresses(), keep));
                left -= size(b.getNotReadyAddresses());
            }
            subsets.set(i, b.build());
        }
        return true;
    }

    private static List<EndpointAddress> head(List<EndpointAddress> list, int n) {
        return list == null || list.size() <= n ? list : new ArrayList<>(list.subList(0, n));
    }

    private static int size(List<?> l) {
        return l == null ? 0 : l.size();
    }

    private static <T> List<T> nullIfEmpty(List<T> l) {
        return l == null || l.isEmpty() ? null : l;
    }

    private static Map<String, String> orEmpty(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }
}
