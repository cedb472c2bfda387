package io.eventplane.controllers.cronjob;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.CronJob;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobTemplateSpec;
import io.eventplane.model.ObjectMeta;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Jobs of a CronJob: how one is made from the template, named and recognised, and when it has finished. Pure. */
final class CronJobJobs {
    /** When the Job was scheduled, RFC 3339 in the CronJob's time zone (CJ-X05; Kubernetes 1.28+). */
    static final String SCHEDULED_TIMESTAMP = "batch.kubernetes.io/cronjob-scheduled-timestamp";
    static final String COMPLETE = "Complete";
    static final String FAILED = "Failed";
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX");

    private CronJobJobs() {
    }

    /** {@code <cronjob>-<scheduled time in minutes since the epoch>} (CJ-X05): the same name for the same time, so a second create is refused. */
    static String name(CronJob cj, Instant scheduled) {
        return cj.getMetadata().getName() + "-" + Math.floorDiv(scheduled.getEpochSecond(), 60);
    }

    /**
     * The Job for {@code scheduled}: the template's labels, annotations and spec, the scheduled-timestamp annotation
     * (in the CronJob's time zone, UTC when it names none, as Kubernetes formats it) and a controller reference to the
     * CronJob (CJ-08, CJ-09).
     */
    static Job newJob(CronJob cj, Instant scheduled, ZoneId annotationZone) {
        JobTemplateSpec template = cj.getSpec().getJobTemplate() == null ? new JobTemplateSpec() : cj.getSpec().getJobTemplate();
        ObjectMeta tm = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> annotations = tm.getAnnotations() == null ? new HashMap<>() : new HashMap<>(tm.getAnnotations());
        annotations.put(SCHEDULED_TIMESTAMP, RFC3339.format(scheduled.atZone(annotationZone)));
        ObjectMeta meta = ObjectMeta.newBuilder()
                .setName(name(cj, scheduled))
                .setNamespace(cj.getMetadata().getNamespace())
                .setLabels(tm.getLabels() == null ? null : new HashMap<>(tm.getLabels()))
                .setAnnotations(annotations)
                .setOwnerReferences(List.of(Owners.controllerRef(Kinds.CRON_JOB, cj.getMetadata())))
                .build();
        JobSpec spec = template.getSpec() == null ? new JobSpec() : JobSpec.newBuilder(template.getSpec()).build();
        return Job.newBuilder().setMetadata(meta).setSpec(spec).build();
    }

    /**
     * The time this controller scheduled {@code job} for, when it is one it created (its annotation names a time and
     * its name is the one for that time); empty for others, such as {@code kubectl create job --from=cronjob/...}.
     */
    static Optional<Instant> scheduledTime(CronJob cj, Job job) {
        Map<String, String> a = job.getMetadata().getAnnotations();
        String value = a == null ? null : a.get(SCHEDULED_TIMESTAMP);
        if (value == null) {
            return Optional.empty();
        }
        try {
            Instant t = OffsetDateTime.parse(value).toInstant();
            return name(cj, t).equals(job.getMetadata().getName()) ? Optional.of(t) : Optional.empty();
        } catch (DateTimeException e) {
            return Optional.empty();
        }
    }

    /** {@code Complete} or {@code Failed} when the Job has that condition True, else empty (still running). */
    static Optional<String> finished(Job job) {
        if (job.getStatus() == null || job.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        for (JobCondition c : job.getStatus().getConditions()) {
            if ((COMPLETE.equals(c.getType()) || FAILED.equals(c.getType())) && "True".equals(c.getStatus())) {
                return Optional.of(c.getType());
            }
        }
        return Optional.empty();
    }

    static boolean succeeded(Job job) {
        return finished(job).map(COMPLETE::equals).orElse(false);
    }

    /** Oldest first: by start time, Jobs that never started last, then by name (Kubernetes' byJobStartTime). */
    static final Comparator<Job> BY_START_TIME = Comparator
            .comparing((Job j) -> j.getStatus() == null ? null : j.getStatus().getStartTime(),
                    Comparator.nullsLast(Comparator.naturalOrder()))
            .thenComparing(j -> j.getMetadata().getName());
}
