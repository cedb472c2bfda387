package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Endpoints;
import io.eventplane.model.Service;
import io.eventplane.model.discovery.EndpointSlice;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Service, Endpoints and EndpointSlice defaulting and validation, with Kubernetes' messages (issue 16). */
class ServiceRulesTest {
    private final Decisions decisions = new Decisions();

    private static final Service WEB = parse(Service.class, """
            apiVersion: v1
            kind: Service
            metadata: {name: web}
            spec:
              selector: {app: web}
              ports: [{port: 80}]
            """);

    @Test
    @DisplayName("a Service defaults to ClusterIP, sessionAffinity None, TCP, targetPort = port, single-stack IPv4")
    void clusterIpDefaults() {
        Service s = decisions.created(WEB);
        assertEquals(yaml("""
                ports: [{protocol: TCP, port: 80, targetPort: 80}]
                selector: {app: web}
                type: ClusterIP
                sessionAffinity: None
                ipFamilies: [IPv4]
                ipFamilyPolicy: SingleStack
                internalTrafficPolicy: Cluster
                """), json(s.getSpec()));
        assertEquals(yaml("{}"), json(s.getStatus()));
    }

    @Test
    @DisplayName("NodePort and LoadBalancer default externalTrafficPolicy; LoadBalancer allocates node ports; ClientIP 3 h")
    void externalDefaults() {
        Service lb = decisions.created(merge(WEB, "{spec: {type: LoadBalancer, sessionAffinity: ClientIP}}"));
        assertEquals("Cluster", lb.getSpec().getExternalTrafficPolicy());
        assertEquals(true, lb.getSpec().getAllocateLoadBalancerNodePorts());
        assertEquals(10800, lb.getSpec().getSessionAffinityConfig().getClientIP().getTimeoutSeconds());
        Service headless = decisions.created(merge(WEB, "{metadata: {name: headless}, spec: {clusterIP: None}}"));
        assertEquals(List.of("None"), headless.getSpec().getClusterIPs());
        Service external = decisions.created(parse(Service.class, """
                apiVersion: v1
                kind: Service
                metadata: {name: db}
                spec: {type: ExternalName, externalName: db.example.com.}
                """));
        assertNull(external.getSpec().getIpFamilies());
        assertNull(external.getSpec().getInternalTrafficPolicy());
    }

    static Stream<Arguments> invalidServices() {
        return Stream.of(
                Arguments.of("a port out of range", "{spec: {ports: [{port: 70000}]}}",
                        List.of("spec.ports[0].port: Invalid value: 70000: must be between 1 and 65535, inclusive",
                                // targetPort defaults to port, then is checked as well (as in Kubernetes)
                                "spec.ports[0].targetPort: Invalid value: 70000: must be between 1 and 65535, inclusive")),
                Arguments.of("a nodePort outside 30000-32767", "{spec: {type: NodePort, ports: [{port: 80, nodePort: 40000}]}}",
                        List.of("spec.ports[0].nodePort: Invalid value: 40000: provided port is not in the valid range. "
                                + "The range of valid ports is 30000-32767")),
                Arguments.of("a nodePort on a ClusterIP Service", "{spec: {ports: [{port: 80, nodePort: 30080}]}}",
                        List.of("spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'")),
                Arguments.of("an unknown protocol", "{spec: {ports: [{port: 80, protocol: HTTP}]}}",
                        List.of("spec.ports[0].protocol: Unsupported value: \"HTTP\": supported values: \"SCTP\", \"TCP\", \"UDP\"")),
                Arguments.of("an unknown type", "{spec: {type: Ingress}}",
                        List.of("spec.type: Unsupported value: \"Ingress\": supported values: \"ClusterIP\", "
                                + "\"ExternalName\", \"LoadBalancer\", \"NodePort\"")),
                Arguments.of("two ports without names", "{spec: {ports: [{port: 80}, {port: 443}]}}",
                        List.of("spec.ports[0].name: Required value", "spec.ports[1].name: Required value")),
                Arguments.of("the same port twice", "{spec: {ports: [{name: a, port: 80}, {name: b, port: 80}]}}",
                        List.of("spec.ports[1]: Duplicate value: core.ServicePort{Name:\"\", Protocol:\"TCP\", "
                                + "AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, "
                                + "StrVal:\"\"}, NodePort:0}")),
                Arguments.of("a targetPort name that is not an IANA name", "{spec: {ports: [{port: 80, targetPort: web_http}]}}",
                        List.of("spec.ports[0].targetPort: Invalid value: \"web_http\": must contain only alpha-numeric "
                                + "characters (a-z, 0-9), and hyphens (-)")),
                Arguments.of("no ports on a ClusterIP Service", "{spec: {ports: null}}", List.of("spec.ports: Required value")),
                Arguments.of("a name that is not a DNS-1035 label", "{metadata: {name: 1web}}",
                        List.of("metadata.name: Invalid value: \"1web\": a DNS-1035 label must consist of lower case "
                                + "alphanumeric characters or '-', start with an alphabetic character, and end with an "
                                + "alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
                                + "'[a-z]([-a-z0-9]*[a-z0-9])?')")),
                Arguments.of("an ExternalName Service without a name", "{spec: {type: ExternalName, ports: null}}",
                        List.of("spec.externalName: Required value")),
                Arguments.of("a clusterIP that is not an IP", "{spec: {clusterIP: 10.96.0.300}}",
                        List.of("spec.clusterIPs[0]: Invalid value: \"10.96.0.300\": must be a valid IP address, "
                                + "(e.g. 10.9.8.7 or 2001:db8::ffff)")),
                Arguments.of("a loopback external IP", "{spec: {externalIPs: [127.0.0.1]}}",
                        List.of("spec.externalIPs[0]: Invalid value: \"127.0.0.1\": may not be in the loopback range "
                                + "(127.0.0.0/8, ::1/128)")),
                Arguments.of("source ranges on a ClusterIP Service", "{spec: {loadBalancerSourceRanges: [10.0.0.0/33]}}",
                        List.of("spec.LoadBalancerSourceRanges: Forbidden: may only be used when `type` is 'LoadBalancer'",
                                "spec.LoadBalancerSourceRanges[0]: Invalid value: \"10.0.0.0/33\": must be a valid CIDR "
                                        + "value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")),
                Arguments.of("an affinity timeout over a day",
                        "{spec: {sessionAffinity: ClientIP, sessionAffinityConfig: {clientIP: {timeoutSeconds: 90000}}}}",
                        List.of("spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: 90000: must be "
                                + "greater than 0 and less than 86400")),
                Arguments.of("an unknown trafficDistribution", "{spec: {trafficDistribution: Anywhere}}",
                        List.of("spec.trafficDistribution: Unsupported value: \"Anywhere\": supported values: \"PreferClose\"")),
                Arguments.of("externalTrafficPolicy on an internal Service", "{spec: {externalTrafficPolicy: Local}}",
                        List.of("spec.externalTrafficPolicy: Invalid value: \"Local\": may only be set for "
                                + "externally-accessible services")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidServices")
    void invalidService(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(WEB, patch))));
    }

    @Test
    @DisplayName("a cluster IP never changes; an update that leaves it out keeps it; a type change drops node ports")
    void updates() {
        ObjectChanged stored = decisions.createdChange(merge(WEB, "{spec: {type: NodePort, clusterIP: 10.96.0.10, "
                + "ports: [{port: 80, nodePort: 30080}]}}"));
        Service svc = (Service) stored.getObject();
        assertEquals(List.of("spec.clusterIPs[0]: Invalid value: []string{\"10.96.0.11\"}: may not change once set"),
                rejected(decisions.update(stored, merge(svc, "{spec: {clusterIP: 10.96.0.11}}"))));
        Service kept = decisions.updated(stored, merge(svc, "{metadata: {labels: {v: \"2\"}}, spec: {clusterIP: null, "
                + "clusterIPs: null, ports: [{port: 80}]}}"));
        assertEquals(List.of("10.96.0.10"), kept.getSpec().getClusterIPs());
        assertEquals(30080, kept.getSpec().getPorts().get(0).getNodePort());
        Service internal = decisions.updated(stored, merge(svc, "{spec: {type: ClusterIP}}"));
        assertNull(internal.getSpec().getPorts().get(0).getNodePort());
        assertNull(internal.getSpec().getExternalTrafficPolicy());
    }

    @Test
    @DisplayName("status goes through the status subresource; load balancer ingress only for LoadBalancer Services")
    void status() {
        ObjectChanged stored = decisions.createdChange(WEB);
        Service svc = (Service) stored.getObject();
        Service withIngress = merge(svc, "{status: {loadBalancer: {ingress: [{ip: 203.0.113.7}]}}}");
        assertEquals(List.of("status.loadBalancer.ingress: Forbidden: may only be used when `spec.type` is 'LoadBalancer'"),
                rejected(decisions.updateStatus(stored, withIngress)));
        Service ignored = decisions.updated(stored, merge(withIngress, "{metadata: {labels: {a: b}}}"));
        assertEquals(yaml("{}"), json(ignored.getStatus())); // an update of the object keeps the stored status
    }

    @Test
    @DisplayName("Endpoints: ports default to TCP; every subset has an address; addresses are routable IPs")
    void endpoints() {
        Endpoints ep = parse(Endpoints.class, """
                apiVersion: v1
                kind: Endpoints
                metadata: {name: web}
                subsets: [{addresses: [{ip: 10.244.1.5}], ports: [{port: 8080}]}]
                """);
        assertEquals("TCP", decisions.created(ep).getSubsets().get(0).getPorts().get(0).getProtocol());
        assertEquals(List.of("subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`"),
                rejected(decisions.create(merge(ep, "{subsets: [{ports: [{port: 8080}]}]}"))));
        assertEquals(List.of("subsets[0].addresses[0].ip: Invalid value: \"10.244.1\": must be a valid IP address, "
                        + "(e.g. 10.9.8.7 or 2001:db8::ffff)",
                        "subsets[0].addresses[0].ip: Invalid value: \"10.244.1\": must be a valid IP address"),
                rejected(decisions.create(merge(ep, "{subsets: [{addresses: [{ip: 10.244.1}]}]}"))));
        assertEquals(List.of("subsets[0].addresses[0].ip: Invalid value: \"169.254.1.1\": may not be in the link-local "
                        + "range (169.254.0.0/16, fe80::/10)"),
                rejected(decisions.create(merge(ep, "{subsets: [{addresses: [{ip: 169.254.1.1}]}]}"))));
    }

    @Test
    @DisplayName("EndpointSlice: ports default to TCP and \"\"; addresses of the slice's type; addressType is immutable")
    void endpointSlices() {
        EndpointSlice slice = parse(EndpointSlice.class, """
                apiVersion: discovery.k8s.io/v1
                kind: EndpointSlice
                metadata: {name: web-abc}
                addressType: IPv4
                endpoints: [{addresses: [10.1.2.3], conditions: {ready: true}}]
                ports: [{port: 80}]
                """);
        ObjectChanged stored = decisions.createdChange(slice);
        assertEquals(yaml("[{name: '', protocol: TCP, port: 80}]"), json((EndpointSlice) stored.getObject()).path("ports"));
        assertEquals(List.of("addressType: Invalid value: \"IPv6\": field is immutable",
                        "endpoints[0].addresses[0]: Invalid value: \"10.1.2.3\": must be a valid IPv6 address"),
                rejected(decisions.update(stored, merge((EndpointSlice) stored.getObject(), "{addressType: IPv6}"))));
        assertEquals(List.of("addressType: Unsupported value: \"IP\": supported values: \"FQDN\", \"IPv4\", \"IPv6\""),
                rejected(decisions.create(merge(slice, "{metadata: {name: other}, addressType: IP}"))));
        assertEquals(List.of("endpoints[0].addresses: Required value: must contain at least 1 address"),
                rejected(decisions.create(merge(slice, "{metadata: {name: other}, endpoints: [{conditions: {}}]}"))));
    }
}
