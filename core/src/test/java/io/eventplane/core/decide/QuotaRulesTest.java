package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.parse;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.LimitRange;
import io.eventplane.model.PriorityClass;
import io.eventplane.model.ResourceQuota;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PriorityClass, ResourceQuota and LimitRange defaulting and validation (issue 16). */
class QuotaRulesTest {
    private final Decisions decisions = new Decisions();

    private static final PriorityClass HIGH = parse(PriorityClass.class, """
            apiVersion: scheduling.k8s.io/v1
            kind: PriorityClass
            metadata: {name: high}
            value: 1000000
            description: for the important pods
            """);
    private static final ResourceQuota QUOTA = parse(ResourceQuota.class, """
            apiVersion: v1
            kind: ResourceQuota
            metadata: {name: compute}
            spec: {hard: {requests.cpu: "1", pods: "10"}}
            status: {hard: {pods: "99"}}
            """);
    private static final LimitRange LIMITS = parse(LimitRange.class, """
            apiVersion: v1
            kind: LimitRange
            metadata: {name: limits}
            spec:
              limits:
              - type: Container
                max: {cpu: "2", memory: 1Gi}
                min: {cpu: 100m}
                default: {memory: 512Mi}
            """);

    @Test
    @DisplayName("a PriorityClass preempts lower priorities by default; value and preemptionPolicy never change")
    void priorityClasses() {
        ObjectChanged stored = decisions.createdChange(HIGH);
        PriorityClass pc = (PriorityClass) stored.getObject();
        assertEquals("PreemptLowerPriority", pc.getPreemptionPolicy());
        assertEquals(List.of("value: Forbidden: may not be changed in an update.",
                        "preemptionPolicy: Invalid value: \"Never\": field is immutable"),
                rejected(decisions.update(stored, merge(pc, "{value: 5, preemptionPolicy: Never}"))));
        assertEquals("now", decisions.updated(stored, merge(pc, "{description: now}")).getDescription());
        assertEquals(0, decisions.created(merge(HIGH, "{metadata: {name: zero}, value: null}")).getValue());
    }

    static Stream<Arguments> invalidPriorityClasses() {
        return Stream.of(
                Arguments.of("a user class above one billion", "{value: 1000000001}",
                        List.of("value: Forbidden: maximum allowed value of a user defined priority is 1000000000")),
                Arguments.of("an unknown system- class", "{metadata: {name: system-mine}}",
                        List.of("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for "
                                + "system use only. error: system-mine is not a known system priority class")),
                Arguments.of("a system class with another value", "{metadata: {name: system-node-critical}}",
                        List.of("metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for "
                                + "system use only. error: value of system-node-critical PriorityClass must be 2000001000")),
                Arguments.of("an unknown preemption policy", "{preemptionPolicy: Always}",
                        List.of("preemptionPolicy: Unsupported value: \"Always\": supported values: "
                                + "\"PreemptLowerPriority\", \"Never\"")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidPriorityClasses")
    void invalidPriorityClass(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(HIGH, patch))));
    }

    @Test
    @DisplayName("a ResourceQuota's status is the controller's (reset on create); its scopes never change")
    void resourceQuotas() {
        ObjectChanged stored = decisions.createdChange(merge(QUOTA, "{spec: {scopes: [NotTerminating]}}"));
        ResourceQuota quota = (ResourceQuota) stored.getObject();
        assertEquals(yaml("{}"), json(quota.getStatus()));
        assertEquals(List.of("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"Terminating\"}: field is immutable"),
                rejected(decisions.update(stored, merge(quota, "{spec: {scopes: [Terminating]}}"))));
        ResourceQuota counted = decisions.updated(stored, merge(quota, "{spec: {hard: {pods: \"20\"}}}"));
        assertEquals("20", counted.getSpec().getHard().get("pods"));
    }

    static Stream<Arguments> invalidQuotas() {
        return Stream.of(
                Arguments.of("a resource that is not a quota resource", "{spec: {hard: {foo: \"1\"}}}",
                        List.of("spec.hard[foo]: Invalid value: \"foo\": must be a standard resource type or fully qualified",
                                "spec.hard[foo]: Invalid value: \"foo\": must be a standard resource for quota")),
                Arguments.of("a standard resource that cannot be quota'd", "{spec: {hard: {storage: 1Gi}}}",
                        List.of("spec.hard[storage]: Invalid value: \"storage\": must be a standard resource for quota")),
                Arguments.of("a negative quantity", "{spec: {hard: {requests.cpu: \"-1\"}}}",
                        List.of("spec.hard[requests.cpu]: Invalid value: \"-1\": must be greater than or equal to 0")),
                Arguments.of("a fraction of a counted resource", "{spec: {hard: {pods: 1500m}}}",
                        List.of("spec.hard[pods]: Invalid value: \"1500m\": must be an integer")),
                Arguments.of("conflicting scopes", "{spec: {scopes: [BestEffort, NotBestEffort], hard: {requests.cpu: null}}}",
                        List.of("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"BestEffort\", \"NotBestEffort\"}: "
                                + "conflicting scopes")),
                Arguments.of("a scope that does not suit the resource", "{spec: {scopes: [BestEffort]}}",
                        List.of("spec.scopes: Invalid value: []core.ResourceQuotaScope{\"BestEffort\"}: unsupported scope "
                                + "applied to resource")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidQuotas")
    void invalidQuota(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(QUOTA, patch))));
    }

    @Test
    @DisplayName("a Container limit defaults its limit from max and its request from the limit, else from min")
    void limitRangeDefaults() {
        LimitRange lr = decisions.created(LIMITS);
        assertEquals(yaml("""
                type: Container
                max: {cpu: "2", memory: 1Gi}
                min: {cpu: 100m}
                default: {memory: 512Mi, cpu: "2"}
                defaultRequest: {memory: 512Mi, cpu: "2"}
                """), json(lr.getSpec().getLimits().get(0)));
    }

    static Stream<Arguments> invalidLimitRanges() {
        return Stream.of(
                Arguments.of("min above max", "{spec: {limits: [{type: Container, max: {cpu: 100m}, min: {cpu: \"1\"}}]}}",
                        List.of("spec.limits[0].min[cpu]: Invalid value: \"1\": min value 1 is greater than max value 100m",
                                "spec.limits[0].defaultRequest[cpu]: Invalid value: \"100m\": min value 1 is greater than "
                                        + "default request value 100m",
                                "spec.limits[0].default[cpu]: Invalid value: \"1\": min value 1 is greater than default value 100m")),
                Arguments.of("a default on a Pod limit", "{spec: {limits: [{type: Pod, max: {cpu: \"1\"}, default: {cpu: \"1\"}}]}}",
                        List.of("spec.limits[0].default: Forbidden: may not be specified when `type` is 'Pod'")),
                Arguments.of("the same type twice", "{spec: {limits: [{type: Pod, max: {cpu: \"1\"}}, {type: Pod, max: {cpu: \"2\"}}]}}",
                        List.of("spec.limits[1].type: Duplicate value: \"Pod\"")),
                Arguments.of("a claim limit without storage", "{spec: {limits: [{type: PersistentVolumeClaim, max: {cpu: \"1\"}}]}}",
                        List.of("spec.limits[0].limits: Required value: either minimum or maximum storage value is "
                                + "required, but neither was provided")),
                Arguments.of("a ratio below one", "{spec: {limits: [{type: Container, maxLimitRequestRatio: {cpu: 500m}}]}}",
                        List.of("spec.limits[0].maxLimitRequestRatio[cpu]: Invalid value: \"500m\": ratio 500m is less than 1")),
                Arguments.of("an unknown limit type", "{spec: {limits: [{type: Node}]}}",
                        List.of("spec.limits[0].type: Invalid value: \"Node\": must be a standard limit type or fully qualified")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidLimitRanges")
    void invalidLimitRange(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(LIMITS, patch))));
    }
}
