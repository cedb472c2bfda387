package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.networking.Ingress;
import io.eventplane.model.networking.IngressClass;
import io.eventplane.model.networking.NetworkPolicy;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** networking.k8s.io/v1 Ingress, IngressClass and NetworkPolicy (issue 26 item 4): Kubernetes' defaults and messages. */
class IngressRulesTest {
    private final Decisions decisions = new Decisions();

    /** The "minimal-ingress" of the Kubernetes docs. */
    private static final Ingress INGRESS = parse(Ingress.class, """
            apiVersion: networking.k8s.io/v1
            kind: Ingress
            metadata:
              name: minimal-ingress
              annotations:
                nginx.ingress.kubernetes.io/rewrite-target: /
            spec:
              ingressClassName: nginx-example
              rules:
              - http:
                  paths:
                  - path: /testpath
                    pathType: Prefix
                    backend:
                      service:
                        name: test
                        port:
                          number: 80
            """);
    /** The "external-lb" IngressClass of the Kubernetes docs. */
    private static final IngressClass INGRESS_CLASS = parse(IngressClass.class, """
            apiVersion: networking.k8s.io/v1
            kind: IngressClass
            metadata:
              name: external-lb
            spec:
              controller: example.com/ingress-controller
              parameters:
                apiGroup: k8s.example.com
                kind: IngressParameters
                name: external-lb
            """);
    /** The "test-network-policy" of the Kubernetes docs. */
    private static final NetworkPolicy POLICY = parse(NetworkPolicy.class, """
            apiVersion: networking.k8s.io/v1
            kind: NetworkPolicy
            metadata:
              name: test-network-policy
              namespace: default
            spec:
              podSelector:
                matchLabels:
                  role: db
              policyTypes:
              - Ingress
              - Egress
              ingress:
              - from:
                - ipBlock:
                    cidr: 172.17.0.0/16
                    except:
                    - 172.17.1.0/24
                - namespaceSelector:
                    matchLabels:
                      project: myproject
                - podSelector:
                    matchLabels:
                      role: frontend
                ports:
                - protocol: TCP
                  port: 6379
              egress:
              - to:
                - ipBlock:
                    cidr: 10.0.0.0/24
                ports:
                - protocol: TCP
                  port: 5978
            """);
    private static final String PATH = "spec.rules[0].http.paths[0]";

    static Stream<Arguments> invalidIngresses() {
        String path = "{spec: {rules: [{http: {paths: [%s]}}]}}";
        String svc = "backend: {service: {name: test, port: {number: 80}}}";
        return Stream.of(
                Arguments.of("{spec: {rules: null}}", List.of("spec: Invalid value: []networking.IngressRule(nil): either "
                        + "`defaultBackend` or `rules` must be specified")),
                Arguments.of(path.formatted("{path: /a, " + svc + "}"), List.of(PATH + ".pathType: Required value: "
                        + "pathType must be specified")),
                Arguments.of(path.formatted("{path: /a, pathType: Regex, " + svc + "}"), List.of(PATH + ".pathType: "
                        + "Unsupported value: \"Regex\": supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"")),
                Arguments.of(path.formatted("{path: a/b, pathType: Exact, " + svc + "}"), List.of(PATH + ".path: Invalid "
                        + "value: \"a/b\": must be an absolute path")),
                Arguments.of(path.formatted("{path: /a//b/.., pathType: Prefix, " + svc + "}"), List.of(
                        PATH + ".path: Invalid value: \"/a//b/..\": must not contain '//'",
                        PATH + ".path: Invalid value: \"/a//b/..\": cannot end with '/..'")),
                Arguments.of(path.formatted("{path: a, pathType: ImplementationSpecific, " + svc + "}"), List.of(
                        PATH + ".path: Invalid value: \"a\": must be an absolute path")),
                Arguments.of(path.formatted("{path: /, pathType: Prefix, backend: {}}"), List.of(PATH + ".backend: "
                        + "Invalid value: \"\": resource or service backend is required")),
                Arguments.of(path.formatted("{path: /, pathType: Prefix, backend: {service: {name: test, port: {number: "
                        + "80}}, resource: {kind: StorageBucket, name: static}}}"), List.of(PATH + ".backend: Invalid "
                        + "value: \"\": cannot set both resource and service backends")),
                Arguments.of(path.formatted("{path: /, pathType: Prefix, backend: {service: {name: 1test, port: {}}}}"),
                        List.of(PATH + ".backend.service.name: Invalid value: \"1test\": a DNS-1035 label must consist "
                                + "of lower case alphanumeric characters or '-', start with an alphabetic character, and "
                                + "end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "
                                + "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
                                PATH + ".backend: Required value: port name or number is required")),
                Arguments.of(path.formatted("{path: /, pathType: Prefix, backend: {service: {name: test, port: {name: "
                        + "http, number: 80}}}}"), List.of(PATH + ".backend: Invalid value: \"\": cannot set both port "
                        + "name & port number")),
                Arguments.of(path.formatted("{path: /, pathType: Prefix, backend: {service: {name: test, port: {number: "
                        + "70000}}}}"), List.of(PATH + ".backend.service.port.number: Invalid value: 70000: must be "
                        + "between 1 and 65535, inclusive")),
                Arguments.of(path.formatted("{path: /, pathType: Prefix, backend: {resource: {apiGroup: k8s.example.com, "
                        + "kind: a/b}}}"), List.of(PATH + ".backend.resource.kind: Invalid value: \"a/b\": may not "
                        + "contain '/'", PATH + ".backend.resource.name: Required value")),
                Arguments.of("{spec: {rules: [{host: 10.0.0.1, http: null}]}}", List.of("spec.rules[0].host: Invalid "
                        + "value: \"10.0.0.1\": must be a DNS name, not an IP address")),
                Arguments.of("{spec: {rules: [{host: \"foo.*.com\", http: null}]}}", List.of("spec.rules[0].host: "
                        + "Invalid value: \"foo.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by "
                        + "a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' "
                        + "and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is "
                        + "'\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
                Arguments.of("{spec: {rules: [{host: Foo.com, http: {paths: []}}]}}", List.of("spec.rules[0].host: "
                        + "Invalid value: \"Foo.com\": a lowercase RFC 1123 subdomain must consist of lower case "
                        + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character "
                        + "(e.g. 'example.com', regex used for validation is "
                        + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                        "spec.rules[0].http.paths: Required value")),
                Arguments.of("{spec: {tls: [{hosts: [\"*.example.com\", \"a..b\"], secretName: Bad_Secret}]}}", List.of(
                        "spec.tls[0].hosts[1]: Invalid value: \"a..b\": a lowercase RFC 1123 subdomain must consist of "
                                + "lower case alphanumeric characters, '-' or '.', and must start and end with an "
                                + "alphanumeric character (e.g. 'example.com', regex used for validation is "
                                + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
                        "spec.tls[0].secretName: Invalid value: \"Bad_Secret\": a lowercase RFC 1123 subdomain must "
                                + "consist of lower case alphanumeric characters, '-' or '.', and must start and end with "
                                + "an alphanumeric character (e.g. 'example.com', regex used for validation is "
                                + "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')")),
                Arguments.of("{metadata: {annotations: {kubernetes.io/ingress.class: nginx}}}", List.of(
                        "annotations.kubernetes.io/ingress.class: Invalid value: \"nginx\": must match `ingressClassName` "
                                + "when both are specified")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidIngresses")
    @DisplayName("Ingress validation: paths and pathType, service or resource backends, hosts and wildcards, TLS, the "
            + "class annotation, with Kubernetes' messages")
    void ingressValidation(String patch, List<String> messages) {
        Decision d = decisions.create(merge(INGRESS, patch));
        assertEquals(messages, rejected(d));
        // Kubernetes names a kind of a group with its group in the message (the Status details carry Kind alone)
        assertEquals("Ingress.networking.k8s.io \"minimal-ingress\" is invalid: " + (messages.size() == 1
                ? messages.get(0) : "[" + String.join(", ", messages) + "]"), d.outcome().getMessage());
    }

    @Test
    @DisplayName("an Ingress is created with an empty status (loadBalancer: {}), a wildcard host, a default backend alone; "
            + "only the status subresource writes status, and load-balancer hostnames are DNS names")
    void ingressCreatedAndStatus() {
        Ingress created = decisions.created(merge(INGRESS, "{spec: {rules: [{host: \"*.foo.com\", http: {paths: [{path: "
                + "/, pathType: Exact, backend: {resource: {apiGroup: k8s.example.com, kind: StorageBucket, name: "
                + "static-assets}}}]}}]}}"));
        assertEquals("{\"loadBalancer\":{}}", Decisions.json(created).get("status").toString());
        decisions.created(merge(INGRESS, "{spec: {rules: null, defaultBackend: {service: {name: web, port: {name: "
                + "http}}}}}"));
        ObjectChanged stored = decisions.createdChange(INGRESS);
        Ingress withStatus = merge((Ingress) stored.getObject(), "{status: {loadBalancer: {ingress: [{hostname: "
                + "10.0.0.1}, {ip: not-an-ip}]}}}");
        assertEquals(List.of("status.loadBalancer.ingress[0].hostname: Invalid value: \"10.0.0.1\": must be a DNS name, "
                        + "not an IP address", "status.loadBalancer.ingress[1].ip: Invalid value: \"not-an-ip\": must be a "
                        + "valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)"),
                rejected(decisions.updateStatus(stored, withStatus)));
        Ingress updated = decisions.updated(stored, merge(withStatus, "{metadata: {labels: {tier: web}}}"));
        assertEquals("{\"loadBalancer\":{}}", Decisions.json(updated).get("status").toString(),
                "an update keeps the stored status");
    }

    static Stream<Arguments> invalidIngressClasses() {
        return Stream.of(
                Arguments.of("{spec: {controller: null}}", List.of("spec.controller: Required value")),
                Arguments.of("{spec: {controller: ingress-controller}}", List.of("spec.controller: Invalid value: "
                        + "\"ingress-controller\": must be a domain-prefixed path (such as \"acme.io/foo\")")),
                Arguments.of("{spec: {controller: \"example.com/a b\"}}", List.of("spec.controller: Invalid value: "
                        + "\"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')")),
                Arguments.of("{spec: {controller: \"example.com/" + "x".repeat(240) + "\"}}", List.of(
                        "spec.controller: Too long: may not be more than 250 bytes")),
                Arguments.of("{spec: {parameters: {kind: null, name: ..}}}", List.of("spec.parameters.kind: Required "
                        + "value", "spec.parameters.name: Invalid value: \"..\": may not be '..'")),
                Arguments.of("{spec: {parameters: {scope: Global}}}", List.of("spec.parameters.scope: Unsupported value: "
                        + "\"Global\": supported values: \"Cluster\", \"Namespace\"")),
                Arguments.of("{spec: {parameters: {scope: Namespace}}}", List.of("spec.parameters.namespace: Required "
                        + "value: `parameters.scope` is set to 'Namespace'")),
                Arguments.of("{spec: {parameters: {scope: Cluster, namespace: default}}}", List.of(
                        "spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidIngressClasses")
    @DisplayName("IngressClass validation: the controller, parameters and their scope, with Kubernetes' messages")
    void ingressClassValidation(String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(INGRESS_CLASS, patch))));
    }

    @Test
    @DisplayName("IngressClass parameters default to the Cluster scope; the controller is immutable")
    void ingressClassDefaultsAndImmutableController() {
        IngressClass created = decisions.created(INGRESS_CLASS);
        assertEquals("Cluster", created.getSpec().getParameters().getScope());
        ObjectChanged stored = decisions.createdChange(INGRESS_CLASS);
        assertEquals(List.of("spec.controller: Invalid value: \"example.com/other\": field is immutable"),
                rejected(decisions.update(stored, merge((IngressClass) stored.getObject(),
                        "{spec: {controller: example.com/other}}"))));
    }

    static Stream<Arguments> invalidPolicies() {
        String from = "{spec: {ingress: [{from: [%s]}]}}";
        String ports = "{spec: {ingress: [{ports: [%s]}]}}";
        return Stream.of(
                Arguments.of(from.formatted("{}"), List.of("spec.ingress[0].from[0]: Required value: must specify a peer")),
                Arguments.of(from.formatted("{ipBlock: {cidr: 10.0.0.0/8}, podSelector: {}}"), List.of(
                        "spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer")),
                Arguments.of(from.formatted("{ipBlock: {cidr: \"\"}}"), List.of("spec.ingress[0].from[0].ipBlock.cidr: "
                        + "Required value")),
                Arguments.of(from.formatted("{ipBlock: {cidr: 10.0.0.0/33}}"), List.of("spec.ingress[0].from[0].ipBlock."
                        + "cidr: Invalid value: \"10.0.0.0/33\": must be a valid CIDR value, (e.g. 10.9.8.0/24 or "
                        + "2001:db8::/64)")),
                Arguments.of(from.formatted("{ipBlock: {cidr: 10.0.0.0/16, except: [10.1.0.0/24, 10.0.0.0/16, "
                        + "10.0.0.0/8, \"2001:db8::/64\", bad]}}"), List.of(
                        "spec.ingress[0].from[0].ipBlock.except[0]: Invalid value: \"10.1.0.0/24\": must be a strict "
                                + "subset of `cidr`",
                        "spec.ingress[0].from[0].ipBlock.except[1]: Invalid value: \"10.0.0.0/16\": must be a strict "
                                + "subset of `cidr`",
                        "spec.ingress[0].from[0].ipBlock.except[2]: Invalid value: \"10.0.0.0/8\": must be a strict "
                                + "subset of `cidr`",
                        "spec.ingress[0].from[0].ipBlock.except[3]: Invalid value: \"2001:db8::/64\": must be a strict "
                                + "subset of `cidr`",
                        "spec.ingress[0].from[0].ipBlock.except[4]: Invalid value: \"bad\": must be a valid CIDR value, "
                                + "(e.g. 10.9.8.0/24 or 2001:db8::/64)")),
                Arguments.of(from.formatted("{podSelector: {matchExpressions: [{key: role, operator: Is}]}}"), List.of(
                        "spec.ingress[0].from[0].podSelector.matchExpressions[0].operator: Invalid value: \"Is\": not a "
                                + "valid selector operator")),
                Arguments.of(ports.formatted("{protocol: ICMP, port: 0}"), List.of(
                        "spec.ingress[0].ports[0].protocol: Unsupported value: \"ICMP\": supported values: \"TCP\", "
                                + "\"UDP\", \"SCTP\"",
                        "spec.ingress[0].ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive")),
                Arguments.of(ports.formatted("{port: 32000, endPort: 31000}"), List.of("spec.ingress[0].ports[0].endPort: "
                        + "Invalid value: 31000: must be greater than or equal to `port`")),
                Arguments.of(ports.formatted("{port: http, endPort: 31000}"), List.of("spec.ingress[0].ports[0].endPort: "
                        + "Invalid value: 31000: may not be specified when `port` is non-numeric")),
                Arguments.of(ports.formatted("{endPort: 31000}"), List.of("spec.ingress[0].ports[0].endPort: Invalid "
                        + "value: 31000: may not be specified when `port` is not specified")),
                Arguments.of(ports.formatted("{port: web--x}"), List.of("spec.ingress[0].ports[0].port: Invalid value: "
                        + "\"web--x\": must not contain consecutive hyphens")),
                Arguments.of("{spec: {policyTypes: [Ingress, Egress, Ingress]}}", List.of("spec.policyTypes: Invalid "
                        + "value: []networking.PolicyType{\"Ingress\", \"Egress\", \"Ingress\"}: may not specify more "
                        + "than two policyTypes")),
                Arguments.of("{spec: {policyTypes: [Inbound]}}", List.of("spec.policyTypes[0]: Unsupported value: "
                        + "\"Inbound\": supported values: \"Ingress\", \"Egress\"")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidPolicies")
    @DisplayName("NetworkPolicy validation: peers, ipBlock CIDR and except, ports and endPort, policyTypes, with "
            + "Kubernetes' messages")
    void networkPolicyValidation(String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(POLICY, patch))));
    }

    @Test
    @DisplayName("NetworkPolicy defaults: policyTypes Ingress, plus Egress with egress rules; ports TCP; an absent "
            + "podSelector is the empty one")
    void networkPolicyDefaults() {
        NetworkPolicy ingressOnly = decisions.created(merge(POLICY, "{spec: {policyTypes: null, egress: null, ingress: "
                + "[{ports: [{port: 6379}]}]}}"));
        assertEquals(List.of("Ingress"), ingressOnly.getSpec().getPolicyTypes());
        assertEquals("TCP", ingressOnly.getSpec().getIngress().get(0).getPorts().get(0).getProtocol());
        NetworkPolicy both = decisions.created(merge(POLICY, "{spec: {policyTypes: null}}"));
        assertEquals(List.of("Ingress", "Egress"), both.getSpec().getPolicyTypes());
        NetworkPolicy denyAll = decisions.created(parse(NetworkPolicy.class, """
                apiVersion: networking.k8s.io/v1
                kind: NetworkPolicy
                metadata: {name: default-deny-egress, namespace: default}
                spec:
                  policyTypes: [Egress]
                """));
        assertEquals("{\"podSelector\":{},\"policyTypes\":[\"Egress\"]}", Decisions.json(denyAll).get("spec").toString());
        assertEquals(List.of("Egress"), denyAll.getSpec().getPolicyTypes());
    }
}
