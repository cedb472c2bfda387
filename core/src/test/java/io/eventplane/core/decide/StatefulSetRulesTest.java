package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.example;
import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.StatefulSet;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** StatefulSet and ControllerRevision defaulting and validation (workloads.md §3.1, §3.4, §3.5). */
class StatefulSetRulesTest {
    private final Decisions decisions = new Decisions();
    private static final StatefulSet WEB = example(StatefulSet.class, "statefulset-web.yaml");

    @Test
    @DisplayName("STS-02 STS-14 STS-20 STS-X01 STS-X03 web is stored with OrderedReady, RollingUpdate partition 0, "
            + "revisionHistoryLimit 10, Retain/Retain and defaulted claim templates")
    void statefulSetDefaults() {
        StatefulSet sts = decisions.created(merge(WEB, "{spec: {replicas: null}}"));
        assertEquals(1, sts.getSpec().getReplicas());
        assertEquals("OrderedReady", sts.getSpec().getPodManagementPolicy());
        assertEquals(yaml("{type: RollingUpdate, rollingUpdate: {partition: 0}}"), json(sts.getSpec().getUpdateStrategy()));
        assertEquals(10, sts.getSpec().getRevisionHistoryLimit());
        assertEquals(yaml("{whenDeleted: Retain, whenScaled: Retain}"),
                json(sts.getSpec().getPersistentVolumeClaimRetentionPolicy()));
        assertEquals(yaml("""
                metadata: {name: www}
                spec:
                  accessModes: [ReadWriteOnce]
                  resources: {requests: {storage: 1Gi}}
                  storageClassName: my-storage-class
                  volumeMode: Filesystem
                status: {phase: Pending}
                """), json(sts.getSpec().getVolumeClaimTemplates().get(0)));
        assertEquals(10L, sts.getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds());
        assertEquals("TCP", sts.getSpec().getTemplate().getSpec().getContainers().get(0).getPorts().get(0).getProtocol());
        assertEquals(yaml("{replicas: 0, availableReplicas: 0}"), json(sts.getStatus()));
    }

    @Test
    @DisplayName("STS-20 an explicit RollingUpdate without parameters stays without them; OnDelete gets none")
    void explicitStrategies() {
        StatefulSet rolling = decisions.created(merge(WEB, "{spec: {updateStrategy: {type: RollingUpdate}}}"));
        assertNull(rolling.getSpec().getUpdateStrategy().getRollingUpdate());
        StatefulSet onDelete = decisions.created(merge(WEB, "{metadata: {name: web2}, spec: {updateStrategy: {type: OnDelete}, "
                + "podManagementPolicy: Parallel}}"));
        assertEquals(yaml("{type: OnDelete}"), json(onDelete.getSpec().getUpdateStrategy()));
        assertEquals("Parallel", onDelete.getSpec().getPodManagementPolicy());
    }

    static Stream<Arguments> invalidStatefulSets() {
        return Stream.of(
                Arguments.of("STS-01 AC-STS-11 a StatefulSet without a selector", "{spec: {selector: null}}",
                        "spec.selector: Required value"),
                Arguments.of("STS-01 AC-STS-11 a selector that does not match the template",
                        "{spec: {selector: {matchLabels: {app: web}}}}",
                        "spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"nginx\"}: "
                                + "`selector` does not match template `labels`"),
                Arguments.of("STS-14 an unknown podManagementPolicy", "{spec: {podManagementPolicy: Sequential}}",
                        "spec.podManagementPolicy: Invalid value: \"Sequential\": must be 'OrderedReady' or 'Parallel'"),
                Arguments.of("STS-20 an unknown update strategy", "{spec: {updateStrategy: {type: Rolling}}}",
                        "spec.updateStrategy: Invalid value: \"Rolling\": must be 'RollingUpdate' or 'OnDelete'"),
                Arguments.of("STS-21 OnDelete with rollingUpdate parameters",
                        "{spec: {updateStrategy: {type: OnDelete, rollingUpdate: {partition: 1}}}}",
                        "spec.updateStrategy.rollingUpdate: Invalid value: {...}: only allowed for updateStrategy 'RollingUpdate'"),
                Arguments.of("STS-23 a negative partition", "{spec: {updateStrategy: {rollingUpdate: {partition: -1}}}}",
                        "spec.updateStrategy.rollingUpdate.partition: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("STS-X03 an unknown retention policy",
                        "{spec: {persistentVolumeClaimRetentionPolicy: {whenScaled: Shred}}}",
                        "spec.persistentVolumeClaimRetentionPolicy.whenScaled: Unsupported value: \"Shred\": "
                                + "supported values: \"Retain\", \"Delete\""),
                Arguments.of("STS-X02 a negative start ordinal", "{spec: {ordinals: {start: -1}}}",
                        "spec.ordinals.start: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("POD-2.11 template restartPolicy Never", "{spec: {template: {spec: {restartPolicy: Never}}}}",
                        "spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\""),
                Arguments.of("STS-04 a claim template without access modes",
                        "{spec: {volumeClaimTemplates: [{metadata: {name: www}, spec: {resources: {requests: {storage: 1Gi}}}}]}}",
                        "spec.volumeClaimTemplates[0].spec.accessModes: Required value: at least 1 access mode is required"),
                Arguments.of("replicas below 0", "{spec: {replicas: -1}}",
                        "spec.replicas: Invalid value: -1: must be greater than or equal to 0"));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidStatefulSets")
    void invalidStatefulSet(String name, String patch, String message) {
        assertEquals(List.of(message), rejected(decisions.create(merge(WEB, patch))));
    }

    @Test
    @DisplayName("STS-20 STS-23 replicas, template, updateStrategy and retention may change; serviceName and claim templates may not")
    void updatableFields() {
        ObjectChanged stored = decisions.createdChange(WEB);
        StatefulSet current = (StatefulSet) stored.getObject();
        StatefulSet scaled = decisions.updated(stored, merge(current, "{spec: {replicas: 5, updateStrategy: "
                + "{rollingUpdate: {partition: 2}}, persistentVolumeClaimRetentionPolicy: {whenScaled: Delete}}}"));
        assertEquals(5, scaled.getSpec().getReplicas());
        assertEquals(2, scaled.getSpec().getUpdateStrategy().getRollingUpdate().getPartition());
        String forbidden = "spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', "
                + "'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and "
                + "'minReadySeconds' are forbidden";
        assertEquals(List.of(forbidden), rejected(decisions.update(stored, merge(current, "{spec: {serviceName: other}}"))));
        assertEquals(List.of(forbidden), rejected(decisions.update(stored, merge(current,
                "{spec: {volumeClaimTemplates: [{metadata: {name: data}, spec: {accessModes: [ReadWriteOnce]}}]}}"))));
    }

    private static final ControllerRevision REVISION = Decisions.parse(ControllerRevision.class, """
            apiVersion: apps/v1
            kind: ControllerRevision
            metadata:
              name: web-7b8c9d
              ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: u-1, controller: true}]
            data: {spec: {template: {$patch: replace, spec: {containers: [{name: nginx, image: 'nginx:1.27'}]}}}}
            revision: 1
            """);

    @Test
    @DisplayName("STS-X01 a ControllerRevision is stored as given; its data is mandatory and immutable, its revision non-negative")
    void controllerRevision() {
        ObjectChanged stored = decisions.createdChange(REVISION);
        assertEquals(REVISION.getData(), ((ControllerRevision) stored.getObject()).getData());
        assertEquals(List.of("data: Invalid value: runtime.RawExtension{...}: field is immutable"),
                rejected(decisions.update(stored, merge(REVISION, "{data: {spec: {template: {$patch: null}}}}"))));
        ControllerRevision bumped = decisions.updated(stored, merge(REVISION, "{revision: 3}"));
        assertEquals(3L, bumped.getRevision());
        assertEquals(List.of("data: Required value: data is mandatory",
                        "revision: Invalid value: -1: must be greater than or equal to 0"),
                rejected(decisions.create(merge(REVISION, "{metadata: {name: bad}, data: null, revision: -1}"))));
    }
}
