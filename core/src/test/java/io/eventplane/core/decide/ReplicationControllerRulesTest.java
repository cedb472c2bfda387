package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.example;
import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.ReplicationController;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ReplicationController (workloads.md §9) and PodDisruptionBudget defaulting and validation. */
class ReplicationControllerRulesTest {
    private final Decisions decisions = new Decisions();
    private static final ReplicationController NGINX = example(ReplicationController.class, "replicationcontroller-nginx.yaml");

    @Test
    @DisplayName("RC-03 RC-04 RC-06 AC-RC-03 without selector and labels both default to the template's labels; replicas to 1")
    void replicationControllerDefaults() {
        ReplicationController rc = decisions.created(merge(NGINX, "{spec: {selector: null, replicas: null}}"));
        assertEquals(Map.of("app", "nginx"), rc.getSpec().getSelector());
        assertEquals(Map.of("app", "nginx"), rc.getMetadata().getLabels());
        assertEquals(1, rc.getSpec().getReplicas());
        assertEquals(yaml("{replicas: 0}"), json(rc.getStatus()));
        ReplicationController labelled = decisions.created(merge(NGINX, "{metadata: {name: labelled, labels: {team: web}}}"));
        assertEquals(Map.of("team", "web"), labelled.getMetadata().getLabels()); // RC-03: may differ from the template
    }

    static Stream<Arguments> invalidControllers() {
        return Stream.of(
                Arguments.of("RC-04 AC-RC-04 D15 a selector the template labels do not contain",
                        "{spec: {selector: {app: nginx, track: canary}}}",
                        List.of("spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"nginx\"}: "
                                + "`selector` does not match template `labels`")),
                Arguments.of("RC-02 a ReplicationController without a template", "{spec: {template: null}}",
                        List.of("spec.template: Required value")),
                Arguments.of("RC-02 POD-2.11 template restartPolicy Never", "{spec: {template: {spec: {restartPolicy: Never}}}}",
                        List.of("spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"")),
                Arguments.of("RC-06 negative replicas", "{spec: {replicas: -1}}",
                        List.of("spec.replicas: Invalid value: -1: must be greater than or equal to 0")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidControllers")
    void invalidController(String name, String patch, List<String> messages) {
        assertEquals(messages, rejected(decisions.create(merge(NGINX, patch))));
    }

    @Test
    @DisplayName("D15 template labels that contain the selector are accepted (Kubernetes' subset rule)")
    void templateLabelsMayBeASuperset() {
        ReplicationController rc = decisions.created(merge(NGINX, "{spec: {template: {metadata: {labels: {tier: web}}}}}"));
        assertEquals(Map.of("app", "nginx"), rc.getSpec().getSelector());
    }

    private static final PodDisruptionBudget ZK = Decisions.parse(PodDisruptionBudget.class, """
            apiVersion: policy/v1
            kind: PodDisruptionBudget
            metadata: {name: zk-pdb}
            spec: {minAvailable: 2, selector: {matchLabels: {app: zookeeper}}}
            """);

    @Test
    @DisplayName("X-11 a PodDisruptionBudget starts with zero counters; its spec may change")
    void podDisruptionBudget() {
        ObjectChanged stored = decisions.createdChange(ZK);
        PodDisruptionBudget pdb = (PodDisruptionBudget) stored.getObject();
        assertEquals(yaml("{disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0}"),
                json(pdb.getStatus()));
        PodDisruptionBudget next = decisions.updated(stored, merge(pdb, "{spec: {minAvailable: null, maxUnavailable: 20%}}"));
        assertEquals("20%", next.getSpec().getMaxUnavailable());
    }

    static Stream<Arguments> invalidBudgets() {
        return Stream.of(
                Arguments.of("X-11 minAvailable and maxUnavailable together", "{spec: {maxUnavailable: 1}}",
                        "spec: Invalid value: policy.PodDisruptionBudgetSpec{...}: minAvailable and maxUnavailable cannot be both set"),
                Arguments.of("X-12 minAvailable above 100%", "{spec: {minAvailable: 120%}}",
                        "spec.minAvailable: Invalid value: \"120%\": must not be greater than 100%"),
                Arguments.of("X-12 a negative minAvailable", "{spec: {minAvailable: -1}}",
                        "spec.minAvailable: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("an unknown unhealthyPodEvictionPolicy", "{spec: {unhealthyPodEvictionPolicy: Never}}",
                        "spec.unhealthyPodEvictionPolicy: Unsupported value: \"Never\": supported values: "
                                + "\"AlwaysAllow\", \"IfHealthyBudget\""));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidBudgets")
    void invalidBudget(String name, String patch, String message) {
        assertEquals(List.of(message), rejected(decisions.create(merge(ZK, patch))));
    }
}
