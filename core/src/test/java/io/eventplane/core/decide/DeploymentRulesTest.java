package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.example;
import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Deployment;
import io.eventplane.model.ReplicaSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Deployment and ReplicaSet defaulting and validation as the writer decides them (workloads.md §1.1, §2). */
class DeploymentRulesTest {
    private final Decisions decisions = new Decisions();
    private static final Deployment NGINX = example(Deployment.class, "deployment-nginx-deployment.yaml");
    private static final ReplicaSet FRONTEND = example(ReplicaSet.class, "replicaset-frontend.yaml");

    @Test
    @DisplayName("DEP-03 DEP-07 DEP-08 DEP-09 DEP-10 DEP-12 nginx-deployment is stored with Kubernetes' defaults, "
            + "template pod defaults and an empty status")
    void deploymentDefaults() {
        Deployment d = decisions.created(merge(NGINX, "{spec: {replicas: null}}"));
        assertEquals(yaml("""
                replicas: 1
                selector: {matchLabels: {app: nginx}}
                template:
                  metadata: {labels: {app: nginx}}
                  spec:
                    containers:
                    - name: nginx
                      image: nginx:1.14.2
                      terminationMessagePath: /dev/termination-log
                      terminationMessagePolicy: File
                      imagePullPolicy: IfNotPresent
                    restartPolicy: Always
                    terminationGracePeriodSeconds: 30
                    dnsPolicy: ClusterFirst
                    schedulerName: default-scheduler
                strategy: {type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%, maxSurge: 25%}}
                revisionHistoryLimit: 10
                progressDeadlineSeconds: 600
                """), json(d.getSpec()));
        assertEquals(yaml("{}"), json(d.getStatus()));
        assertEquals(1L, d.getMetadata().getGeneration());
        assertNull(d.getSpec().getPaused()); // DEP-13: not paused
    }

    @Test
    @DisplayName("DEP-07 a Recreate Deployment gets no rollingUpdate; given values are kept")
    void recreateHasNoRollingUpdate() {
        Deployment d = decisions.created(merge(NGINX, "{spec: {strategy: {type: Recreate}, revisionHistoryLimit: 2}}"));
        assertEquals(yaml("{type: Recreate}"), json(d.getSpec().getStrategy()));
        assertEquals(2, d.getSpec().getRevisionHistoryLimit());
        Deployment partial = decisions.created(merge(merge(NGINX, "{metadata: {name: partial}}"),
                "{spec: {strategy: {rollingUpdate: {maxSurge: 1}}}}"));
        assertEquals(yaml("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 25%, maxSurge: 1}}"),
                json(partial.getSpec().getStrategy()));
    }

    static Stream<Arguments> invalidDeployments() {
        return Stream.of(
                Arguments.of("DEP-01 DEP-04 a Deployment without a selector", "{spec: {selector: null}}",
                        "spec.selector: Required value"),
                Arguments.of("DEP-04 a selector that does not match the template labels",
                        "{spec: {selector: {matchLabels: {app: web}}}}",
                        "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"nginx\"}: "
                                + "`selector` does not match template `labels`"),
                Arguments.of("DEP-04 an empty selector", "{spec: {selector: {matchLabels: null}}}",
                        "spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), "
                                + "MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment"),
                Arguments.of("COM-04 a matchExpressions operator Kubernetes does not know",
                        "{spec: {selector: {matchExpressions: [{key: app, operator: Is, values: [nginx]}]}}}",
                        "spec.selector.matchExpressions[0].operator: Invalid value: \"Is\": not a valid selector operator"),
                Arguments.of("DEP-02 POD-2.11 template restartPolicy Never",
                        "{spec: {template: {spec: {restartPolicy: Never}}}}",
                        "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""),
                Arguments.of("POD-1.2 a template without containers", "{spec: {template: {spec: {containers: null}}}}",
                        "spec.template.spec.containers: Required value"),
                Arguments.of("replicas below 0", "{spec: {replicas: -1}}",
                        "spec.replicas: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("DEP-07 an unknown strategy type", "{spec: {strategy: {type: Canary}}}",
                        "spec.strategy.type: Unsupported value: \"Canary\": supported values: \"Recreate\", \"RollingUpdate\""),
                Arguments.of("DEP-07 Recreate with rollingUpdate parameters",
                        "{spec: {strategy: {type: Recreate, rollingUpdate: {maxSurge: 1}}}}",
                        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"),
                Arguments.of("DEP-08 DEP-09 maxUnavailable 0 with maxSurge 0",
                        "{spec: {strategy: {rollingUpdate: {maxUnavailable: 0, maxSurge: 0%}}}}",
                        "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0"),
                Arguments.of("DEP-08 maxUnavailable above 100%", "{spec: {strategy: {rollingUpdate: {maxUnavailable: 101%}}}}",
                        "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%"),
                Arguments.of("DEP-09 maxSurge that is neither a number nor a percentage",
                        "{spec: {strategy: {rollingUpdate: {maxSurge: lots}}}}",
                        "spec.strategy.rollingUpdate.maxSurge: Invalid value: \"lots\": a valid percent string must be a "
                                + "numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for "
                                + "validation is '[0-9]+%')"),
                Arguments.of("DEP-10 progressDeadlineSeconds not above minReadySeconds",
                        "{spec: {minReadySeconds: 30, progressDeadlineSeconds: 30}}",
                        "spec.progressDeadlineSeconds: Invalid value: 30: must be greater than minReadySeconds"),
                Arguments.of("a negative revisionHistoryLimit", "{spec: {revisionHistoryLimit: -1}}",
                        "spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("activeDeadlineSeconds in the template", "{spec: {template: {spec: {activeDeadlineSeconds: 5}}}}",
                        "spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported"));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidDeployments")
    void invalidDeployment(String name, String patch, String message) {
        List<String> causes = rejected(decisions.create(merge(NGINX, patch)));
        assertEquals(List.of(message), causes);
    }

    @Test
    @DisplayName("DEP-05 the selector is immutable; replicas, template and strategy change and bump generation")
    void selectorIsImmutable() {
        ObjectChanged stored = decisions.createdChange(NGINX);
        Deployment current = (Deployment) stored.getObject();
        List<String> causes = rejected(decisions.update(stored, merge(current,
                "{spec: {selector: {matchLabels: {app: nginx, tier: web}}, template: {metadata: {labels: {tier: web}}}}}")));
        assertEquals(List.of("spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{\"app\":\"nginx\", "
                + "\"tier\":\"web\"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable"), causes);
        Deployment next = decisions.updated(stored, merge(current,
                "{spec: {replicas: 5, template: {spec: {containers: [{name: nginx, image: 'nginx:1.16.1'}]}}}}"));
        assertEquals(5, next.getSpec().getReplicas());
        assertEquals("IfNotPresent", next.getSpec().getTemplate().getSpec().getContainers().get(0).getImagePullPolicy());
        assertEquals(2L, next.getMetadata().getGeneration());
    }

    @Test
    @DisplayName("RS-05 a ReplicaSet defaults replicas to 1 and starts with status.replicas 0")
    void replicaSetDefaults() {
        ReplicaSet rs = decisions.created(merge(FRONTEND, "{spec: {replicas: null}}"));
        assertEquals(1, rs.getSpec().getReplicas());
        assertEquals("Always", rs.getSpec().getTemplate().getSpec().getRestartPolicy());
        assertEquals(yaml("{replicas: 0}"), json(rs.getStatus()));
    }

    static Stream<Arguments> invalidReplicaSets() {
        return Stream.of(
                Arguments.of("RS-04 template labels the selector does not match",
                        "{spec: {template: {metadata: {labels: {tier: backend}}}}}",
                        "spec.template.metadata.labels: Invalid value: map[string]string{\"tier\":\"backend\"}: "
                                + "`selector` does not match template `labels`"),
                Arguments.of("RS-03 a template without labels", "{spec: {template: {metadata: null}}}",
                        "spec.template.metadata.labels: Invalid value: map[string]string(nil): "
                                + "`selector` does not match template `labels`"),
                Arguments.of("RS-03 POD-2.11 template restartPolicy OnFailure",
                        "{spec: {template: {spec: {restartPolicy: OnFailure}}}}",
                        "spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\": supported values: \"Always\""),
                Arguments.of("RS-20 an In expression without values",
                        "{spec: {selector: {matchExpressions: [{key: tier, operator: In}]}}}",
                        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'"),
                Arguments.of("replicas below 0", "{spec: {replicas: -3}}",
                        "spec.replicas: Invalid value: -3: must be greater than or equal to 0"));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidReplicaSets")
    void invalidReplicaSet(String name, String patch, String message) {
        assertEquals(List.of(message), rejected(decisions.create(merge(FRONTEND, patch))));
    }

    @Test
    @DisplayName("RS-20 a set-based selector matching the template is accepted; the selector is immutable afterwards")
    void replicaSetSelector() {
        ReplicaSet set = merge(FRONTEND, "{spec: {selector: {matchLabels: null, matchExpressions: "
                + "[{key: tier, operator: In, values: [frontend, web]}, {key: canary, operator: DoesNotExist}]}}}");
        ObjectChanged stored = decisions.createdChange(set);
        List<String> causes = rejected(decisions.update(stored, merge((ReplicaSet) stored.getObject(),
                "{spec: {selector: {matchExpressions: [{key: tier, operator: Exists}]}}}")));
        assertEquals(1, causes.size());
        assertEquals(true, causes.get(0).startsWith("spec.selector: Invalid value: ") && causes.get(0).endsWith("field is immutable"),
                causes.get(0));
    }
}
