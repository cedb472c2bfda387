package io.eventplane.gateway.table;

import static io.eventplane.gateway.table.KindColumns.age;
import static io.eventplane.gateway.table.KindColumns.nz;
import static io.eventplane.gateway.table.KindColumns.row;

import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.Container;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.CronJob;
import io.eventplane.model.CronJobSpec;
import io.eventplane.model.CronJobStatus;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PodDisruptionBudgetStatus;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetStatus;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerStatus;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/**
 * kubectl's printers for the workload kinds (Kubernetes' pkg/printers/internalversion): the same columns, the same
 * cells, {@code -o wide} columns at priority 1.
 */
final class WorkloadColumns {
    private static final Column CONTAINERS = Column.wide("Containers", "Names of each container in the template.");
    private static final Column IMAGES = Column.wide("Images", "Images referenced by each container in the template.");
    private static final Column SELECTOR = Column.wide("Selector", "Label selector for pods. Existing ReplicaSets whose "
            + "pods are selected by this will be the ones affected by this deployment.");

    private WorkloadColumns() {
    }

    private static Column integer(String name, String description) {
        return new Column(name, "integer", "", description, 0);
    }

    /** NAME READY UP-TO-DATE AVAILABLE AGE (CONTAINERS IMAGES SELECTOR). */
    static final Columns DEPLOYMENT = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Ready", "Number of the pod with ready state"),
            integer("Up-to-date", "Total number of non-terminating pods targeted by this deployment that have the desired template spec."),
            integer("Available", "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment."),
            Column.ageColumn(), CONTAINERS, IMAGES, SELECTOR), (o, now) -> {
                Deployment d = (Deployment) o;
                DeploymentStatus s = d.getStatus() == null ? new DeploymentStatus() : d.getStatus();
                int desired = d.getSpec() == null ? 0 : n(d.getSpec().getReplicas());
                PodTemplateSpec t = d.getSpec() == null ? null : d.getSpec().getTemplate();
                return row(meta(d).getName(), n(s.getReadyReplicas()) + "/" + desired, n(s.getUpdatedReplicas()),
                        n(s.getAvailableReplicas()), age(d, now), names(t), images(t),
                        selector(d.getSpec() == null ? null : d.getSpec().getSelector()));
            });

    /** NAME DESIRED CURRENT READY AGE (CONTAINERS IMAGES SELECTOR). */
    static final Columns REPLICA_SET = new KindColumns(List.of(Column.nameColumn(),
            integer("Desired", "Number of desired pods. This is a pointer to distinguish between explicit zero and not specified."),
            integer("Current", "Replicas is the most recently observed number of non-terminating pods."),
            integer("Ready", "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition."),
            Column.ageColumn(), CONTAINERS, IMAGES, SELECTOR), (o, now) -> {
                ReplicaSet rs = (ReplicaSet) o;
                ReplicaSetStatus s = rs.getStatus() == null ? new ReplicaSetStatus() : rs.getStatus();
                PodTemplateSpec t = rs.getSpec() == null ? null : rs.getSpec().getTemplate();
                return row(meta(rs).getName(), rs.getSpec() == null ? 0 : n(rs.getSpec().getReplicas()),
                        n(s.getReplicas()), n(s.getReadyReplicas()), age(rs, now), names(t), images(t),
                        selector(rs.getSpec() == null ? null : rs.getSpec().getSelector()));
            });

    /** NAME DESIRED CURRENT READY AGE (CONTAINERS IMAGES SELECTOR). */
    static final Columns REPLICATION_CONTROLLER = new KindColumns(List.of(Column.nameColumn(),
            integer("Desired", "Replicas is the number of desired replicas."),
            integer("Current", "Replicas is the most recently observed number of replicas."),
            integer("Ready", "The number of ready replicas for this replication controller."),
            Column.ageColumn(), CONTAINERS, IMAGES,
            Column.wide("Selector", "Selector is a label query over pods that should match the Replicas count.")), (o, now) -> {
                ReplicationController rc = (ReplicationController) o;
                ReplicationControllerStatus s = rc.getStatus() == null ? new ReplicationControllerStatus() : rc.getStatus();
                PodTemplateSpec t = rc.getSpec() == null ? null : rc.getSpec().getTemplate();
                Map<String, String> sel = rc.getSpec() == null ? null : rc.getSpec().getSelector();
                return row(meta(rc).getName(), rc.getSpec() == null ? 0 : n(rc.getSpec().getReplicas()),
                        n(s.getReplicas()), n(s.getReadyReplicas()), age(rc, now), names(t), images(t),
                        Columns.orNone(LabelSelectors.toString(sel)));
            });

    /** NAME READY AGE (CONTAINERS IMAGES). */
    static final Columns STATEFUL_SET = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Ready", "Number of the pod with ready state"), Column.ageColumn(), CONTAINERS, IMAGES), (o, now) -> {
                StatefulSet sts = (StatefulSet) o;
                StatefulSetStatus s = sts.getStatus() == null ? new StatefulSetStatus() : sts.getStatus();
                PodTemplateSpec t = sts.getSpec() == null ? null : sts.getSpec().getTemplate();
                return row(meta(sts).getName(), n(s.getReadyReplicas()) + "/" + (sts.getSpec() == null ? 0
                        : n(sts.getSpec().getReplicas())), age(sts, now), names(t), images(t));
            });

    /** NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE (CONTAINERS IMAGES SELECTOR). */
    static final Columns DAEMON_SET = new KindColumns(List.of(Column.nameColumn(),
            integer("Desired", "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod)."),
            integer("Current", "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod."),
            integer("Ready", "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition."),
            integer("Up-to-date", "The total number of nodes that are running updated daemon pod"),
            integer("Available", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)"),
            Column.of("Node Selector", "NodeSelector is a selector which must be true for the pod to fit on a node."),
            Column.ageColumn(), CONTAINERS, IMAGES,
            Column.wide("Selector", "A label query over pods that are managed by the daemon set.")), (o, now) -> {
                DaemonSet ds = (DaemonSet) o;
                DaemonSetStatus s = ds.getStatus() == null ? new DaemonSetStatus() : ds.getStatus();
                PodTemplateSpec t = ds.getSpec() == null ? null : ds.getSpec().getTemplate();
                Map<String, String> nodeSelector = t == null || t.getSpec() == null ? null : t.getSpec().getNodeSelector();
                return row(meta(ds).getName(), n(s.getDesiredNumberScheduled()), n(s.getCurrentNumberScheduled()),
                        n(s.getNumberReady()), n(s.getUpdatedNumberScheduled()), n(s.getNumberAvailable()),
                        Columns.orNone(LabelSelectors.toString(nodeSelector)), age(ds, now), names(t), images(t),
                        selector(ds.getSpec() == null ? null : ds.getSpec().getSelector()));
            });

    /** NAME STATUS COMPLETIONS DURATION AGE (CONTAINERS IMAGES SELECTOR). */
    static final Columns JOB = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Status", "Status of the job."),
            Column.of("Completions", "The completion status of the job."),
            Column.of("Duration", "Time required to complete the job."),
            Column.ageColumn(), CONTAINERS, IMAGES,
            Column.wide("Selector", "A label query over pods that should match the pod count.")), (o, now) -> {
                Job job = (Job) o;
                JobSpec spec = job.getSpec() == null ? new JobSpec() : job.getSpec();
                JobStatus s = job.getStatus() == null ? new JobStatus() : job.getStatus();
                return row(meta(job).getName(), jobStatus(job), completions(spec, s), duration(s, now), age(job, now),
                        names(spec.getTemplate()), images(spec.getTemplate()), selector(spec.getSelector()));
            });

    /** NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE (CONTAINERS IMAGES SELECTOR). */
    static final Columns CRON_JOB = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Schedule", "The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron."),
            Column.of("Timezone", "The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones."),
            Column.of("Suspend", "This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false."),
            integer("Active", "A list of pointers to currently running jobs."),
            Column.of("Last Schedule", "Information when was the last time the job was successfully scheduled."),
            Column.ageColumn(), CONTAINERS, IMAGES,
            Column.wide("Selector", "A label query over pods that should match the pod count.")), (o, now) -> {
                CronJob cj = (CronJob) o;
                CronJobSpec spec = cj.getSpec() == null ? new CronJobSpec() : cj.getSpec();
                CronJobStatus s = cj.getStatus() == null ? new CronJobStatus() : cj.getStatus();
                JobSpec job = spec.getJobTemplate() == null || spec.getJobTemplate().getSpec() == null ? new JobSpec()
                        : spec.getJobTemplate().getSpec();
                return row(meta(cj).getName(), nz(spec.getSchedule()), Columns.orNone(spec.getTimeZone()),
                        spec.getSuspend() == null ? "<unset>" : spec.getSuspend() ? "True" : "False",
                        s.getActive() == null ? 0 : s.getActive().size(),
                        s.getLastScheduleTime() == null ? "<none>" : Ages.since(s.getLastScheduleTime(), now),
                        age(cj, now), names(job.getTemplate()), images(job.getTemplate()), selector(job.getSelector()));
            });

    /** NAME MIN AVAILABLE MAX UNAVAILABLE ALLOWED DISRUPTIONS AGE. */
    static final Columns POD_DISRUPTION_BUDGET = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Min Available", "The minimum number of pods that must be available simultaneously.  This can be either an integer or percentage."),
            Column.of("Max Unavailable", "The maximum number of pods that may be unavailable simultaneously.  This can be either an integer or percentage."),
            integer("Allowed Disruptions", "Calculated number of pods that may be disrupted at this time."),
            Column.ageColumn()), (o, now) -> {
                PodDisruptionBudget pdb = (PodDisruptionBudget) o;
                Object min = pdb.getSpec() == null ? null : pdb.getSpec().getMinAvailable();
                Object max = pdb.getSpec() == null ? null : pdb.getSpec().getMaxUnavailable();
                PodDisruptionBudgetStatus s = pdb.getStatus() == null ? new PodDisruptionBudgetStatus() : pdb.getStatus();
                return row(meta(pdb).getName(), min == null ? "N/A" : min.toString(), max == null ? "N/A" : max.toString(),
                        n(s.getDisruptionsAllowed()), age(pdb, now));
            });

    /** NAME CONTROLLER REVISION AGE. */
    static final Columns CONTROLLER_REVISION = new KindColumns(List.of(Column.nameColumn(),
            Column.of("Controller", "Controller of the object"),
            integer("Revision", "Revision indicates the revision of the state represented by Data."),
            Column.ageColumn()), (o, now) -> {
                ControllerRevision cr = (ControllerRevision) o;
                return row(meta(cr).getName(), controller(meta(cr)), cr.getRevision() == null ? 0L : cr.getRevision(),
                        age(cr, now));
            });

    // ------------------------------------------------------------------ cells

    /** Complete, Failed, Terminating, Suspended, FailureTarget, SuccessCriteriaMet or Running, in kubectl's order. */
    static String jobStatus(Job job) {
        List<JobCondition> conditions = job.getStatus() == null || job.getStatus().getConditions() == null ? List.of()
                : job.getStatus().getConditions();
        if (has(conditions, "Complete")) {
            return "Complete";
        }
        if (has(conditions, "Failed")) {
            return "Failed";
        }
        if (meta(job).getDeletionTimestamp() != null) {
            return "Terminating";
        }
        for (String type : List.of("Suspended", "FailureTarget", "SuccessCriteriaMet")) {
            if (has(conditions, type)) {
                return type;
            }
        }
        return "Running";
    }

    private static boolean has(List<JobCondition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** {@code 1/5}, or for a work queue {@code 0/1 of 3}. */
    static String completions(JobSpec spec, JobStatus status) {
        int succeeded = n(status.getSucceeded());
        if (spec.getCompletions() != null) {
            return succeeded + "/" + spec.getCompletions();
        }
        if (spec.getParallelism() != null && spec.getParallelism() > 1) {
            return succeeded + "/1 of " + spec.getParallelism();
        }
        return succeeded + "/1";
    }

    private static String duration(JobStatus status, Instant now) {
        if (status.getStartTime() == null) {
            return "";
        }
        Instant end = status.getCompletionTime() == null ? now : status.getCompletionTime();
        return Ages.human(Duration.between(status.getStartTime(), end));
    }

    /** {@code statefulset.apps/web}: the controller owner reference as kubectl names it, or {@code <none>}. */
    private static String controller(ObjectMeta meta) {
        if (meta.getOwnerReferences() != null) {
            for (OwnerReference r : meta.getOwnerReferences()) {
                if (Boolean.TRUE.equals(r.getController())) {
                    String apiVersion = r.getApiVersion() == null ? "" : r.getApiVersion();
                    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
                    String kind = (r.getKind() == null ? "" : r.getKind()) + (group.isEmpty() ? "" : "." + group);
                    return kind.toLowerCase(Locale.ROOT) + "/" + r.getName();
                }
            }
        }
        return "<none>";
    }

    private static String names(PodTemplateSpec t) {
        return join(t, Container::getName);
    }

    private static String images(PodTemplateSpec t) {
        return join(t, Container::getImage);
    }

    private static String join(PodTemplateSpec t, java.util.function.Function<Container, String> f) {
        if (t == null || t.getSpec() == null || t.getSpec().getContainers() == null) {
            return "";
        }
        List<String> out = new ArrayList<>();
        for (Container c : t.getSpec().getContainers()) {
            out.add(nz(f.apply(c)));
        }
        return String.join(",", out);
    }

    private static String selector(LabelSelector s) {
        return Columns.orNone(LabelSelectors.toString(s));
    }

    private static ObjectMeta meta(SpecificRecord o) {
        return ObjectAccess.meta(o);
    }

    private static int n(Integer i) {
        return i == null ? 0 : i;
    }
}
