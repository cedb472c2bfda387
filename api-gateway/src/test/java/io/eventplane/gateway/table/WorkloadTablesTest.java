package io.eventplane.gateway.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** kubectl get for the workload kinds: column names (wide ones at priority 1) and cells. */
class WorkloadTablesTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final String META = "metadata: {name: %s, namespace: default, creationTimestamp: '2026-01-01T11:55:00Z'}\n";

    private static List<String> row(KindInfo kind, String yaml) {
        SpecificRecord o = KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), kind.type(),
                FieldValidation.STRICT, null);
        JsonNode t = TableRenderer.render(kind, List.of(o), TableRenderer.Include.NONE, "v1", null, NOW);
        List<String> out = new ArrayList<>();
        t.path("rows").get(0).path("cells").forEach(c -> out.add(c.asText()));
        return out;
    }

    private static String header(KindInfo kind) {
        List<String> names = new ArrayList<>();
        List<String> wide = new ArrayList<>();
        for (Columns.Column c : TableRenderer.columnsFor(kind).columns()) {
            (c.priority() == 0 ? names : wide).add(c.name().toUpperCase());
        }
        return String.join(" ", names) + (wide.isEmpty() ? "" : " | " + String.join(" ", wide));
    }

    private static final String TEMPLATE = """
            template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: web, image: 'nginx:1.27'}, {name: log, image: busybox}]}
            """;

    @Test
    @DisplayName("DEP-56 deployments: NAME READY UP-TO-DATE AVAILABLE AGE, wide CONTAINERS IMAGES SELECTOR")
    void deployments() {
        assertEquals("NAME READY UP-TO-DATE AVAILABLE AGE | CONTAINERS IMAGES SELECTOR", header(Kinds.DEPLOYMENT));
        assertEquals(List.of("web", "2/3", "3", "2", "5m", "web,log", "nginx:1.27,busybox", "app=web,tier notin (db)"),
                row(Kinds.DEPLOYMENT, META.formatted("web") + """
                        spec:
                          replicas: 3
                          selector: {matchLabels: {app: web}, matchExpressions: [{key: tier, operator: NotIn, values: [db]}]}
                          """ + TEMPLATE.indent(2) + """
                        status: {replicas: 4, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2}
                        """));
    }

    @Test
    @DisplayName("DEP-57 RS-21 replicasets and replicationcontrollers: NAME DESIRED CURRENT READY AGE")
    void replicaSetsAndControllers() {
        assertEquals("NAME DESIRED CURRENT READY AGE | CONTAINERS IMAGES SELECTOR", header(Kinds.REPLICA_SET));
        assertEquals(List.of("frontend", "3", "3", "3", "5m", "web,log", "nginx:1.27,busybox", "tier=frontend"),
                row(Kinds.REPLICA_SET, META.formatted("frontend") + "spec:\n  replicas: 3\n  selector: {matchLabels: {tier: frontend}}\n"
                        + TEMPLATE.indent(2) + "status: {replicas: 3, readyReplicas: 3}\n"));
        assertEquals("NAME DESIRED CURRENT READY AGE | CONTAINERS IMAGES SELECTOR", header(Kinds.REPLICATION_CONTROLLER));
        assertEquals(List.of("nginx", "3", "1", "0", "5m", "web,log", "nginx:1.27,busybox", "app=nginx,tier=web"),
                row(Kinds.REPLICATION_CONTROLLER, META.formatted("nginx") + "spec:\n  replicas: 3\n  selector: {tier: web, app: nginx}\n"
                        + TEMPLATE.indent(2) + "status: {replicas: 1}\n"));
    }

    @Test
    @DisplayName("statefulsets NAME READY AGE; daemonsets with NODE SELECTOR")
    void statefulSetsAndDaemonSets() {
        assertEquals("NAME READY AGE | CONTAINERS IMAGES", header(Kinds.STATEFUL_SET));
        assertEquals(List.of("web", "1/3", "5m", "web,log", "nginx:1.27,busybox"),
                row(Kinds.STATEFUL_SET, META.formatted("web") + "spec:\n  replicas: 3\n" + TEMPLATE.indent(2)
                        + "status: {replicas: 2, readyReplicas: 1}\n"));
        assertEquals("NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE | CONTAINERS IMAGES SELECTOR",
                header(Kinds.DAEMON_SET));
        assertEquals(List.of("fluentd", "3", "3", "2", "3", "2", "disk=ssd", "5m", "web", "fluentd", "name=fluentd"),
                row(Kinds.DAEMON_SET, META.formatted("fluentd") + """
                        spec:
                          selector: {matchLabels: {name: fluentd}}
                          template: {spec: {nodeSelector: {disk: ssd}, containers: [{name: web, image: fluentd}]}}
                        status: {desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2,
                                 updatedNumberScheduled: 3, numberAvailable: 2}
                        """));
    }

    @Test
    @DisplayName("AC-JOB-01 jobs: NAME STATUS COMPLETIONS DURATION AGE; Complete with its duration, a work queue as 0/1 of 3")
    void jobs() {
        assertEquals("NAME STATUS COMPLETIONS DURATION AGE | CONTAINERS IMAGES SELECTOR", header(Kinds.JOB));
        assertEquals(List.of("pi", "Complete", "1/1", "65s", "5m", "pi", "perl", "batch.kubernetes.io/controller-uid=u1"),
                row(Kinds.JOB, META.formatted("pi") + """
                        spec:
                          completions: 1
                          parallelism: 1
                          selector: {matchLabels: {batch.kubernetes.io/controller-uid: u1}}
                          template: {spec: {restartPolicy: Never, containers: [{name: pi, image: perl}]}}
                        status:
                          startTime: '2026-01-01T11:55:10Z'
                          completionTime: '2026-01-01T11:56:15Z'
                          succeeded: 1
                          conditions: [{type: Complete, status: 'True'}]
                        """));
        assertEquals(List.of("queue", "Running", "0/1 of 3", "60s"),
                row(Kinds.JOB, META.formatted("queue") + """
                        spec: {parallelism: 3}
                        status: {startTime: '2026-01-01T11:59:00Z', active: 3}
                        """).subList(0, 4));
        assertEquals("Failed", row(Kinds.JOB, META.formatted("f") + "status: {conditions: [{type: Failed, status: 'True'}]}\n").get(1));
        assertEquals("Suspended", row(Kinds.JOB, META.formatted("s") + "status: {conditions: [{type: Suspended, status: 'True'}]}\n").get(1));
    }

    @Test
    @DisplayName("cronjobs: NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE")
    void cronJobs() {
        assertEquals("NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE | CONTAINERS IMAGES SELECTOR",
                header(Kinds.CRON_JOB));
        assertEquals(List.of("hello", "*/1 * * * *", "Etc/UTC", "False", "1", "30s", "5m", "hello", "busybox", "<none>"),
                row(Kinds.CRON_JOB, META.formatted("hello") + """
                        spec:
                          schedule: '*/1 * * * *'
                          timeZone: Etc/UTC
                          suspend: false
                          jobTemplate: {spec: {template: {spec: {containers: [{name: hello, image: busybox}]}}}}
                        status: {active: [{kind: Job, name: hello-29000000}], lastScheduleTime: '2026-01-01T11:59:30Z'}
                        """));
        assertEquals(List.of("bare", "", "<none>", "<unset>", "0", "<none>"),
                row(Kinds.CRON_JOB, META.formatted("bare") + "spec: {}\n").subList(0, 6));
    }

    @Test
    @DisplayName("X-11 poddisruptionbudgets: NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE; "
            + "controllerrevisions: NAME CONTROLLER REVISION AGE")
    void budgetsAndRevisions() {
        assertEquals("NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE", header(Kinds.POD_DISRUPTION_BUDGET));
        assertEquals(List.of("zk", "50%", "N/A", "1", "5m"), row(Kinds.POD_DISRUPTION_BUDGET,
                META.formatted("zk") + "spec: {minAvailable: 50%}\nstatus: {disruptionsAllowed: 1}\n"));
        assertEquals(List.of("zk2", "N/A", "1", "0", "5m"), row(Kinds.POD_DISRUPTION_BUDGET,
                META.formatted("zk2") + "spec: {maxUnavailable: 1}\n"));
        assertEquals("NAME CONTROLLER REVISION AGE", header(Kinds.CONTROLLER_REVISION));
        assertEquals(List.of("web-7b8c9d", "statefulset.apps/web", "2", "5m"), row(Kinds.CONTROLLER_REVISION, """
                metadata:
                  name: web-7b8c9d
                  creationTimestamp: '2026-01-01T11:55:00Z'
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: web, uid: u, controller: true}]
                revision: 2
                """));
    }
}
