package io.eventplane.core.decide;

import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.StatusCause;
import io.eventplane.model.EndpointAddress;
import io.eventplane.model.EndpointPort;
import io.eventplane.model.EndpointSubset;
import io.eventplane.model.Endpoints;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * core/v1 Endpoints: every subset has an address, addresses are routable IPs, ports are named when there are
 * several (ValidateEndpoints); ports default to TCP. The endpoints controller that writes them is the next phase's.
 */
final class EndpointsRules implements KindRules<Endpoints> {

    @Override
    public Endpoints defaults(Endpoints endpoints) {
        if (endpoints.getSubsets() == null) {
            return endpoints;
        }
        List<EndpointSubset> subsets = new ArrayList<>();
        for (EndpointSubset s : endpoints.getSubsets()) {
            if (s.getPorts() == null) {
                subsets.add(s);
                continue;
            }
            List<EndpointPort> ports = new ArrayList<>();
            s.getPorts().forEach(p -> ports.add(p.getProtocol() == null || p.getProtocol().isEmpty()
                    ? EndpointPort.newBuilder(p).setProtocol("TCP").build() : p));
            subsets.add(ObjectAccess.with(s, "ports", ports));
        }
        return ObjectAccess.with(endpoints, "subsets", subsets);
    }

    @Override
    public Endpoints prepareForCreate(Endpoints endpoints, Instant now) {
        return endpoints;
    }

    @Override
    public List<StatusCause> validate(Endpoints endpoints) {
        List<StatusCause> causes = new ArrayList<>();
        List<EndpointSubset> subsets = endpoints.getSubsets() == null ? List.of() : endpoints.getSubsets();
        for (int i = 0; i < subsets.size(); i++) {
            EndpointSubset s = subsets.get(i);
            String f = "subsets[" + i + "]";
            if (empty(s.getAddresses()) && empty(s.getNotReadyAddresses())) {
                causes.add(Causes.required(f, "must specify `addresses` or `notReadyAddresses`"));
            }
            addresses(f + ".addresses", s.getAddresses(), causes);
            addresses(f + ".notReadyAddresses", s.getNotReadyAddresses(), causes);
            List<EndpointPort> ports = s.getPorts() == null ? List.of() : s.getPorts();
            for (int j = 0; j < ports.size(); j++) {
                port(ports.get(j), ports.size() > 1, f + ".ports[" + j + "]", causes);
            }
        }
        return causes;
    }

    private static void addresses(String path, List<EndpointAddress> addresses, List<StatusCause> causes) {
        if (addresses == null) {
            return;
        }
        for (int i = 0; i < addresses.size(); i++) {
            EndpointAddress a = addresses.get(i);
            String f = path + "[" + i + "]";
            Formats.ip(f + ".ip", a.getIp(), causes);
            if (a.getHostname() != null && !a.getHostname().isEmpty()) {
                Formats.label(f + ".hostname", a.getHostname(), causes);
            }
            if (a.getNodeName() != null) {
                Formats.subdomain(a.getNodeName()).forEach(m -> causes.add(Causes.invalid(f + ".nodeName",
                        a.getNodeName(), m)));
            }
            Formats.nonSpecialIp(f + ".ip", a.getIp(), causes);
        }
    }

    private static void port(EndpointPort p, boolean requireName, String f, List<StatusCause> causes) {
        String name = p.getName() == null ? "" : p.getName();
        if (requireName && name.isEmpty()) {
            causes.add(Causes.required(f + ".name"));
        } else if (!name.isEmpty()) {
            Formats.label(f + ".name", name, causes);
        }
        int port = p.getPort() == null ? 0 : p.getPort();
        if (port < 1 || port > 65535) {
            causes.add(Causes.invalid(f + ".port", port, ServiceValidation.PORT_RANGE));
        }
        if (p.getProtocol() == null || p.getProtocol().isEmpty()) {
            causes.add(Causes.required(f + ".protocol"));
        } else if (!ServiceValidation.PROTOCOLS.contains(p.getProtocol())) {
            causes.add(Causes.notSupported(f + ".protocol", p.getProtocol(), ServiceValidation.PROTOCOLS));
        }
        if (p.getAppProtocol() != null) {
            Formats.qualifiedName(f + ".appProtocol", p.getAppProtocol(), causes);
        }
    }

    private static boolean empty(List<?> l) {
        return l == null || l.isEmpty();
    }
}
