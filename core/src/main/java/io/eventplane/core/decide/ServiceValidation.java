package io.eventplane.core.decide;

import static io.eventplane.core.decide.ServiceRules.CLUSTER_IP;
import static io.eventplane.core.decide.ServiceRules.EXTERNAL_NAME;
import static io.eventplane.core.decide.ServiceRules.LOAD_BALANCER;
import static io.eventplane.core.decide.ServiceRules.NODE_PORT;
import static io.eventplane.core.decide.ServiceRules.NONE;
import static io.eventplane.core.decide.ServiceRules.blank;
import static io.eventplane.core.decide.ServiceRules.empty;
import static io.eventplane.core.decide.ServiceRules.zero;

import io.eventplane.core.meta.ServiceTypes;
import io.eventplane.log.StatusCause;
import io.eventplane.model.ServicePort;
import io.eventplane.model.ServiceSpec;
import io.eventplane.model.SessionAffinityConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/** What one core/v1 Service must satisfy (Kubernetes' ValidateService and its update checks), in its order. */
final class ServiceValidation {
    static final List<String> PROTOCOLS = List.of("SCTP", "TCP", "UDP");
    static final List<String> TYPES = List.of(CLUSTER_IP, EXTERNAL_NAME, LOAD_BALANCER, NODE_PORT);
    static final List<String> AFFINITIES = List.of("ClientIP", NONE);
    static final List<String> TRAFFIC_POLICIES = List.of("Cluster", "Local");
    static final List<String> FAMILIES = List.of("IPv4", "IPv6");
    static final List<String> FAMILY_POLICIES = List.of("PreferDualStack", "RequireDualStack", "SingleStack");
    /** The node port range of a default kube-apiserver (--service-node-port-range). */
    static final int NODE_PORT_MIN = 30000;
    static final int NODE_PORT_MAX = 32767;
    static final String PORT_RANGE = "must be between 1 and 65535, inclusive";
    private static final Pattern PORT_NAME = Pattern.compile("[-a-z0-9]+");
    private static final Pattern HAS_LETTER = Pattern.compile(".*[a-z].*");

    private ServiceValidation() {
    }

    static List<StatusCause> validate(ServiceSpec spec) {
        List<StatusCause> causes = new ArrayList<>();
        List<ServicePort> ports = spec.getPorts() == null ? List.of() : spec.getPorts();
        boolean headless = ServiceTypes.headless(spec);
        String type = spec.getType();
        if (ports.isEmpty() && !headless && !EXTERNAL_NAME.equals(type)) {
            causes.add(Causes.required("spec.ports"));
        }
        if ((LOAD_BALANCER.equals(type) || NODE_PORT.equals(type)) && headless) {
            causes.add(Causes.invalid("spec.clusterIPs[0]", NONE, "may not be set to 'None' for " + type + " services"));
        } else if (EXTERNAL_NAME.equals(type)) {
            externalName(spec, causes);
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            port(ports.get(i), ports.size() > 1, names, "spec.ports[" + i + "]", causes);
        }
        Formats.labels("spec.selector", spec.getSelector(), causes);
        sessionAffinity(spec, causes);
        clusterIps(spec, causes);
        List<String> externalIps = spec.getExternalIPs() == null ? List.of() : spec.getExternalIPs();
        for (int i = 0; i < externalIps.size(); i++) {
            String f = "spec.externalIPs[" + i + "]";
            if (Formats.ip(f, externalIps.get(i), causes)) {
                Formats.nonSpecialIp(f, externalIps.get(i), causes);
            }
        }
        if (blank(type)) {
            causes.add(Causes.required("spec.type"));
        } else if (!TYPES.contains(type)) {
            causes.add(Causes.notSupported("spec.type", type, TYPES));
        }
        for (int i = 0; i < ports.size(); i++) {
            if (CLUSTER_IP.equals(type) && !zero(ports.get(i).getNodePort())) {
                causes.add(Causes.forbidden("spec.ports[" + i + "].nodePort", "may not be used when `type` is 'ClusterIP'"));
            }
        }
        duplicatePorts(ports, causes);
        sourceRanges(spec, causes);
        if (spec.getAllocateLoadBalancerNodePorts() != null && !LOAD_BALANCER.equals(type)) {
            causes.add(Causes.forbidden("spec.allocateLoadBalancerNodePorts", "may only be used when `type` is 'LoadBalancer'"));
        }
        if (LOAD_BALANCER.equals(type) && spec.getAllocateLoadBalancerNodePorts() == null) {
            causes.add(Causes.required("allocateLoadBalancerNodePorts")); // sic: Kubernetes' path has no spec.
        }
        if (spec.getLoadBalancerClass() != null) {
            if (!LOAD_BALANCER.equals(type)) {
                causes.add(Causes.forbidden("spec.loadBalancerClass",
                        "may only be used when service type is 'LoadBalancer'"));
            } else {
                Formats.qualifiedName("spec.loadBalancerClass", spec.getLoadBalancerClass(), causes);
            }
        }
        trafficPolicies(spec, causes);
        return causes;
    }

    private static void externalName(ServiceSpec spec, List<StatusCause> causes) {
        if (!empty(spec.getClusterIPs())) {
            causes.add(Causes.forbidden("spec.clusterIPs", "may not be set for ExternalName services"));
        }
        if (!empty(spec.getIpFamilies())) {
            causes.add(Causes.forbidden("spec.ipFamilies", "may not be set for ExternalName services"));
        }
        if (spec.getIpFamilyPolicy() != null) {
            causes.add(Causes.forbidden("spec.ipFamilyPolicy", "may not be set for ExternalName services"));
        }
        String cname = spec.getExternalName() == null ? "" : spec.getExternalName();
        cname = cname.endsWith(".") ? cname.substring(0, cname.length() - 1) : cname; // a fully qualified name
        if (cname.isEmpty()) {
            causes.add(Causes.required("spec.externalName"));
        } else {
            String value = cname;
            Formats.subdomain(cname).forEach(m -> causes.add(Causes.invalid("spec.externalName", value, m)));
        }
    }

    private static void port(ServicePort p, boolean requireName, Set<String> names, String f, List<StatusCause> causes) {
        String name = p.getName() == null ? "" : p.getName();
        if (requireName && name.isEmpty()) {
            causes.add(Causes.required(f + ".name"));
        } else if (!name.isEmpty()) {
            Formats.label(f + ".name", name, causes);
            if (!names.add(name)) {
                causes.add(Causes.duplicate(f + ".name", name));
            }
        }
        int port = p.getPort() == null ? 0 : p.getPort();
        if (port < 1 || port > 65535) {
            causes.add(Causes.invalid(f + ".port", port, PORT_RANGE));
        }
        if (blank(p.getProtocol())) {
            causes.add(Causes.required(f + ".protocol"));
        } else if (!PROTOCOLS.contains(p.getProtocol())) {
            causes.add(Causes.notSupported(f + ".protocol", p.getProtocol(), PROTOCOLS));
        }
        Object target = p.getTargetPort();
        if (target instanceof Integer t) {
            if (t < 1 || t > 65535) {
                causes.add(Causes.invalid(f + ".targetPort", t, PORT_RANGE));
            }
        } else if (target != null) {
            portName(target.toString()).forEach(m -> causes.add(Causes.invalid(f + ".targetPort", target.toString(), m)));
        }
        if (p.getAppProtocol() != null) {
            Formats.qualifiedName(f + ".appProtocol", p.getAppProtocol(), causes);
        }
    }

    /** IsValidPortName: an IANA service name. */
    static List<String> portName(String port) {
        List<String> errs = new ArrayList<>();
        if (port.length() > 15) {
            errs.add("must be no more than 15 characters");
        }
        if (!PORT_NAME.matcher(port).matches()) {
            errs.add("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
        } else if (!HAS_LETTER.matcher(port).matches()) {
            errs.add("must contain at least one letter (a-z)");
        }
        if (port.contains("--")) {
            errs.add("must not contain consecutive hyphens");
        }
        if (!port.isEmpty() && (port.startsWith("-") || port.endsWith("-"))) {
            errs.add("must not begin or end with a hyphen");
        }
        return errs;
    }

    private static void sessionAffinity(ServiceSpec spec, List<StatusCause> causes) {
        String affinity = spec.getSessionAffinity();
        if (blank(affinity)) {
            causes.add(Causes.required("spec.sessionAffinity"));
        } else if (!AFFINITIES.contains(affinity)) {
            causes.add(Causes.notSupported("spec.sessionAffinity", affinity, AFFINITIES));
        }
        SessionAffinityConfig config = spec.getSessionAffinityConfig();
        String f = "spec.sessionAffinityConfig";
        String when = "when session affinity type is ClientIP";
        if ("ClientIP".equals(affinity)) {
            if (config == null) {
                causes.add(Causes.required(f, when));
            } else if (config.getClientIP() == null) {
                causes.add(Causes.required(f + ".clientIP", when));
            } else if (config.getClientIP().getTimeoutSeconds() == null) {
                causes.add(Causes.required(f + ".clientIP.timeoutSeconds", when));
            } else {
                int t = config.getClientIP().getTimeoutSeconds();
                if (t <= 0 || t > 86400) {
                    causes.add(Causes.invalid(f + ".clientIP.timeoutSeconds", t,
                            "must be greater than 0 and less than 86400"));
                }
            }
        } else if (NONE.equals(affinity) && config != null) {
            causes.add(Causes.forbidden(f, "must not be set when session affinity is None"));
        }
    }

    /** ValidateServiceClusterIPsRelatedFields. */
    private static void clusterIps(ServiceSpec spec, List<StatusCause> causes) {
        if (EXTERNAL_NAME.equals(spec.getType())) {
            return;
        }
        List<String> ips = spec.getClusterIPs() == null ? List.of() : spec.getClusterIPs();
        if (!blank(spec.getClusterIP())) {
            if (ips.isEmpty()) {
                causes.add(Causes.required("spec.clusterIPs"));
            } else if (!ips.get(0).equals(spec.getClusterIP())) {
                causes.add(Causes.invalidShown("spec.clusterIPs", goStrings("string", ips), "first value must match `clusterIP`"));
            }
        } else if (!ips.isEmpty()) {
            causes.add(Causes.invalidShown("spec.clusterIPs", goStrings("string", ips),
                    "must be empty when `clusterIP` is not specified"));
        }
        List<String> families = spec.getIpFamilies() == null ? List.of() : spec.getIpFamilies();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < families.size(); i++) {
            String f = "spec.ipFamilies[" + i + "]";
            if (!FAMILIES.contains(families.get(i))) {
                causes.add(Causes.notSupported(f, families.get(i), FAMILIES));
            }
            if (!seen.add(families.get(i))) {
                causes.add(Causes.duplicate(f, families.get(i)));
            }
        }
        if (spec.getIpFamilyPolicy() != null && !FAMILY_POLICIES.contains(spec.getIpFamilyPolicy())) {
            causes.add(Causes.notSupported("spec.ipFamilyPolicy", spec.getIpFamilyPolicy(), FAMILY_POLICIES));
        }
        boolean invalidIps = false;
        for (int i = 0; i < ips.size(); i++) {
            if (i == 0 && NONE.equals(ips.get(0))) {
                if (ips.size() > 1) {
                    invalidIps = true;
                    causes.add(Causes.invalidShown("spec.clusterIPs", goStrings("string", ips),
                            "'None' must be the first and only value"));
                }
                continue;
            }
            invalidIps |= !Formats.ip("spec.clusterIPs[" + i + "]", ips.get(i), causes);
        }
        if (ips.size() > 2) {
            causes.add(Causes.invalidShown("spec.clusterIPs", goStrings("string", ips), "may only hold up to 2 values"));
        }
        if (invalidIps) {
            return;
        }
        if (ips.size() > 1 && Formats.isIPv6(ips.get(0)) == Formats.isIPv6(ips.get(1))) {
            causes.add(Causes.invalidShown("spec.clusterIPs", goStrings("string", ips),
                    "may specify no more than one IP for each IP family"));
        }
        if (!ServiceTypes.headless(spec)) {
            for (int i = 0; i < ips.size() && i < families.size(); i++) {
                boolean v6 = Formats.isIPv6(ips.get(i));
                if (families.get(i).equals("IPv4") && v6 || families.get(i).equals("IPv6") && !v6) {
                    causes.add(Causes.invalid("spec.clusterIPs[" + i + "]", ips.get(i), "expected an "
                            + families.get(i) + " value as indicated by `ipFamilies[" + i + "]`"));
                }
            }
        }
    }

    private static void duplicatePorts(List<ServicePort> ports, List<StatusCause> causes) {
        Set<String> nodePorts = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            ServicePort p = ports.get(i);
            if (!zero(p.getNodePort()) && !nodePorts.add(p.getProtocol() + "/" + p.getNodePort())) {
                causes.add(Causes.duplicate("spec.ports[" + i + "].nodePort", p.getNodePort()));
            }
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < ports.size(); i++) {
            ServicePort p = ports.get(i);
            int port = p.getPort() == null ? 0 : p.getPort();
            if (!seen.add(p.getProtocol() + "/" + port)) {
                // Go prints the key struct (protocol and port only) as %#v.
                causes.add(Causes.cause("FieldValueDuplicate", "spec.ports[" + i + "]", "spec.ports[" + i + "]: Duplicate "
                        + "value: core.ServicePort{Name:\"\", Protocol:\"" + Objects.toString(p.getProtocol(), "")
                        + "\", AppProtocol:(*string)(nil), Port:" + port + ", TargetPort:intstr.IntOrString{Type:0, "
                        + "IntVal:0, StrVal:\"\"}, NodePort:0}"));
            }
        }
    }

    private static void sourceRanges(ServiceSpec spec, List<StatusCause> causes) {
        List<String> ranges = spec.getLoadBalancerSourceRanges();
        if (empty(ranges)) {
            return;
        }
        String f = "spec.LoadBalancerSourceRanges"; // sic: Kubernetes names the path this way
        if (!LOAD_BALANCER.equals(spec.getType())) {
            causes.add(Causes.forbidden(f, "may only be used when `type` is 'LoadBalancer'"));
        }
        for (int i = 0; i < ranges.size(); i++) {
            Formats.cidr(f + "[" + i + "]", ranges.get(i).trim(), causes); // space padding is tolerated
        }
    }

    private static void trafficPolicies(ServiceSpec spec, List<StatusCause> causes) {
        String external = spec.getExternalTrafficPolicy();
        if (!ServiceTypes.externallyAccessible(spec)) {
            if (!blank(external)) {
                causes.add(Causes.invalid("spec.externalTrafficPolicy", external,
                        "may only be set for externally-accessible services"));
            }
        } else if (blank(external)) {
            causes.add(Causes.required("spec.externalTrafficPolicy"));
        } else if (!TRAFFIC_POLICIES.contains(external)) {
            causes.add(Causes.notSupported("spec.externalTrafficPolicy", external, TRAFFIC_POLICIES));
        }
        Integer hc = spec.getHealthCheckNodePort();
        if (!ServiceTypes.needsHealthCheck(spec)) {
            if (!zero(hc)) {
                causes.add(Causes.invalid("spec.healthCheckNodePort", hc,
                        "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
            }
        } else if (!zero(hc) && (hc < 1 || hc > 65535)) {
            // An unset port is the gateway allocator's to fill, so it is not required here.
            causes.add(Causes.invalid("spec.healthCheckNodePort", hc, PORT_RANGE));
        }
        String internal = spec.getInternalTrafficPolicy();
        if (internal == null && List.of(NODE_PORT, LOAD_BALANCER, CLUSTER_IP).contains(spec.getType())) {
            causes.add(Causes.required("spec.internalTrafficPolicy"));
        }
        if (internal != null && !TRAFFIC_POLICIES.contains(internal)) {
            causes.add(Causes.notSupported("spec.internalTrafficPolicy", internal, TRAFFIC_POLICIES));
        }
        if (spec.getTrafficDistribution() != null && !"PreferClose".equals(spec.getTrafficDistribution())) {
            causes.add(Causes.notSupported("spec.trafficDistribution", spec.getTrafficDistribution(), List.of("PreferClose")));
        }
    }

    /**
     * The node port allocator's range check: each requested node port (new on update) must be in the cluster's range,
     * as must a health-check node port.
     */
    static void nodePortRanges(ServiceSpec spec, ServiceSpec before, List<StatusCause> causes) {
        if (spec == null || !ServiceTypes.needsNodePorts(spec)) {
            return;
        }
        Set<Integer> had = new HashSet<>();
        if (before != null && before.getPorts() != null) {
            before.getPorts().forEach(p -> had.add(p.getNodePort()));
        }
        List<ServicePort> ports = spec.getPorts() == null ? List.of() : spec.getPorts();
        for (int i = 0; i < ports.size(); i++) {
            Integer n = ports.get(i).getNodePort();
            if (!zero(n) && !had.contains(n) && outOfRange(n)) {
                causes.add(Causes.invalid("spec.ports[" + i + "].nodePort", n, notInRange()));
            }
        }
        Integer hc = spec.getHealthCheckNodePort();
        if (ServiceTypes.needsHealthCheck(spec) && !zero(hc) && outOfRange(hc)
                && (before == null || !hc.equals(before.getHealthCheckNodePort()))) {
            causes.add(Causes.invalid("spec.healthCheckNodePort", hc, notInRange()));
        }
    }

    private static boolean outOfRange(int port) {
        return port < NODE_PORT_MIN || port > NODE_PORT_MAX;
    }

    private static String notInRange() {
        return "provided port is not in the valid range. The range of valid ports is " + NODE_PORT_MIN + "-" + NODE_PORT_MAX;
    }

    /** validateUpgradeDowngradeClusterIPs: a cluster IP, once set, never changes (dual-stack may add or drop one). */
    static void clusterIpUpdate(ServiceSpec before, ServiceSpec spec, List<StatusCause> causes) {
        if (EXTERNAL_NAME.equals(spec.getType()) || EXTERNAL_NAME.equals(before.getType())
                || (ServiceTypes.headless(before) && ServiceTypes.headless(spec))) {
            return;
        }
        List<String> old = before.getClusterIPs() == null ? List.of() : before.getClusterIPs();
        List<String> now = spec.getClusterIPs() == null ? List.of() : spec.getClusterIPs();
        String shown = goStrings("string", now);
        if (old.size() == now.size()) {
            for (int i = 0; i < old.size(); i++) {
                if (!old.get(i).equals(now.get(i))) {
                    causes.add(Causes.invalidShown("spec.clusterIPs[" + i + "]", shown, "may not change once set"));
                }
            }
        } else if (old.size() > now.size()) {
            if (now.isEmpty()) {
                causes.add(Causes.invalidShown("spec.clusterIPs[0]", shown, "primary clusterIP can not be unset"));
            } else if (!now.get(0).equals(old.get(0))) {
                causes.add(Causes.invalidShown("spec.clusterIPs[0]", shown, "may not change once set"));
            }
        } else if (!old.isEmpty() && !now.get(0).equals(old.get(0))) {
            causes.add(Causes.invalidShown("spec.clusterIPs[0]", shown, "may not change once set"));
        }
    }

    /** validateUpgradeDowngradeIPFamilies: the primary family never changes (headless Services excepted). */
    static void familiesUpdate(ServiceSpec before, ServiceSpec spec, List<StatusCause> causes) {
        if (EXTERNAL_NAME.equals(spec.getType()) || EXTERNAL_NAME.equals(before.getType())
                || ServiceTypes.headless(before) || ServiceTypes.headless(spec)) {
            return;
        }
        List<String> old = before.getIpFamilies() == null ? List.of() : before.getIpFamilies();
        List<String> now = spec.getIpFamilies() == null ? List.of() : spec.getIpFamilies();
        boolean changed = old.size() == now.size() ? !old.equals(now)
                : !old.isEmpty() && !now.isEmpty() && !old.get(0).equals(now.get(0));
        if (changed) {
            causes.add(Causes.invalidShown("spec.ipFamilies[0]", goStrings("core.IPFamily", now), "may not change once set"));
        }
    }

    /** Go's %#v of a string slice: {@code []string{"10.0.0.1"}}. */
    static String goStrings(String type, List<String> values) {
        List<String> quoted = new ArrayList<>();
        values.forEach(v -> quoted.add('"' + v + '"'));
        return "[]" + type + "{" + String.join(", ", quoted) + "}";
    }
}
