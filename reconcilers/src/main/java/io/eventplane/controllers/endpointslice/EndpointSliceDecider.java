package io.eventplane.controllers.endpointslice;

import io.eventplane.controllers.Hashes;
import io.eventplane.controllers.endpoint.PodEndpoints;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.core.meta.ServiceTypes;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.discovery.Endpoint;
import io.eventplane.model.discovery.EndpointConditions;
import io.eventplane.model.discovery.EndpointPort;
import io.eventplane.model.discovery.EndpointSlice;
import io.eventplane.reconcile.Action;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The EndpointSlice controller's decision (pkg/controller/endpointslice reconciler): a selecting Service's pods as
 * EndpointSlices of its address family, at most 100 endpoints each, one set of slices per distinct list of resolved
 * ports; each endpoint with the conditions ready (serving and not terminating, or published anyway), serving (the
 * pod is Ready) and terminating, its node, zone, hostname and pod. A Service without endpoints keeps one empty
 * placeholder slice. Slices are labelled with the Service's name and this controller, owned by the Service (the
 * garbage collector deletes them with it), named {@code <service>-<suffix>} with a suffix derived from the Service's
 * uid so a retried create is refused instead of making a twin. Existing slices are filled in order; what is left over
 * is deleted. Creates come first, then updates, then deletes. Pure.
 */
public final class EndpointSliceDecider {
    public static final int MAX_ENDPOINTS_PER_SLICE = 100;
    public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";
    public static final String MANAGED_BY_LABEL = "endpointslice.kubernetes.io/managed-by";
    public static final String CONTROLLER_NAME = "endpointslice-controller.k8s.io";
    static final String HEADLESS_LABEL = "service.kubernetes.io/headless";
    static final String ZONE_LABEL = "topology.kubernetes.io/zone";

    private EndpointSliceDecider() {
    }

    /**
     * @param existing the Service's slices this controller manages (not being deleted)
     * @param zoneOf   a node's zone label, or null
     */
    public static List<Action> decide(Service service, List<Pod> pods, List<EndpointSlice> existing,
                                      Function<String, String> zoneOf) {
        List<Action> creates = new ArrayList<>();
        List<Action> updates = new ArrayList<>();
        List<Action> deletes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        existing.forEach(s -> names.add(s.getMetadata().getName()));
        Map<String, String> labels = labels(service);
        for (String family : families(service)) {
            Map<List<EndpointPort>, List<Endpoint>> groups = endpoints(service, pods, family, zoneOf);
            if (groups.isEmpty()) {
                groups.put(List.of(), List.of()); // the placeholder
            }
            List<EndpointSlice> ofFamily = existing.stream().filter(s -> family.equals(s.getAddressType()))
                    .sorted(Comparator.comparing(s -> s.getMetadata().getName())).toList();
            Map<List<EndpointPort>, List<EndpointSlice>> held = new LinkedHashMap<>();
            for (EndpointSlice s : ofFamily) {
                held.computeIfAbsent(ports(s), p -> new ArrayList<>()).add(s);
            }
            for (Map.Entry<List<EndpointPort>, List<Endpoint>> group : groups.entrySet()) {
                List<List<Endpoint>> chunks = chunks(group.getValue());
                List<EndpointSlice> slices = held.getOrDefault(group.getKey(), List.of());
                for (int i = 0; i < chunks.size(); i++) {
                    EndpointSlice want = slice(service, family, group.getKey(), chunks.get(i), labels);
                    if (i < slices.size()) {
                        EndpointSlice have = slices.get(i);
                        if (!same(have, want)) {
                            updates.add(new Action.Update(EndpointSlice.newBuilder(want).setMetadata(
                                    ObjectMeta.newBuilder(have.getMetadata()).setLabels(want.getMetadata().getLabels())
                                            .setOwnerReferences(want.getMetadata().getOwnerReferences()).build())
                                    .build(), null, "FailedToUpdateEndpointSlices"));
                        }
                    } else {
                        String name = newName(service, family, group.getKey(), names);
                        names.add(name);
                        want.getMetadata().setName(name);
                        creates.add(new Action.Create(want, null, "FailedToUpdateEndpointSlices"));
                    }
                }
                for (int i = chunks.size(); i < slices.size(); i++) {
                    deletes.add(delete(slices.get(i)));
                }
                held.remove(group.getKey());
            }
            held.values().forEach(list -> list.forEach(s -> deletes.add(delete(s))));
        }
        existing.stream().filter(s -> !families(service).contains(s.getAddressType())).forEach(s -> deletes.add(delete(s)));
        List<Action> out = new ArrayList<>(creates);
        out.addAll(updates);
        out.addAll(deletes);
        return out;
    }

    private static Action delete(EndpointSlice s) {
        return new Action.Delete(Kinds.ENDPOINT_SLICE, s.getMetadata().getNamespace(), s.getMetadata().getName(),
                s.getMetadata().getUid(), null, "FailedToUpdateEndpointSlices");
    }

    /** getAddressTypesForService: the Service's IP families, IPv4 when it names none. */
    static List<String> families(Service service) {
        List<String> families = service.getSpec().getIpFamilies();
        return families == null || families.isEmpty() ? List.of(PodEndpoints.family(service)) : families;
    }

    /** The pods' endpoints of one family, grouped by their resolved ports, each group sorted by pod name. */
    static Map<List<EndpointPort>, List<Endpoint>> endpoints(Service service, List<Pod> pods, String family,
                                                            Function<String, String> zoneOf) {
        boolean publishNotReady = Boolean.TRUE.equals(service.getSpec().getPublishNotReadyAddresses());
        Map<List<EndpointPort>, List<Endpoint>> groups = new TreeMap<>(Comparator.comparing(Object::toString));
        for (Pod pod : pods) {
            if (!PodEndpoints.shouldBeInEndpoints(pod, true)) {
                continue;
            }
            var ip = PodEndpoints.address(pod, family);
            if (ip.isEmpty()) {
                continue;
            }
            boolean serving = PodStates.isReady(pod);
            boolean terminating = pod.getMetadata().getDeletionTimestamp() != null;
            Endpoint.Builder e = Endpoint.newBuilder().setAddresses(List.of(ip.get()))
                    .setConditions(EndpointConditions.newBuilder().setReady(publishNotReady || serving && !terminating)
                            .setServing(serving).setTerminating(terminating).build())
                    .setTargetRef(PodEndpoints.targetRef(pod));
            String node = pod.getSpec().getNodeName();
            if (node != null && !node.isEmpty()) {
                e.setNodeName(node);
                String zone = zoneOf.apply(node);
                if (zone != null && !zone.isEmpty()) {
                    e.setZone(zone);
                }
            }
            PodEndpoints.hostname(pod, service).ifPresent(e::setHostname);
            groups.computeIfAbsent(ports(service, pod), p -> new ArrayList<>()).add(e.build());
        }
        return groups;
    }

    /** getEndpointPorts: each service port resolved against the pod; a headless Service may have none. */
    static List<EndpointPort> ports(Service service, Pod pod) {
        List<EndpointPort> out = new ArrayList<>();
        for (ServicePort sp : service.getSpec().getPorts() == null ? List.<ServicePort>of() : service.getSpec().getPorts()) {
            OptionalInt number = PodEndpoints.findPort(pod, sp);
            if (number.isPresent()) {
                out.add(EndpointPort.newBuilder().setName(sp.getName() == null ? "" : sp.getName())
                        .setProtocol(sp.getProtocol()).setPort(number.getAsInt()).setAppProtocol(sp.getAppProtocol())
                        .build());
            }
        }
        return out;
    }

    private static List<EndpointPort> ports(EndpointSlice s) {
        return s.getPorts() == null ? List.of() : s.getPorts();
    }

    private static List<List<Endpoint>> chunks(List<Endpoint> endpoints) {
        List<List<Endpoint>> out = new ArrayList<>();
        for (int i = 0; i < endpoints.size(); i += MAX_ENDPOINTS_PER_SLICE) {
            out.add(endpoints.subList(i, Math.min(endpoints.size(), i + MAX_ENDPOINTS_PER_SLICE)));
        }
        if (out.isEmpty()) {
            out.add(List.of());
        }
        return out;
    }

    /** setEndpointSliceLabels: the Service's own labels, its name, this controller, headless marked. */
    static Map<String, String> labels(Service service) {
        Map<String, String> labels = new TreeMap<>();
        if (service.getMetadata().getLabels() != null) {
            service.getMetadata().getLabels().forEach((k, v) -> {
                if (!k.equals(SERVICE_NAME_LABEL) && !k.equals(MANAGED_BY_LABEL) && !k.equals(HEADLESS_LABEL)) {
                    labels.put(k, v);
                }
            });
        }
        String ip = service.getSpec().getClusterIP();
        if (ip == null || ip.isEmpty() || ServiceTypes.NONE.equals(ip)) {
            labels.put(HEADLESS_LABEL, "");
        }
        labels.put(SERVICE_NAME_LABEL, service.getMetadata().getName());
        labels.put(MANAGED_BY_LABEL, CONTROLLER_NAME);
        return labels;
    }

    private static EndpointSlice slice(Service service, String family, List<EndpointPort> ports,
                                       List<Endpoint> endpoints, Map<String, String> labels) {
        ObjectMeta meta = ObjectMeta.newBuilder().setNamespace(service.getMetadata().getNamespace())
                .setGenerateName(prefix(service)).setLabels(new LinkedHashMap<>(labels))
                .setOwnerReferences(List.of(Owners.controllerRef(Kinds.SERVICE, service.getMetadata()))).build();
        return EndpointSlice.newBuilder().setMetadata(meta).setAddressType(family)
                .setEndpoints(endpoints.isEmpty() ? null : new ArrayList<>(endpoints))
                .setPorts(ports.isEmpty() ? null : new ArrayList<>(ports)).build();
    }

    private static boolean same(EndpointSlice have, EndpointSlice want) {
        return Objects.equals(orEmpty(have.getEndpoints()), orEmpty(want.getEndpoints()))
                && Objects.equals(orEmpty(have.getPorts()), orEmpty(want.getPorts()))
                && Objects.equals(new TreeMap<>(have.getMetadata().getLabels() == null ? Map.of()
                : have.getMetadata().getLabels()), new TreeMap<>(want.getMetadata().getLabels()))
                && Owners.isControlledBy(have.getMetadata(), Owners.controllerOf(want.getMetadata()).orElseThrow().getUid());
    }

    private static <T> List<T> orEmpty(List<T> l) {
        return l == null ? List.of() : l;
    }

    /** getEndpointSlicePrefix: {@code <service>-}, cut to leave room for a five-character suffix. */
    static String prefix(Service service) {
        String prefix = service.getMetadata().getName() + "-";
        return prefix.length() > 58 ? prefix.substring(0, 58) : prefix;
    }

    /** A name no slice of the Service has: derived from its uid, family and ports, and how many came before. */
    private static String newName(Service service, String family, List<EndpointPort> ports, Set<String> taken) {
        String seed = service.getMetadata().getUid() + "/" + family + "/" + ports;
        for (long n = 0; ; n++) {
            String name = prefix(service) + Hashes.suffix(seed, n);
            if (!taken.contains(name)) {
                return name;
            }
        }
    }
}
