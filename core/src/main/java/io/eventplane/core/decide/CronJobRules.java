package io.eventplane.core.decide;

import io.eventplane.core.cron.CronSchedule;
import io.eventplane.log.StatusCause;
import io.eventplane.model.CronJob;
import io.eventplane.model.CronJobSpec;
import io.eventplane.model.CronJobStatus;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobTemplateSpec;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/** batch/v1 CronJob defaulting and validation (workloads.md §8.1, §8.2, §8.5: CJ-03 to CJ-07, CJ-X01 to CJ-X04). */
final class CronJobRules implements KindRules<CronJob> {
    /** Job names are the CronJob's name plus 11 characters, and at most 63 (CJ-03). */
    static final int MAX_NAME = 52;
    static final List<String> CONCURRENCY = List.of("Allow", "Forbid", "Replace");

    @Override
    public CronJob defaults(CronJob cj) {
        if (cj.getSpec() == null) {
            return cj;
        }
        CronJobSpec.Builder spec = CronJobSpec.newBuilder(cj.getSpec());
        if (spec.getConcurrencyPolicy() == null || spec.getConcurrencyPolicy().isEmpty()) {
            spec.setConcurrencyPolicy("Allow"); // CJ-X01
        }
        if (spec.getSuspend() == null) {
            spec.setSuspend(false); // CJ-X02
        }
        if (spec.getSuccessfulJobsHistoryLimit() == null) {
            spec.setSuccessfulJobsHistoryLimit(3); // CJ-X03
        }
        if (spec.getFailedJobsHistoryLimit() == null) {
            spec.setFailedJobsHistoryLimit(1);
        }
        // Only the pod defaults apply inside the job template; the Job's own defaults come when a Job is created.
        JobTemplateSpec jt = spec.getJobTemplate();
        if (jt != null && jt.getSpec() != null) {
            JobSpec js = JobSpec.newBuilder(jt.getSpec()).setTemplate(Workloads.defaults(jt.getSpec().getTemplate())).build();
            spec.setJobTemplate(JobTemplateSpec.newBuilder(jt).setSpec(js).build());
        }
        return CronJob.newBuilder(cj).setSpec(spec.build()).build();
    }

    @Override
    public CronJob prepareForCreate(CronJob cj, Instant now) {
        return CronJob.newBuilder(cj).setStatus(new CronJobStatus()).build();
    }

    @Override
    public List<StatusCause> validate(CronJob cj) {
        List<StatusCause> causes = new ArrayList<>();
        CronJobSpec spec = cj.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        String schedule = spec.getSchedule();
        if (schedule == null || schedule.isEmpty()) {
            causes.add(Causes.required("spec.schedule"));
        } else {
            try {
                CronSchedule.parse(schedule); // CJ-04 to CJ-07
            } catch (IllegalArgumentException e) {
                causes.add(Causes.invalid("spec.schedule", schedule, e.getMessage()));
            }
            if (schedule.contains("TZ")) { // CJ-X04
                causes.add(Causes.invalid("spec.schedule", schedule,
                        "cannot use TZ or CRON_TZ in schedule, use timeZone field instead"));
            }
        }
        if (spec.getTimeZone() != null) {
            timeZone(spec.getTimeZone(), causes);
        }
        String concurrency = spec.getConcurrencyPolicy() == null ? "" : spec.getConcurrencyPolicy();
        if (!CONCURRENCY.contains(concurrency)) {
            causes.add(Causes.notSupported("spec.concurrencyPolicy", concurrency, CONCURRENCY));
        }
        Workloads.nonNegative("spec.startingDeadlineSeconds", spec.getStartingDeadlineSeconds(), causes);
        Workloads.nonNegative("spec.successfulJobsHistoryLimit", spec.getSuccessfulJobsHistoryLimit(), causes);
        Workloads.nonNegative("spec.failedJobsHistoryLimit", spec.getFailedJobsHistoryLimit(), causes);
        JobTemplateSpec jt = spec.getJobTemplate();
        JobSpec js = jt == null || jt.getSpec() == null ? new JobSpec() : jt.getSpec();
        JobRules.validateSpec("spec.jobTemplate.spec", js, causes); // CJ-08
        if (Boolean.TRUE.equals(js.getManualSelector())) {
            causes.add(Causes.notSupported("spec.jobTemplate.spec.manualSelector", true, List.of("nil", "false")));
        }
        return causes;
    }

    private static void timeZone(String zone, List<StatusCause> causes) {
        if (zone.equalsIgnoreCase("Local")) {
            causes.add(Causes.invalid("spec.timeZone", zone,
                    "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones"));
            return;
        }
        try {
            ZoneId.of(zone);
        } catch (DateTimeException e) {
            causes.add(Causes.invalid("spec.timeZone", zone, "unknown time zone " + zone));
        }
    }

    /** CJ-03, AC-CJ-07: at most 52 characters, checked on creation only (as Kubernetes does). */
    @Override
    public List<StatusCause> validateCreate(CronJob cj) {
        String name = cj.getMetadata() == null ? null : cj.getMetadata().getName();
        if (name != null && name.length() > MAX_NAME) {
            return List.of(Causes.invalid("metadata.name", name, "must be no more than " + MAX_NAME + " characters"));
        }
        return List.of();
    }
}
