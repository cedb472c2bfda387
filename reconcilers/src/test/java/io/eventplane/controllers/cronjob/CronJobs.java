package io.eventplane.controllers.cronjob;

import io.eventplane.model.Container;
import io.eventplane.model.CronJob;
import io.eventplane.model.CronJobSpec;
import io.eventplane.model.CronJobStatus;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.JobTemplateSpec;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/** The seed's CronJob {@code hello} (AC-CJ-01), as sent and as stored, and Jobs in the states a Job controller writes. */
final class CronJobs {
    private CronJobs() {
    }

    /** hello: busybox printing the date and a greeting, restartPolicy OnFailure, as a user sends it. */
    static CronJob hello(String schedule) {
        Container c = Container.newBuilder().setName("hello").setImage("busybox")
                .setCommand(List.of("/bin/sh", "-c", "date; echo Hello from the Kubernetes cluster")).build();
        PodTemplateSpec pod = PodTemplateSpec.newBuilder()
                .setSpec(PodSpec.newBuilder().setContainers(List.of(c)).setRestartPolicy("OnFailure").build()).build();
        return CronJob.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("hello").setNamespace("default").build())
                .setSpec(CronJobSpec.newBuilder().setSchedule(schedule)
                        .setJobTemplate(JobTemplateSpec.newBuilder().setSpec(JobSpec.newBuilder().setTemplate(pod).build())
                                .build()).build())
                .build();
    }

    static CronJob withSpec(CronJob cj, UnaryOperator<CronJobSpec.Builder> change) {
        return CronJob.newBuilder(cj).setSpec(change.apply(CronJobSpec.newBuilder(cj.getSpec())).build()).build();
    }

    /** As the writer stores it: uid, resourceVersion, creation time, the defaults (Allow, not suspended, 3 and 1). */
    static CronJob stored(CronJob cj, Instant created) {
        CronJobSpec.Builder spec = CronJobSpec.newBuilder(cj.getSpec());
        if (spec.getConcurrencyPolicy() == null) {
            spec.setConcurrencyPolicy("Allow");
        }
        if (spec.getSuspend() == null) {
            spec.setSuspend(false);
        }
        if (spec.getSuccessfulJobsHistoryLimit() == null) {
            spec.setSuccessfulJobsHistoryLimit(3);
        }
        if (spec.getFailedJobsHistoryLimit() == null) {
            spec.setFailedJobsHistoryLimit(1);
        }
        return CronJob.newBuilder(cj).setSpec(spec.build())
                .setMetadata(ObjectMeta.newBuilder(cj.getMetadata()).setUid("cj-uid").setResourceVersion("7")
                        .setCreationTimestamp(created).build())
                .setStatus(cj.getStatus() == null ? new CronJobStatus() : cj.getStatus())
                .build();
    }

    static CronJob withStatus(CronJob cj, UnaryOperator<CronJobStatus.Builder> change) {
        return CronJob.newBuilder(cj).setStatus(change.apply(CronJobStatus.newBuilder(cj.getStatus())).build()).build();
    }

    /** The Job this controller makes for {@code scheduled}, as stored (uid {@code job-<minutes>}), not finished. */
    static Job job(CronJob cj, Instant scheduled) {
        Job j = CronJobJobs.newJob(cj, scheduled, ZoneOffset.UTC);
        return Job.newBuilder(j).setMetadata(ObjectMeta.newBuilder(j.getMetadata())
                        .setUid("job-" + scheduled.getEpochSecond() / 60).setResourceVersion("1").setCreationTimestamp(scheduled).build())
                .setStatus(JobStatus.newBuilder().setStartTime(scheduled).setActive(1).build()).build();
    }

    /** A Job made by {@code kubectl create job --from=cronjob/...}: controlled by the CronJob, no scheduled time. */
    static Job manual(CronJob cj, String name, Instant created) {
        Job j = job(cj, created);
        Map<String, String> annotations = new HashMap<>(Map.of("cronjob.kubernetes.io/instantiate", "manual"));
        return Job.newBuilder(j).setMetadata(ObjectMeta.newBuilder(j.getMetadata()).setName(name).setUid("manual-" + name)
                .setAnnotations(annotations).build()).build();
    }

    /** Finished successfully at {@code at}, with the conditions Kubernetes 1.33's Job controller writes. */
    static Job complete(Job j, Instant at) {
        return finished(j, at, "SuccessCriteriaMet", "Complete", "CompletionsReached", true);
    }

    static Job failed(Job j, Instant at) {
        return finished(j, at, "FailureTarget", "Failed", "BackoffLimitExceeded", false);
    }

    private static Job finished(Job j, Instant at, String target, String type, String reason, boolean success) {
        List<JobCondition> conditions = List.of(
                JobCondition.newBuilder().setType(target).setStatus("True").setReason(reason).setLastTransitionTime(at).build(),
                JobCondition.newBuilder().setType(type).setStatus("True").setReason(reason).setLastTransitionTime(at).build());
        JobStatus.Builder s = JobStatus.newBuilder(j.getStatus() == null ? new JobStatus() : j.getStatus())
                .setActive(0).setConditions(conditions);
        if (s.getStartTime() == null) {
            s.setStartTime(j.getMetadata().getCreationTimestamp());
        }
        if (success) {
            s.setSucceeded(1).setCompletionTime(at);
        } else {
            s.setFailed(1);
        }
        return Job.newBuilder(j).setStatus(s.build()).build();
    }
}
