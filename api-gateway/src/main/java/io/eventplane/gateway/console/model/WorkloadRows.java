package io.eventplane.gateway.console.model;

import io.eventplane.core.Keys;
import io.eventplane.model.Container;
import io.eventplane.model.CronJob;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetCondition;
import io.eventplane.model.ReplicaSetStatus;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerStatus;
import io.eventplane.model.StatefulSet;
import io.eventplane.model.StatefulSetStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * Workloads of every kind as one row shape. {@code updated} is what a rollout counts towards {@code desired}: replicas
 * on the current template for Deployments, StatefulSets and DaemonSets, ready replicas for ReplicaSets and
 * ReplicationControllers (they have no template revisions), succeeded pods for Jobs.
 */
final class WorkloadRows {
    static final Set<String> KINDS = Set.of("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job", "CronJob",
            "ReplicationController");

    private WorkloadRows() {
    }

    static WorkloadRow of(SpecificRecord object, long rv) {
        if (object instanceof Deployment d) {
            return deployment(d, rv);
        } else if (object instanceof ReplicaSet rs) {
            ReplicaSetStatus s = rs.getStatus() == null ? new ReplicaSetStatus() : rs.getStatus();
            int desired = rs.getSpec() == null || rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas();
            String failure = null;
            for (ReplicaSetCondition c : PodRows.list(s.getConditions())) {
                if ("ReplicaFailure".equals(c.getType()) && "True".equals(c.getStatus())) {
                    failure = c.getMessage();
                }
            }
            return replicas(rs.getMetadata(), "ReplicaSet", rv, desired, n(s.getReplicas()), n(s.getReadyReplicas()),
                    n(s.getAvailableReplicas()), failure, rs.getSpec() == null ? null : rs.getSpec().getTemplate());
        } else if (object instanceof ReplicationController rc) {
            ReplicationControllerStatus s = rc.getStatus() == null ? new ReplicationControllerStatus() : rc.getStatus();
            int desired = rc.getSpec() == null || rc.getSpec().getReplicas() == null ? 1 : rc.getSpec().getReplicas();
            return replicas(rc.getMetadata(), "ReplicationController", rv, desired, n(s.getReplicas()),
                    n(s.getReadyReplicas()), n(s.getAvailableReplicas()), null,
                    rc.getSpec() == null ? null : rc.getSpec().getTemplate());
        } else if (object instanceof StatefulSet ss) {
            StatefulSetStatus s = ss.getStatus() == null ? new StatefulSetStatus() : ss.getStatus();
            int desired = ss.getSpec() == null || ss.getSpec().getReplicas() == null ? 1 : ss.getSpec().getReplicas();
            boolean done = n(s.getUpdatedReplicas()) == desired && n(s.getReadyReplicas()) == desired
                    && n(s.getReplicas()) == desired;
            return row(ss.getMetadata(), "StatefulSet", rv, desired, n(s.getReplicas()), n(s.getUpdatedReplicas()),
                    n(s.getReadyReplicas()), n(s.getAvailableReplicas()), done ? "Complete" : "Progressing", null,
                    ss.getSpec() == null ? null : ss.getSpec().getTemplate());
        } else if (object instanceof DaemonSet ds) {
            DaemonSetStatus s = ds.getStatus() == null ? new DaemonSetStatus() : ds.getStatus();
            int desired = n(s.getDesiredNumberScheduled());
            boolean done = n(s.getUpdatedNumberScheduled()) == desired && n(s.getNumberAvailable()) == desired;
            return row(ds.getMetadata(), "DaemonSet", rv, desired, n(s.getCurrentNumberScheduled()),
                    n(s.getUpdatedNumberScheduled()), n(s.getNumberReady()), n(s.getNumberAvailable()),
                    done ? "Complete" : "Progressing", null, ds.getSpec() == null ? null : ds.getSpec().getTemplate());
        } else if (object instanceof Job job) {
            return job(job, rv);
        } else if (object instanceof CronJob cj) {
            boolean suspended = cj.getSpec() != null && Boolean.TRUE.equals(cj.getSpec().getSuspend());
            int active = cj.getStatus() == null ? 0 : PodRows.list(cj.getStatus().getActive()).size();
            String schedule = cj.getSpec() == null ? null : cj.getSpec().getSchedule();
            PodTemplateSpec template = cj.getSpec() == null || cj.getSpec().getJobTemplate() == null
                    || cj.getSpec().getJobTemplate().getSpec() == null ? null
                    : cj.getSpec().getJobTemplate().getSpec().getTemplate();
            return row(cj.getMetadata(), "CronJob", rv, 0, active, 0, 0, 0, suspended ? "Suspended" : "Scheduled",
                    "schedule " + schedule, template);
        }
        return null;
    }

    private static WorkloadRow deployment(Deployment d, long rv) {
        DeploymentStatus s = d.getStatus() == null ? new DeploymentStatus() : d.getStatus();
        int desired = d.getSpec() == null || d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        String state;
        String message = null;
        DeploymentCondition progressing = null;
        for (DeploymentCondition c : PodRows.list(s.getConditions())) {
            if ("Progressing".equals(c.getType())) {
                progressing = c;
            }
        }
        long generation = d.getMetadata() == null || d.getMetadata().getGeneration() == null ? 0
                : d.getMetadata().getGeneration();
        boolean observed = s.getObservedGeneration() != null && s.getObservedGeneration() >= generation;
        if (progressing != null) {
            message = progressing.getMessage();
        }
        if (progressing != null && "False".equals(progressing.getStatus())) {
            state = "Failed";
        } else if (d.getSpec() != null && Boolean.TRUE.equals(d.getSpec().getPaused())) {
            state = "Paused";
        } else if (observed && n(s.getUpdatedReplicas()) == desired && n(s.getAvailableReplicas()) == desired
                && n(s.getReplicas()) == desired) {
            state = "Complete";
        } else {
            state = "Progressing";
        }
        return row(d.getMetadata(), "Deployment", rv, desired, n(s.getReplicas()), n(s.getUpdatedReplicas()),
                n(s.getReadyReplicas()), n(s.getAvailableReplicas()), state, message,
                d.getSpec() == null ? null : d.getSpec().getTemplate());
    }

    private static WorkloadRow job(Job job, long rv) {
        JobStatus s = job.getStatus() == null ? new JobStatus() : job.getStatus();
        int completions = job.getSpec() == null || job.getSpec().getCompletions() == null ? 1
                : job.getSpec().getCompletions();
        String state = "Progressing";
        String message = null;
        for (JobCondition c : PodRows.list(s.getConditions())) {
            if ("True".equals(c.getStatus()) && List.of("Complete", "Failed", "Suspended").contains(c.getType())) {
                state = c.getType();
                message = c.getMessage();
            }
        }
        return row(job.getMetadata(), "Job", rv, completions, n(s.getActive()), n(s.getSucceeded()), n(s.getReady()),
                n(s.getSucceeded()), state, message, job.getSpec() == null ? null : job.getSpec().getTemplate());
    }

    private static WorkloadRow replicas(ObjectMeta meta, String kind, long rv, int desired, int current, int ready,
                                        int available, String failure, PodTemplateSpec template) {
        String state = failure != null ? "Failed" : current == desired && available == desired ? "Complete"
                : "Progressing";
        return row(meta, kind, rv, desired, current, ready, ready, available, state, failure, template);
    }

    private static WorkloadRow row(ObjectMeta meta, String kind, long rv, int desired, int current, int updated,
                                   int ready, int available, String state, String message, PodTemplateSpec template) {
        ObjectMeta m = meta == null ? new ObjectMeta() : meta;
        if (m.getDeletionTimestamp() != null) {
            state = "Terminating";
        }
        return new WorkloadRow(Keys.of(kind, m.getNamespace(), m.getName()), kind, m.getNamespace(), m.getName(),
                m.getUid(), rv, desired, current, updated, ready, available, state, message, images(template),
                PodRows.millis(m.getCreationTimestamp()));
    }

    private static List<String> images(PodTemplateSpec template) {
        PodSpec spec = template == null ? null : template.getSpec();
        if (spec == null) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (Container c : PodRows.list(spec.getContainers())) {
            out.add(c.getImage());
        }
        return out;
    }

    private static int n(Integer i) {
        return i == null ? 0 : i;
    }
}
