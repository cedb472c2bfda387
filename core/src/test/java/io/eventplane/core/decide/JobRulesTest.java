package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.example;
import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Job;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Job defaulting, selector generation and validation (workloads.md §5.1, §5.2, §5.7). */
class JobRulesTest {
    private final Decisions decisions = new Decisions();
    private static final Job PI = example(Job.class, "corrected/job-pi.yaml");

    @Test
    @DisplayName("JOB-03 JOB-07 JOB-14 JOB-X09 AC-JOB-01 AC-JOB-02 pi gets completions 1, parallelism 1, backoffLimit as given, "
            + "the generated controller-uid selector and labels, and an empty status")
    void jobDefaultsAndGeneratedSelector() {
        ObjectChanged change = decisions.createdChange(PI);
        Job job = (Job) change.getObject();
        String uid = job.getMetadata().getUid();
        assertEquals(yaml("""
                parallelism: 1
                completions: 1
                backoffLimit: 4
                selector: {matchLabels: {batch.kubernetes.io/controller-uid: %s}}
                manualSelector: false
                template:
                  metadata:
                    labels:
                      job-name: pi
                      batch.kubernetes.io/job-name: pi
                      controller-uid: %s
                      batch.kubernetes.io/controller-uid: %s
                  spec:
                    containers:
                    - name: pi
                      image: perl
                      command: [perl, -Mbignum=bpi, -wle, print bpi(2000)]
                      terminationMessagePath: /dev/termination-log
                      terminationMessagePolicy: File
                      imagePullPolicy: Always
                    restartPolicy: Never
                    terminationGracePeriodSeconds: 30
                    dnsPolicy: ClusterFirst
                    schedulerName: default-scheduler
                completionMode: NonIndexed
                suspend: false
                podReplacementPolicy: TerminatingOrFailed
                """.formatted(uid, uid, uid)), json(job.getSpec()));
        // JOB-03: the Job shows its template's labels
        assertEquals(job.getSpec().getTemplate().getMetadata().getLabels(), job.getMetadata().getLabels());
        assertEquals(yaml("{}"), json(job.getStatus()));
        Job defaulted = decisions.created(merge(PI, "{metadata: {name: six}, spec: {backoffLimit: null}}"));
        assertEquals(6, defaulted.getSpec().getBackoffLimit()); // JOB-14
    }

    @Test
    @DisplayName("JOB-07 JOB-08 AC-JOB-03 completions 5 leaves parallelism at 1; a work queue (parallelism 3) keeps completions unset")
    void completionsAndParallelism() {
        Job fixed = decisions.created(merge(PI, "{metadata: {name: fixed}, spec: {completions: 5}}"));
        assertEquals(5, fixed.getSpec().getCompletions());
        assertEquals(1, fixed.getSpec().getParallelism());
        Job queue = decisions.created(merge(PI, "{metadata: {name: queue}, spec: {parallelism: 3}}"));
        assertNull(queue.getSpec().getCompletions()); // D9
        assertEquals(3, queue.getSpec().getParallelism());
        Job paused = decisions.created(merge(PI, "{metadata: {name: paused}, spec: {parallelism: 0}}"));
        assertEquals(0, paused.getSpec().getParallelism()); // JOB-08
    }

    @Test
    @DisplayName("JOB-03 a Job with labels of its own keeps them; user template labels are kept beside the generated ones")
    void ownLabelsAreKept() {
        Job job = decisions.created(merge(PI, "{metadata: {name: own, labels: {team: a}}, "
                + "spec: {template: {metadata: {labels: {app: pi}}}}}"));
        assertEquals(Map.of("team", "a"), job.getMetadata().getLabels());
        assertEquals("pi", job.getSpec().getTemplate().getMetadata().getLabels().get("app"));
        assertEquals("own", job.getSpec().getTemplate().getMetadata().getLabels().get("job-name"));
    }

    @Test
    @DisplayName("JOB-04 AC-JOB-12 with manualSelector true the given selector is used and no labels are generated")
    void manualSelector() {
        Job job = decisions.created(merge(PI, "{metadata: {name: new}, spec: {manualSelector: true, "
                + "selector: {matchLabels: {controller-uid: a8f3d00d}}, "
                + "template: {metadata: {labels: {controller-uid: a8f3d00d}}}}}"));
        assertEquals(yaml("{matchLabels: {controller-uid: a8f3d00d}}"), json(job.getSpec().getSelector()));
        assertEquals(Map.of("controller-uid", "a8f3d00d"), job.getSpec().getTemplate().getMetadata().getLabels());
    }

    static Stream<Arguments> invalidJobs() {
        return Stream.of(
                Arguments.of("JOB-02 AC-JOB-11 POD-2.11 a template without restartPolicy (Always by default)",
                        "{spec: {template: {spec: {restartPolicy: null}}}}",
                        List.of("spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: "
                                + "\"OnFailure\", \"Never\"")),
                Arguments.of("JOB-04 AC-JOB-13 a selector without manualSelector",
                        "{spec: {selector: {matchLabels: {app: pi}}, template: {metadata: {labels: {app: pi}}}}}",
                        List.of("spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"pi\", "
                                + "\"batch.kubernetes.io/controller-uid\":\"%UID%\"}, "
                                + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: `selector` not auto-generated")),
                Arguments.of("JOB-04 manualSelector without a selector", "{spec: {manualSelector: true}}",
                        List.of("spec.selector: Required value")),
                Arguments.of("JOB-04 a manual selector that does not match the template",
                        "{spec: {manualSelector: true, selector: {matchLabels: {app: other}}}}",
                        List.of("spec.template.metadata.labels: Invalid value: map[string]string(nil): "
                                + "`selector` does not match template `labels`")),
                Arguments.of("JOB-08 a negative parallelism", "{spec: {parallelism: -1}}",
                        List.of("spec.parallelism: Invalid value: -1: must be greater than or equal to 0")),
                Arguments.of("JOB-14 a negative backoffLimit", "{spec: {backoffLimit: -1}}",
                        List.of("spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0")),
                Arguments.of("JOB-X01 Indexed without completions", "{spec: {completionMode: Indexed, parallelism: 2}}",
                        List.of("spec.completions: Required value: when completion mode is Indexed")),
                Arguments.of("JOB-X01 an unknown completion mode", "{spec: {completionMode: Sharded}}",
                        List.of("spec.completionMode: Unsupported value: \"Sharded\": supported values: \"NonIndexed\", \"Indexed\"")),
                Arguments.of("JOB-X02 backoffLimitPerIndex without Indexed", "{spec: {backoffLimitPerIndex: 1}}",
                        List.of("spec.backoffLimitPerIndex: Forbidden: requires indexed completion mode")),
                Arguments.of("JOB-X03 a podFailurePolicy with restartPolicy OnFailure",
                        "{spec: {template: {spec: {restartPolicy: OnFailure}}, podFailurePolicy: {rules: "
                                + "[{action: FailJob, onExitCodes: {operator: In, values: [42]}}]}}}",
                        List.of("spec.template.spec.restartPolicy: Invalid value: \"OnFailure\": only \"Never\" is "
                                + "supported when podFailurePolicy is specified")),
                Arguments.of("JOB-X03 a podFailurePolicy rule with an unknown action",
                        "{spec: {podFailurePolicy: {rules: [{action: Retry, onPodConditions: [{type: DisruptionTarget}]}]}}}",
                        List.of("spec.podFailurePolicy.rules[0].action: Unsupported value: \"Retry\": supported values: "
                                + "\"FailJob\", \"FailIndex\", \"Ignore\", \"Count\"")),
                Arguments.of("JOB-X07 podReplacementPolicy TerminatingOrFailed with a podFailurePolicy",
                        "{spec: {podReplacementPolicy: TerminatingOrFailed, podFailurePolicy: {rules: "
                                + "[{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}}}",
                        List.of("spec.podReplacementPolicy: Unsupported value: \"TerminatingOrFailed\": supported values: \"Failed\"")));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidJobs")
    void invalidJob(String name, String patch, List<String> messages) {
        var decision = decisions.create(merge(PI, patch));
        List<String> causes = rejected(decision);
        String uid = causes.isEmpty() ? "" : uidIn(causes.get(0));
        assertEquals(messages.stream().map(m -> m.replace("%UID%", uid)).toList(), causes);
    }

    private static String uidIn(String message) {
        int at = message.indexOf("controller-uid\":\"");
        return at < 0 ? "" : message.substring(at + 17, message.indexOf('"', at + 17));
    }

    @Test
    @DisplayName("JOB-X02 JOB-X03 JOB-X07 defaults follow backoffLimitPerIndex and podFailurePolicy")
    void dependentDefaults() {
        Job indexed = decisions.created(merge(PI, "{metadata: {name: idx}, spec: {backoffLimit: null, completionMode: Indexed, "
                + "completions: 4, backoffLimitPerIndex: 1}}"));
        assertEquals(Integer.MAX_VALUE, indexed.getSpec().getBackoffLimit());
        Job policy = decisions.created(merge(PI, "{metadata: {name: pfp}, spec: {podFailurePolicy: {rules: "
                + "[{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]}}}"));
        assertEquals("Failed", policy.getSpec().getPodReplacementPolicy());
        assertEquals("True", policy.getSpec().getPodFailurePolicy().getRules().get(0).getOnPodConditions().get(0).getStatus());
    }

    @Test
    @DisplayName("JOB-05 the template and the selector are immutable; parallelism and activeDeadlineSeconds are not")
    void templateIsImmutable() {
        ObjectChanged stored = decisions.createdChange(PI);
        Job current = (Job) stored.getObject();
        assertEquals(List.of("spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable"),
                rejected(decisions.update(stored, merge(current,
                        "{spec: {template: {spec: {containers: [{name: pi, image: 'perl:5.40'}]}}}}"))));
        assertEquals(List.of("spec.completions: Invalid value: 3: field is immutable"),
                rejected(decisions.update(stored, merge(current, "{spec: {completions: 3}}"))));
        Job next = decisions.updated(stored, merge(current, "{spec: {parallelism: 2, activeDeadlineSeconds: 100}}"));
        assertEquals(2, next.getSpec().getParallelism());
        assertEquals(100L, next.getSpec().getActiveDeadlineSeconds());
    }

    @Test
    @DisplayName("JOB-X06 a suspended Job that never started may change its template's scheduling directives only")
    void suspendedJobSchedulingDirectives() {
        ObjectChanged stored = decisions.createdChange(merge(PI, "{spec: {suspend: true}}"));
        Job current = (Job) stored.getObject();
        Job moved = decisions.updated(stored, merge(current, "{spec: {template: {spec: {nodeSelector: {zone: b}}}}}"));
        assertEquals("b", moved.getSpec().getTemplate().getSpec().getNodeSelector().get("zone"));
        assertEquals(1, rejected(decisions.update(stored, merge(current,
                "{spec: {template: {spec: {containers: [{name: pi, image: 'perl:5.40'}]}}}}"))).size());
    }
}
