package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.name;
import static io.eventplane.gateway.table.KindColumns.nz;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.EndpointAddress;
import io.eventplane.model.EndpointPort;
import io.eventplane.model.EndpointSubset;
import io.eventplane.model.Endpoints;
import io.eventplane.model.LoadBalancerIngress;
import io.eventplane.model.Service;
import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import io.eventplane.model.discovery.Endpoint;
import io.eventplane.model.discovery.EndpointSlice;
import io.eventplane.model.networking.IPAddress;
import io.eventplane.model.networking.ParentReference;
import io.eventplane.model.networking.ServiceCIDR;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** kubectl's printers for Service, Endpoints, EndpointSlice, IPAddress and ServiceCIDR (pkg/printers/internalversion). */
final class NetworkColumns {
    private static final int MAX_LISTED = 3;

    private NetworkColumns() {
    }

    /** NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE (SELECTOR). */
    static final Columns SERVICE = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Type", "type determines how the Service is exposed. Defaults to ClusterIP."),
            Column.of("Cluster-IP", "clusterIP is the IP address of the service and is usually assigned randomly."),
            Column.of("External-IP", "externalIPs is a list of IP addresses for which nodes in the cluster will also "
                    + "accept traffic for this service."),
            Column.of("Port(s)", "The list of ports that are exposed by this service."),
            Column.ageColumn(),
            Column.wide("Selector", "Route service traffic to pods with label keys and values matching this selector.")),
            (o, now) -> {
                Service svc = (Service) o;
                ServiceSpec spec = svc.getSpec() == null ? new ServiceSpec() : svc.getSpec();
                String clusterIp = spec.getClusterIPs() == null || spec.getClusterIPs().isEmpty() ? "<none>"
                        : spec.getClusterIPs().get(0);
                String ports = ports(spec.getPorts());
                return row(name(svc), nz(spec.getType()), clusterIp, externalIp(svc), ports.isEmpty() ? "<none>" : ports,
                        age(svc, now), Columns.orNone(LabelSelectors.toString(spec.getSelector())));
            });

    /** NAME ENDPOINTS AGE. */
    static final Columns ENDPOINTS = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Endpoints", "The set of all endpoints is the union of all subsets."),
            Column.ageColumn()), (o, now) -> {
                Endpoints ep = (Endpoints) o;
                return row(name(ep), endpoints(ep.getSubsets()), age(ep, now));
            });

    /** NAME ADDRESSTYPE PORTS ENDPOINTS AGE. */
    static final Columns ENDPOINT_SLICE = new KindColumns(List.of(Column.nameColumn(),
            Column.of("AddressType", "Type of address carried by this EndpointSlice"),
            Column.of("Ports", "Ports advertised by this EndpointSlice"),
            Column.of("Endpoints", "Endpoints included in this EndpointSlice"),
            Column.ageColumn()), (o, now) -> {
                EndpointSlice slice = (EndpointSlice) o;
                List<String> ports = new ArrayList<>();
                if (slice.getPorts() != null) {
                    for (var p : slice.getPorts()) {
                        ports.add(p.getPort() != null ? String.valueOf(p.getPort()) : p.getName() != null ? p.getName() : "*");
                    }
                }
                List<String> addresses = new ArrayList<>();
                if (slice.getEndpoints() != null) {
                    for (Endpoint e : slice.getEndpoints()) {
                        if (e.getAddresses() != null) {
                            addresses.addAll(e.getAddresses());
                        }
                    }
                }
                return row(name(slice), nz(slice.getAddressType()), listWithMore(ports), listWithMore(addresses),
                        age(slice, now));
            });

    /** NAME CIDRS AGE. */
    static final Columns SERVICE_CIDR = new KindColumns(List.of(Column.nameColumn(),
            Column.of("CIDRs", "CIDRs defines the IP blocks in CIDR notation (e.g. \"192.168.0.0/24\" or \"2001:db8::/64\") "
                    + "from which to assign service cluster IPs. Max of two CIDRs is allowed, one of each IP family. "
                    + "Conversion of a single stack ServiceCIDR to a dual stack ServiceCIDR is allowed."),
            Column.ageColumn()), (o, now) -> {
                ServiceCIDR cidr = (ServiceCIDR) o;
                List<String> cidrs = cidr.getSpec() == null || cidr.getSpec().getCidrs() == null ? List.of()
                        : cidr.getSpec().getCidrs();
                return row(name(cidr), String.join(",", cidrs), age(cidr, now));
            });

    /** NAME PARENTREF, the parent as {@code services/default/web}; the row also carries the age, as Kubernetes'. */
    static final Columns IP_ADDRESS = new KindColumns(List.of(Column.nameColumn(),
            Column.of("ParentRef", "ParentRef references the resource that an IPAddress is attached to. An IPAddress "
                    + "must reference a parent object.")), (o, now) -> {
                IPAddress ip = (IPAddress) o;
                ParentReference ref = ip.getSpec() == null ? null : ip.getSpec().getParentRef();
                String parent = "<none>";
                if (ref != null) {
                    parent = (nz(ref.getResource()) + (nz(ref.getGroup()).isEmpty() ? "" : "." + ref.getGroup()))
                            .toLowerCase(java.util.Locale.ROOT);
                    parent += (nz(ref.getNamespace()).isEmpty() ? "" : "/" + ref.getNamespace()) + "/" + nz(ref.getName());
                }
                return row(name(ip), parent, age(ip, now));
            });

    /** makePortString: {@code 80/TCP}, or {@code 80:30080/TCP} with a node port. */
    static String ports(List<ServicePort> ports) {
        List<String> pieces = new ArrayList<>();
        if (ports != null) {
            for (ServicePort p : ports) {
                String port = String.valueOf(p.getPort() == null ? 0 : p.getPort());
                boolean nodePort = p.getNodePort() != null && p.getNodePort() > 0;
                pieces.add(port + (nodePort ? ":" + p.getNodePort() : "") + "/" + nz(p.getProtocol()));
            }
        }
        return String.join(",", pieces);
    }

    /** getServiceExternalIP (wide): external IPs, a load balancer's ingress, or the external name. */
    static String externalIp(Service svc) {
        ServiceSpec spec = svc.getSpec() == null ? new ServiceSpec() : svc.getSpec();
        List<String> external = spec.getExternalIPs() == null ? List.of() : spec.getExternalIPs();
        switch (nz(spec.getType())) {
            case "ClusterIP", "NodePort" -> {
                return external.isEmpty() ? "<none>" : String.join(",", external);
            }
            case "LoadBalancer" -> {
                TreeSet<String> ingress = new TreeSet<>();
                if (svc.getStatus() != null && svc.getStatus().getLoadBalancer() != null
                        && svc.getStatus().getLoadBalancer().getIngress() != null) {
                    for (LoadBalancerIngress i : svc.getStatus().getLoadBalancer().getIngress()) {
                        if (i.getIp() != null && !i.getIp().isEmpty()) {
                            ingress.add(i.getIp());
                        } else if (i.getHostname() != null && !i.getHostname().isEmpty()) {
                            ingress.add(i.getHostname());
                        }
                    }
                }
                List<String> all = new ArrayList<>(ingress);
                all.addAll(external);
                return all.isEmpty() ? "<pending>" : String.join(",", all);
            }
            case "ExternalName" -> {
                return nz(spec.getExternalName());
            }
            default -> {
                return "<unknown>";
            }
        }
    }

    /** formatEndpoints: up to three {@code ip:port} pairs, then {@code + N more...}. */
    static String endpoints(List<EndpointSubset> subsets) {
        if (subsets == null || subsets.isEmpty()) {
            return "<none>";
        }
        List<String> list = new ArrayList<>();
        boolean more = false;
        int count = 0;
        for (EndpointSubset s : subsets) {
            List<EndpointAddress> addresses = s.getAddresses() == null ? List.of() : s.getAddresses();
            List<EndpointPort> ports = s.getPorts() == null ? List.of() : s.getPorts();
            if (ports.isEmpty()) {
                count += addresses.size();
                for (EndpointAddress a : addresses) {
                    if (list.size() == MAX_LISTED) {
                        more = true;
                        break;
                    }
                    list.add(nz(a.getIp()));
                }
                continue;
            }
            for (EndpointPort p : ports) {
                count += addresses.size();
                for (EndpointAddress a : addresses) {
                    if (list.size() == MAX_LISTED) {
                        more = true;
                        break;
                    }
                    list.add(hostPort(nz(a.getIp()), p.getPort() == null ? 0 : p.getPort()));
                }
            }
        }
        String joined = String.join(",", list);
        return more ? joined + " + " + (count - MAX_LISTED) + " more..." : joined;
    }

    /** net.JoinHostPort: an IPv6 address in brackets. */
    private static String hostPort(String ip, int port) {
        return (ip.contains(":") ? "[" + ip + "]" : ip) + ":" + port;
    }

    /** listWithMoreString: up to three items, {@code + N more...}, or {@code <unset>} when there are none. */
    static String listWithMore(List<String> items) {
        List<String> shown = items.size() > MAX_LISTED ? items.subList(0, MAX_LISTED) : items;
        String joined = String.join(",", shown);
        if (items.size() > MAX_LISTED) {
            return joined + " + " + (items.size() - MAX_LISTED) + " more...";
        }
        return joined.isEmpty() ? "<unset>" : joined;
    }
}
