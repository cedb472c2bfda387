package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.discovery.Endpoint;
import io.eventplane.model.discovery.EndpointPort;
import io.eventplane.model.discovery.EndpointSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * discovery.k8s.io/v1 EndpointSlice: an address type fixed at creation, at most 1000 endpoints of 1 to 100
 * addresses of that type, at most 100 uniquely named ports (ValidateEndpointSlice); ports default to TCP and an
 * empty name. The EndpointSlice controller is the next phase's.
 */
final class EndpointSliceRules implements KindRules<EndpointSlice> {
    static final List<String> ADDRESS_TYPES = List.of("FQDN", "IPv4", "IPv6");

    @Override
    public EndpointSlice defaults(EndpointSlice slice) {
        if (slice.getPorts() == null) {
            return slice;
        }
        List<EndpointPort> ports = new ArrayList<>();
        for (EndpointPort p : slice.getPorts()) {
            EndpointPort.Builder b = EndpointPort.newBuilder(p);
            if (p.getName() == null) {
                b.setName("");
            }
            if (p.getProtocol() == null) {
                b.setProtocol("TCP");
            }
            ports.add(b.build());
        }
        return EndpointSlice.newBuilder(slice).setPorts(ports).build();
    }

    @Override
    public EndpointSlice prepareForCreate(EndpointSlice slice, Instant now) {
        return slice;
    }

    @Override
    public List<StatusCause> validate(EndpointSlice slice) {
        List<StatusCause> causes = new ArrayList<>();
        String type = slice.getAddressType();
        if (type == null || type.isEmpty()) {
            causes.add(Causes.required("addressType"));
        } else if (!ADDRESS_TYPES.contains(type)) {
            causes.add(Causes.notSupported("addressType", type, ADDRESS_TYPES));
        }
        endpoints(slice.getEndpoints(), type, causes);
        ports(slice.getPorts(), causes);
        return causes;
    }

    private static void endpoints(List<Endpoint> endpoints, String type, List<StatusCause> causes) {
        if (endpoints == null) {
            return;
        }
        if (endpoints.size() > 1000) {
            causes.add(Causes.tooMany("endpoints", endpoints.size(), 1000));
            return;
        }
        for (int i = 0; i < endpoints.size(); i++) {
            Endpoint e = endpoints.get(i);
            String f = "endpoints[" + i + "].addresses";
            List<String> addresses = e.getAddresses() == null ? List.of() : e.getAddresses();
            if (addresses.isEmpty()) {
                causes.add(Causes.required(f, "must contain at least 1 address"));
            } else if (addresses.size() > 100) {
                causes.add(Causes.tooMany(f, addresses.size(), 100));
            }
            for (int j = 0; j < addresses.size(); j++) {
                address(f + "[" + j + "]", addresses.get(j), type, causes);
            }
            if (e.getHostname() != null) {
                Formats.label("endpoints[" + i + "].hostname", e.getHostname(), causes);
            }
        }
    }

    private static void address(String f, String address, String type, List<StatusCause> causes) {
        switch (type == null ? "" : type) {
            case "IPv4", "IPv6" -> {
                boolean v6 = type.equals("IPv6");
                if (Formats.parseIp(address).isEmpty() || Formats.isIPv6(address) != v6) {
                    causes.add(Causes.invalid(f, address, "must be a valid " + type + " address"));
                }
                Formats.nonSpecialIp(f, address, causes);
            }
            case "FQDN" -> fqdn(f, address, causes);
            default -> {
                // unknown types are reported once, at addressType
            }
        }
    }

    /** IsFullyQualifiedDomainName. */
    private static void fqdn(String f, String name, List<StatusCause> causes) {
        if (name.isEmpty()) {
            causes.add(Causes.required(f));
            return;
        }
        String n = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        List<String> errs = Formats.subdomain(n);
        if (!errs.isEmpty()) {
            causes.add(Causes.invalid(f, n, String.join(",", errs)));
        } else if (n.split("\\.").length < 2) {
            causes.add(Causes.invalid(f, n, "should be a domain with at least two segments separated by dots"));
        }
    }

    private static void ports(List<EndpointPort> ports, List<StatusCause> causes) {
        if (ports == null) {
            return;
        }
        if (ports.size() > 100) {
            causes.add(Causes.tooMany("ports", ports.size(), 100));
            return;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            EndpointPort p = ports.get(i);
            String f = "ports[" + i + "]";
            String name = Objects.toString(p.getName(), "");
            if (!name.isEmpty()) {
                Formats.label(f + ".name", name, causes);
            }
            if (!names.add(name)) {
                causes.add(Causes.duplicate(f + ".name", name));
            }
            if (p.getProtocol() == null) {
                causes.add(Causes.required(f + ".protocol"));
            } else if (!ServiceValidation.PROTOCOLS.contains(p.getProtocol())) {
                causes.add(Causes.notSupported(f + ".protocol", p.getProtocol(), ServiceValidation.PROTOCOLS));
            }
            if (p.getAppProtocol() != null) {
                Formats.qualifiedName(f + ".appProtocol", p.getAppProtocol(), causes);
            }
        }
    }

    @Override
    public List<StatusCause> validateUpdate(EndpointSlice old, EndpointSlice updated) {
        List<StatusCause> causes = new ArrayList<>();
        if (!Objects.equals(old.getAddressType(), updated.getAddressType())) {
            causes.add(Causes.invalid("addressType", Objects.toString(updated.getAddressType(), ""), "field is immutable"));
        }
        return causes;
    }
}
