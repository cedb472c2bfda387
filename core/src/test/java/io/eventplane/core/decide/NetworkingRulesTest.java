package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.allocation.NodePortAllocation;
import io.eventplane.model.networking.IPAddress;
import io.eventplane.model.networking.ServiceCIDR;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The allocation objects: IPAddress and ServiceCIDR (networking.k8s.io/v1), NodePortAllocation (issue 16). */
class NetworkingRulesTest {
    private final Decisions decisions = new Decisions();

    private static final IPAddress IP = parse(IPAddress.class, """
            apiVersion: networking.k8s.io/v1
            kind: IPAddress
            metadata: {name: 10.96.0.10}
            spec: {parentRef: {group: "", resource: services, namespace: default, name: web}}
            """);
    private static final ServiceCIDR CIDR = parse(ServiceCIDR.class, """
            apiVersion: networking.k8s.io/v1
            kind: ServiceCIDR
            metadata: {name: kubernetes}
            spec: {cidrs: [10.96.0.0/12]}
            """);

    static Stream<Arguments> invalidIpAddresses() {
        return Stream.of(
                Arguments.of("{metadata: {name: web}}", List.of("metadata.name: Invalid value: \"web\": must be a valid "
                        + "IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")),
                Arguments.of("{metadata: {name: 10.96.0.010}}", List.of("metadata.name: Invalid value: \"10.96.0.010\": "
                        + "must be in canonical form (\"10.96.0.10\")")),
                Arguments.of("{metadata: {name: \"2001:db8:0:0:0::1\"}}", List.of("metadata.name: Invalid value: "
                        + "\"2001:db8:0:0:0::1\": must be in canonical form (\"2001:db8::1\")")),
                Arguments.of("{spec: null}", List.of("spec.parentRef: Required value")),
                Arguments.of("{spec: {parentRef: {resource: null, name: a/b}}}", List.of(
                        "spec.parentRef.resource: Required value",
                        "spec.parentRef.name: Invalid value: \"a/b\": may not contain '/'")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidIpAddresses")
    @DisplayName("an IPAddress is named by a canonical IP and has a parent reference")
    void ipAddressValidation(String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(IP, patch))));
    }

    @Test
    @DisplayName("the IPAddress name is the lock: a second creation of one IP is refused, its parent never changes")
    void ipAddressIsALock() {
        ObjectChanged first = decisions.createdChange(IP);
        Decision second = new ObjectDecider(RulesRegistry.standard()).decide(
                io.eventplane.log.Command.newBuilder(decisionCommand()).build(), first, 2000);
        assertEquals("AlreadyExists", second.outcome().getReason());
        assertEquals("ipaddresses.networking.k8s.io \"10.96.0.10\" already exists", second.outcome().getMessage());
        assertEquals(List.of("spec.parentRef: Invalid value: &networking.ParentReference{Group:\"\", Resource:\"services\", "
                        + "Namespace:\"default\", Name:\"other\"}: field is immutable"),
                rejected(decisions.update(first, merge((IPAddress) first.getObject(),
                        "{spec: {parentRef: {name: other}}}"))));
        assertTrue(decisions.created(merge(IP, "{metadata: {name: \"2001:db8::a\"}}")).getSpec() != null);
    }

    private static io.eventplane.log.Command decisionCommand() {
        return io.eventplane.log.Command.newBuilder()
                .setEnvelope(io.eventplane.log.Envelope.newBuilder().setActor("t").setRequestId("r2")
                        .setTime(Decisions.T0).build())
                .setVerb(io.eventplane.log.Verb.CREATE).setKind("IPAddress").setNamespace("").setName("10.96.0.10")
                .setPreconditions(new io.eventplane.log.Preconditions()).setObject(IP).build();
    }

    static Stream<Arguments> invalidServiceCidrs() {
        return Stream.of(
                Arguments.of("{spec: {cidrs: []}}", List.of("spec.cidrs: Required value: at least one CIDR required")),
                Arguments.of("{spec: {cidrs: [10.96.0.0/33]}}", List.of("spec.cidrs[0]: Invalid value: \"10.96.0.0/33\": "
                        + "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)")),
                Arguments.of("{spec: {cidrs: [10.96.0.0/12, 10.100.0.0/16]}}", List.of("spec.cidrs: Invalid value: "
                        + "[]string{\"10.96.0.0/12\", \"10.100.0.0/16\"}: may specify no more than one IP for each IP "
                        + "family, i.e 192.168.0.0/24 and 2001:db8::/64")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidServiceCidrs")
    @DisplayName("a ServiceCIDR holds one or two CIDRs, one per family")
    void serviceCidrValidation(String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(CIDR, patch))));
    }

    @Test
    @DisplayName("a ServiceCIDR's CIDRs are immutable but for adding the other family")
    void serviceCidrUpdates() {
        ObjectChanged created = decisions.createdChange(CIDR);
        ServiceCIDR stored = (ServiceCIDR) created.getObject();
        assertEquals(List.of("spec.cidrs[0]: Invalid value: \"10.0.0.0/16\": field is immutable"),
                rejected(decisions.update(created, merge(stored, "{spec: {cidrs: [10.0.0.0/16]}}"))));
        assertEquals(List.of("fd00::/108"), decisions.updated(created, merge(stored,
                "{spec: {cidrs: [10.96.0.0/12, \"fd00::/108\"]}}")).getSpec().getCidrs().subList(1, 2));
    }

    @Test
    @DisplayName("a NodePortAllocation is named by a port number and has a parent reference")
    void nodePortAllocation() {
        NodePortAllocation port = parse(NodePortAllocation.class, """
                metadata: {name: "30080"}
                spec: {parentRef: {resource: services, namespace: default, name: web}}
                """);
        assertEquals("30080", decisions.created(port).getMetadata().getName());
        assertEquals(List.of("metadata.name: Invalid value: \"http\": must be between 1 and 65535, inclusive"),
                rejected(decisions.create(merge(port, "{metadata: {name: http}}"))));
    }
}
