package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.example;
import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.DaemonSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** DaemonSet defaulting and validation (workloads.md §4.1, DS-16). */
class DaemonSetRulesTest {
    private final Decisions decisions = new Decisions();
    private static final DaemonSet FLUENTD = example(DaemonSet.class, "corrected/daemonset-fluentd-elasticsearch.yaml");

    @Test
    @DisplayName("DS-16 fluentd-elasticsearch gets RollingUpdate maxUnavailable 1 maxSurge 0, revisionHistoryLimit 10 "
            + "and zero scheduling counters")
    void daemonSetDefaults() {
        DaemonSet ds = decisions.created(FLUENTD);
        assertEquals(yaml("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1, maxSurge: 0}}"),
                json(ds.getSpec().getUpdateStrategy()));
        assertEquals(10, ds.getSpec().getRevisionHistoryLimit());
        assertEquals("Always", ds.getSpec().getTemplate().getSpec().getRestartPolicy());
        assertEquals(yaml("{currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0}"),
                json(ds.getStatus()));
        assertEquals("kube-system", ds.getMetadata().getNamespace());
        DaemonSet onDelete = decisions.created(merge(FLUENTD, "{metadata: {name: od}, spec: {updateStrategy: {type: OnDelete}}}"));
        assertEquals(yaml("{type: OnDelete}"), json(onDelete.getSpec().getUpdateStrategy()));
    }

    static Stream<Arguments> invalidDaemonSets() {
        return Stream.of(
                Arguments.of("DS-03 AC-DS-07 a DaemonSet without a selector", "{spec: {selector: null}}",
                        "spec.selector: Required value"),
                Arguments.of("DS-03 AC-DS-07 a selector that does not match the template",
                        "{spec: {selector: {matchLabels: {name: fluentd}}}}",
                        "spec.template.metadata.labels: Invalid value: map[string]string{\"name\":\"fluentd-elasticsearch\"}: "
                                + "`selector` does not match template `labels`"),
                Arguments.of("DS-03 an empty selector", "{spec: {selector: {matchLabels: null}}}",
                        "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), "
                                + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset"),
                Arguments.of("DS-02 POD-2.11 template restartPolicy OnFailure",
                        "{spec: {template: {spec: {restartPolicy: OnFailure}}}}",
                        "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""),
                Arguments.of("DS-16 both maxUnavailable and maxSurge non-zero",
                        "{spec: {updateStrategy: {rollingUpdate: {maxUnavailable: 1, maxSurge: 1}}}}",
                        "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero"),
                Arguments.of("DS-16 both maxUnavailable and maxSurge zero",
                        "{spec: {updateStrategy: {rollingUpdate: {maxUnavailable: 0%, maxSurge: 0}}}}",
                        "spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0"),
                Arguments.of("DS-16 an unknown update strategy", "{spec: {updateStrategy: {type: Surge}}}",
                        "spec.updateStrategy.type: Unsupported value: \"Surge\": supported values: \"OnDelete\", \"RollingUpdate\""));
    }

    @Test
    @DisplayName("DS-01 a DaemonSet without spec, or without spec.template, is rejected")
    void specAndTemplateAreRequired() {
        assertEquals(List.of("spec: Required value"),
                rejected(decisions.create(DaemonSet.newBuilder(FLUENTD).setSpec(null).build())));
        List<String> causes = rejected(decisions.create(merge(FLUENTD, "{spec: {template: null}}")));
        assertEquals(true, causes.stream().anyMatch(c -> c.startsWith("spec.template")), causes.toString());
    }

    @Test
    @DisplayName("DS-16 the template generation (annotation deprecated.daemonset.template.generation) starts at 1 and "
            + "goes up only when the template changes, whatever the update says")
    void templateGeneration() {
        ObjectChanged stored = decisions.createdChange(FLUENTD);
        DaemonSet created = (DaemonSet) stored.getObject();
        assertEquals("1", created.getMetadata().getAnnotations().get(DaemonSetRules.TEMPLATE_GENERATION));
        DaemonSet relabelled = decisions.updated(stored, merge(created,
                "{metadata: {labels: {extra: x}, annotations: {deprecated.daemonset.template.generation: '7'}}}"));
        assertEquals("1", relabelled.getMetadata().getAnnotations().get(DaemonSetRules.TEMPLATE_GENERATION));
        DaemonSet rolled = decisions.updated(stored, merge(created,
                "{spec: {template: {spec: {containers: [{name: fluentd-elasticsearch, image: fluentd:v3}]}}}}"));
        assertEquals("2", rolled.getMetadata().getAnnotations().get(DaemonSetRules.TEMPLATE_GENERATION));
        assertEquals(2L, rolled.getMetadata().getGeneration());
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidDaemonSets")
    void invalidDaemonSet(String name, String patch, String message) {
        assertEquals(List.of(message), rejected(decisions.create(merge(FLUENTD, patch))));
    }

    @Test
    @DisplayName("DS-03 AC-DS-06 updating the selector is a validation error; updating the template is not")
    void selectorIsImmutable() {
        ObjectChanged stored = decisions.createdChange(FLUENTD);
        DaemonSet current = (DaemonSet) stored.getObject();
        List<String> causes = rejected(decisions.update(stored, merge(current,
                "{spec: {selector: {matchExpressions: [{key: name, operator: Exists}]}}}")));
        assertEquals(1, causes.size());
        assertEquals(true, causes.get(0).endsWith(": field is immutable"), causes.get(0));
        DaemonSet next = decisions.updated(stored, merge(current, "{spec: {template: {spec: {nodeSelector: {disk: ssd}}}}}"));
        assertEquals("ssd", next.getSpec().getTemplate().getSpec().getNodeSelector().get("disk"));
    }
}
