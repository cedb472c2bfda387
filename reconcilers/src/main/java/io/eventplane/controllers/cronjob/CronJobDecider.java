package io.eventplane.controllers.cronjob;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.cron.CronSchedule;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.CronJob;
import io.eventplane.model.CronJobSpec;
import io.eventplane.model.CronJobStatus;
import io.eventplane.model.Job;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One step of the CronJob controller (workloads.md §8, Kubernetes' cronjob controller v2 with the seed's missed-schedule
 * rule): the status observed from the CronJob's Jobs (active references, lastScheduleTime, lastSuccessfulTime, CJ-X06),
 * finished Jobs beyond the history limits deleted oldest first (CJ-X03), and the Job for the most recent unmet scheduled
 * time created, subject to suspend (CJ-X02), the time zone (CJ-02, CJ-X04), startingDeadlineSeconds and the too-many-missed
 * rule (CJ-13) and the concurrency policy (CJ-16, CJ-X01). The decision asks to be woken at the next scheduled time.
 * Pure: time comes in as {@code now}, the controller-manager's zone as {@code defaultZone}.
 *
 * <p>A Job's uid is only known once it exists, so its reference joins {@code status.active} in the step after its
 * creation; until then its deterministic name, and the scheduled time its annotation records, keep the same time from
 * being started twice.
 */
public final class CronJobDecider {
    static final String TOO_MANY_MISSED = "Cannot determine if job needs to be started. Too many missed start time (> "
            + ScheduleTimes.TOO_MANY + "). Set or decrease .spec.startingDeadlineSeconds or check clock skew.";

    private CronJobDecider() {
    }

    /**
     * @param jobs      the Jobs the CronJob controls (controller reference with its uid)
     * @param nameTaken whether a Job of that name exists in the CronJob's namespace, whoever controls it
     */
    public static Reconciliation decide(CronJob cj, List<Job> jobs, Predicate<String> nameTaken, Instant now,
                                        ZoneId defaultZone) {
        if (cj.getMetadata() == null || cj.getMetadata().getUid() == null || cj.getSpec() == null) {
            return Reconciliation.NOTHING;
        }
        List<Action> actions = new ArrayList<>();
        List<EventNotice> events = new ArrayList<>();
        ObjectReference self = ObjectReferences.of(cj);
        CronJobSpec spec = cj.getSpec();
        CronJobStatus old = cj.getStatus() == null ? new CronJobStatus() : cj.getStatus();

        Map<String, ObjectReference> active = activeJobs(cj, old, jobs, self, events);
        Instant lastScheduled = old.getLastScheduleTime();
        Instant lastSucceeded = old.getLastSuccessfulTime();
        for (Job j : jobs) {
            Instant t = CronJobJobs.scheduledTime(cj, j).orElse(null);
            lastScheduled = later(lastScheduled, t);
            if (CronJobJobs.succeeded(j) && j.getStatus().getCompletionTime() != null) {
                lastSucceeded = later(lastSucceeded, j.getStatus().getCompletionTime());
            }
        }
        cleanUpHistory(cj, old.getLastScheduleTime(), jobs, self, actions);

        Duration requeue = null;
        Set<String> replaced = new HashSet<>();
        if (cj.getMetadata().getDeletionTimestamp() == null && !Boolean.TRUE.equals(spec.getSuspend())) {
            Schedule s = schedule(cj, defaultZone, self, events);
            if (s != null) {
                Instant last = lastScheduled != null ? lastScheduled : cj.getMetadata().getCreationTimestamp();
                if (last == null) {
                    last = now;
                }
                requeue = ScheduleTimes.wakeAfter(s.cron(), s.zone(), last, now);
                ScheduleTimes.Unmet unmet = ScheduleTimes.unmet(s.cron(), s.zone(), last, spec.getStartingDeadlineSeconds(), now);
                if (unmet.tooMany()) {
                    events.add(EventNotice.warning(self, "TooManyMissedTimes", TOO_MANY_MISSED));
                } else if (unmet.mostRecent() != null) {
                    start(cj, unmet.mostRecent(), s.annotationZone(), active, nameTaken, self, actions, events, replaced);
                }
            }
        }

        List<ObjectReference> stillActive = active.values().stream()
                .filter(r -> !replaced.contains(r.getUid())).toList();
        CronJobStatus next = CronJobStatus.newBuilder(old)
                .setActive(stillActive.isEmpty() ? null : stillActive)
                .setLastScheduleTime(lastScheduled)
                .setLastSuccessfulTime(lastSucceeded)
                .build();
        if (!next.equals(cj.getStatus() == null ? new CronJobStatus() : cj.getStatus())) {
            // the status carries what the view showed; the resourceVersion makes a stale write fail instead of erase
            actions.add(0, new Action.UpdateStatus(CronJob.newBuilder(cj).setStatus(next).build()));
        }
        return new Reconciliation(actions, events, requeue);
    }

    /**
     * The references of the running Jobs: those in the status whose Jobs still run, then the unfinished Jobs this
     * controller created that the status does not list yet. Finished and vanished ones leave, with an Event each.
     */
    private static Map<String, ObjectReference> activeJobs(CronJob cj, CronJobStatus old, List<Job> jobs,
                                                           ObjectReference self, List<EventNotice> events) {
        Map<String, Job> byUid = new LinkedHashMap<>();
        jobs.forEach(j -> byUid.put(j.getMetadata().getUid(), j));
        Map<String, ObjectReference> active = new LinkedHashMap<>();
        for (ObjectReference ref : old.getActive() == null ? List.<ObjectReference>of() : old.getActive()) {
            Job j = byUid.get(ref.getUid());
            if (j == null) {
                events.add(EventNotice.normal(self, "MissingJob", "Active job went missing: " + ref.getName()));
            } else if (CronJobJobs.finished(j).isPresent()) {
                events.add(EventNotice.normal(self, "SawCompletedJob", "Saw completed job: " + ref.getName()
                        + ", condition: " + CronJobJobs.finished(j).get()));
            } else {
                active.put(ref.getUid(), ref);
            }
        }
        List<Job> unlisted = jobs.stream().filter(j -> CronJobJobs.finished(j).isEmpty()
                && !active.containsKey(j.getMetadata().getUid())).sorted(Comparator.comparing(j -> j.getMetadata().getName())).toList();
        for (Job j : unlisted) {
            if (CronJobJobs.scheduledTime(cj, j).isPresent()) {
                active.put(j.getMetadata().getUid(), ObjectReferences.of(j));
            } else {
                events.add(EventNotice.warning(self, "UnexpectedJob",
                        "Saw a job that the controller did not create or forgot: " + j.getMetadata().getName()));
            }
        }
        return active;
    }

    /**
     * CJ-X03: finished Jobs beyond successfulJobsHistoryLimit / failedJobsHistoryLimit go, oldest first, with their pods.
     * A Job whose scheduled time the stored lastScheduleTime does not cover yet waits a step: deleted before the status
     * records it, its time would look unmet and start again.
     */
    private static void cleanUpHistory(CronJob cj, Instant recorded, List<Job> jobs, ObjectReference self,
                                       List<Action> actions) {
        CronJobSpec spec = cj.getSpec();
        for (String type : List.of(CronJobJobs.COMPLETE, CronJobJobs.FAILED)) {
            Integer limit = type.equals(CronJobJobs.COMPLETE) ? spec.getSuccessfulJobsHistoryLimit() : spec.getFailedJobsHistoryLimit();
            if (limit == null) {
                continue;
            }
            List<Job> finished = jobs.stream().filter(j -> j.getMetadata().getDeletionTimestamp() == null
                    && CronJobJobs.finished(j).map(type::equals).orElse(false)).sorted(CronJobJobs.BY_START_TIME).toList();
            for (int i = 0; i < finished.size() - limit; i++) {
                Instant scheduled = CronJobJobs.scheduledTime(cj, finished.get(i)).orElse(null);
                if (scheduled == null || recorded != null && !scheduled.isAfter(recorded)) {
                    actions.add(delete(finished.get(i), self));
                }
            }
        }
    }

    private static Action.Delete delete(Job j, ObjectReference self) {
        ObjectMeta m = j.getMetadata();
        return new Action.Delete(Kinds.JOB, m.getNamespace(), m.getName(), m.getUid(), null, "Background", null,
                EventNotice.normal(self, "SuccessfulDelete", "Deleted job " + m.getName()), "FailedDelete");
    }

    /** The schedule and its zones, or null (with a Warning) when the CronJob cannot be scheduled. */
    private record Schedule(CronSchedule cron, ZoneId zone, ZoneId annotationZone) {
    }

    private static Schedule schedule(CronJob cj, ZoneId defaultZone, ObjectReference self, List<EventNotice> events) {
        String timeZone = cj.getSpec().getTimeZone();
        ZoneId zone = defaultZone;
        ZoneId annotationZone = ZoneOffset.UTC;
        if (timeZone != null) {
            try {
                zone = ZoneId.of(timeZone);
                annotationZone = zone;
            } catch (DateTimeException e) {
                events.add(EventNotice.warning(self, "UnknownTimeZone", "invalid timeZone: \"" + timeZone
                        + "\": unknown time zone " + timeZone));
                return null;
            }
        }
        try {
            return new Schedule(CronSchedule.parse(cj.getSpec().getSchedule()), zone, annotationZone);
        } catch (IllegalArgumentException e) {
            events.add(EventNotice.warning(self, "UnparseableSchedule", "unparseable schedule: \""
                    + cj.getSpec().getSchedule() + "\" : " + e.getMessage()));
            return null;
        }
    }

    /**
     * Starts the Job for {@code scheduled} unless it exists or the concurrency policy forbids it (CJ-14, CJ-16: then
     * that time is missed); Replace deletes the running Jobs first (CJ-X01).
     */
    private static void start(CronJob cj, Instant scheduled, ZoneId annotationZone, Map<String, ObjectReference> active,
                              Predicate<String> nameTaken, ObjectReference self, List<Action> actions,
                              List<EventNotice> events, Set<String> replaced) {
        String name = CronJobJobs.name(cj, scheduled);
        if (nameTaken.test(name) || active.values().stream().anyMatch(r -> name.equals(r.getName()))) {
            return; // already started (its reference joins the status once it is in view)
        }
        String policy = Objects.requireNonNullElse(cj.getSpec().getConcurrencyPolicy(), "Allow");
        if (policy.equals("Forbid") && !active.isEmpty()) {
            events.add(EventNotice.normal(self, "JobAlreadyActive",
                    "Not starting job because prior execution is running and concurrency policy is Forbid"));
            return;
        }
        Action create = new Action.Create(CronJobJobs.newJob(cj, scheduled, annotationZone),
                EventNotice.normal(self, "SuccessfulCreate", "Created job " + name), "FailedCreate");
        if (policy.equals("Replace")) {
            List<ObjectReference> running = List.copyOf(active.values());
            for (int i = running.size() - 1; i >= 0; i--) {
                ObjectReference r = running.get(i);
                create = new Action.Then(new Action.Delete(Kinds.JOB, r.getNamespace(), r.getName(), r.getUid(), null,
                        "Background", null, EventNotice.normal(self, "SuccessfulDelete", "Deleted job " + r.getName()),
                        "FailedDelete"), create);
                replaced.add(r.getUid());
            }
        }
        actions.add(create);
    }

    private static Instant later(Instant a, Instant b) {
        if (a == null) {
            return b;
        }
        return b == null || !b.isAfter(a) ? a : b;
    }
}
