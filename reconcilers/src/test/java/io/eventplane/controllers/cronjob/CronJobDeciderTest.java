package io.eventplane.controllers.cronjob;

import static io.eventplane.controllers.cronjob.CronJobs.complete;
import static io.eventplane.controllers.cronjob.CronJobs.failed;
import static io.eventplane.controllers.cronjob.CronJobs.hello;
import static io.eventplane.controllers.cronjob.CronJobs.job;
import static io.eventplane.controllers.cronjob.CronJobs.stored;
import static io.eventplane.controllers.cronjob.CronJobs.withSpec;
import static io.eventplane.controllers.cronjob.CronJobs.withStatus;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.events.EventNotice;
import io.eventplane.model.CronJob;
import io.eventplane.model.CronJobStatus;
import io.eventplane.model.Job;
import io.eventplane.model.JobTemplateSpec;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** One step of the CronJob controller, decided on given objects at a given time (workloads.md §8). */
class CronJobDeciderTest {
    private static final Instant T0 = Instant.parse("2026-01-01T08:29:00Z");
    private static final CronJob EVERY_MINUTE = stored(hello("*/1 * * * *"), T0);

    /** The decision's parts, for assertions. */
    record Step(List<Job> created, List<Action.Delete> deleted, CronJobStatus status, List<String> events,
                Duration requeueAfter, Reconciliation raw) {
        List<String> createdNames() {
            return created.stream().map(j -> j.getMetadata().getName()).toList();
        }

        List<String> deletedNames() {
            return deleted.stream().map(Action.Delete::name).toList();
        }
    }

    static Step decide(CronJob cj, List<Job> jobs, Instant now) {
        return decide(cj, jobs, now, ZoneOffset.UTC);
    }

    static Step decide(CronJob cj, List<Job> jobs, Instant now, ZoneId zone) {
        Reconciliation r = CronJobDecider.decide(cj, jobs,
                name -> jobs.stream().anyMatch(j -> j.getMetadata().getName().equals(name)), now, zone);
        List<Job> created = new ArrayList<>();
        List<Action.Delete> deleted = new ArrayList<>();
        List<String> events = new ArrayList<>();
        CronJobStatus status = null;
        for (Action a : r.actions()) {
            List<Action> parts = new ArrayList<>();
            flatten(a, parts);
            for (Action p : parts) {
                if (p instanceof Action.Create c) {
                    created.add((Job) c.object());
                } else if (p instanceof Action.Delete d) {
                    deleted.add(d);
                } else if (p instanceof Action.UpdateStatus u) {
                    status = ((CronJob) u.object()).getStatus();
                }
                if (p.onAccepted() != null) {
                    events.add(p.onAccepted().reason() + ": " + p.onAccepted().message());
                }
            }
        }
        for (EventNotice e : r.events()) {
            events.add(e.reason() + ": " + e.message());
        }
        return new Step(created, deleted, status, events, r.requeueAfter(), r);
    }

    private static void flatten(Action a, List<Action> out) {
        if (a instanceof Action.Then t) {
            flatten(t.first(), out);
            flatten(t.then(), out);
        } else {
            out.add(a);
        }
    }

    private static Instant at(String time) {
        return Instant.parse("2026-01-01T" + time + "Z");
    }

    private static String nameAt(String time) {
        return "hello-" + at(time).getEpochSecond() / 60;
    }

    @Test
    @DisplayName("CJ-01 CJ-08 CJ-09 CJ-X05 the Job for 08:30: hello-<minutes since the epoch>, the template's labels, "
            + "annotations and spec, the scheduled-timestamp annotation, a controller reference to the CronJob")
    void theJob() {
        CronJob cj = withSpec(EVERY_MINUTE, s -> s.setJobTemplate(JobTemplateSpec.newBuilder(s.getJobTemplate())
                .setMetadata(ObjectMeta.newBuilder().setLabels(Map.of("app", "hello"))
                        .setAnnotations(Map.of("team", "a")).build()).build()));
        Step s = decide(cj, List.of(), at("08:30:00.100"));
        assertEquals(List.of("hello-" + (1767225600 + 8 * 3600 + 30 * 60) / 60), s.createdNames());
        Job j = s.created().get(0);
        assertEquals("default", j.getMetadata().getNamespace());
        assertEquals(Map.of("app", "hello"), j.getMetadata().getLabels());
        assertEquals(Map.of("team", "a", "batch.kubernetes.io/cronjob-scheduled-timestamp", "2026-01-01T08:30:00Z"),
                j.getMetadata().getAnnotations());
        OwnerReference ref = j.getMetadata().getOwnerReferences().get(0);
        assertEquals(List.of("batch/v1", "CronJob", "hello", "cj-uid", true, true), List.of(ref.getApiVersion(),
                ref.getKind(), ref.getName(), ref.getUid(), ref.getController(), ref.getBlockOwnerDeletion()));
        assertEquals(cj.getSpec().getJobTemplate().getSpec(), j.getSpec());
        assertTrue(("a".repeat(52) + "-" + at("08:30:00").getEpochSecond() / 60).length() <= 63, "CJ-03 room for the suffix");
        assertEquals(List.of("SuccessfulCreate: Created job " + nameAt("08:30:00")), s.events());
        assertEquals(Duration.ofSeconds(60), s.requeueAfter(), "wake at 08:31:00.100");
    }

    @Test
    @DisplayName("CJ-01 nothing is due before the first scheduled time; the controller asks to wake just after it")
    void notYet() {
        Step s = decide(EVERY_MINUTE, List.of(), at("08:29:20"));
        assertEquals(List.of(), s.createdNames());
        assertEquals(Duration.ofMillis(40_100), s.requeueAfter());
        assertNull(s.status(), "nothing to write");
    }

    @Test
    @DisplayName("CJ-X06 a Job this controller created joins status.active and sets lastScheduleTime; when it finishes "
            + "it leaves (SawCompletedJob) and sets lastSuccessfulTime")
    void activeAndLastTimes() {
        Job running = job(EVERY_MINUTE, at("08:30:00"));
        Step s = decide(EVERY_MINUTE, List.of(running), at("08:30:01"));
        assertEquals(List.of(), s.createdNames(), "its name is taken: no second Job");
        assertEquals(List.of(nameAt("08:30:00")), s.status().getActive().stream().map(ObjectReference::getName).toList());
        ObjectReference ref = s.status().getActive().get(0);
        assertEquals(List.of("Job", "batch/v1", "default", running.getMetadata().getName(), running.getMetadata().getUid()),
                List.of(ref.getKind(), ref.getApiVersion(), ref.getNamespace(), ref.getName(), ref.getUid()));
        assertEquals(at("08:30:00"), s.status().getLastScheduleTime());

        CronJob recorded = withStatus(EVERY_MINUTE, b -> b.setActive(List.of(ref)).setLastScheduleTime(at("08:30:00")));
        Step done = decide(recorded, List.of(complete(running, at("08:30:20"))), at("08:30:21"));
        assertNull(done.status().getActive());
        assertEquals(at("08:30:20"), done.status().getLastSuccessfulTime());
        assertEquals(List.of("SawCompletedJob: Saw completed job: " + nameAt("08:30:00") + ", condition: Complete"),
                done.events());
    }

    @Test
    @DisplayName("CJ-X06 an active Job that vanished leaves status.active with MissingJob; a Job the CronJob controls but "
            + "did not create (kubectl create job --from) is not active: UnexpectedJob")
    void missingAndUnexpected() {
        ObjectReference gone = ObjectReference.newBuilder().setKind("Job").setNamespace("default").setName("hello-1")
                .setUid("gone").build();
        CronJob cj = withStatus(EVERY_MINUTE, b -> b.setActive(List.of(gone)).setLastScheduleTime(at("08:29:00")));
        Step s = decide(cj, List.of(CronJobs.manual(cj, "hello-manual", at("08:29:10"))), at("08:29:30"));
        assertNull(s.status().getActive());
        assertEquals(List.of("MissingJob: Active job went missing: hello-1",
                "UnexpectedJob: Saw a job that the controller did not create or forgot: hello-manual"), s.events());
    }

    @Test
    @DisplayName("CJ-X03 JOB-23 (capacity-based cleanup) finished Jobs beyond successfulJobsHistoryLimit 3 and failedJobsHistoryLimit 1 are deleted, "
            + "oldest start first, in the background (with their pods); running ones stay")
    void history() {
        List<Job> jobs = new ArrayList<>();
        for (int m = 0; m < 5; m++) {
            Instant t = at("08:3" + m + ":00");
            jobs.add(complete(job(EVERY_MINUTE, t), t.plusSeconds(20)));
        }
        jobs.add(failed(job(EVERY_MINUTE, at("08:35:00")), at("08:35:30")));
        jobs.add(failed(job(EVERY_MINUTE, at("08:36:00")), at("08:36:30")));
        jobs.add(job(EVERY_MINUTE, at("08:37:00")));
        CronJob cj = withStatus(EVERY_MINUTE, b -> b.setLastScheduleTime(at("08:37:00")));
        Step s = decide(cj, jobs, at("08:37:40"));
        assertEquals(List.of(nameAt("08:30:00"), nameAt("08:31:00"), nameAt("08:35:00")), s.deletedNames());
        assertTrue(s.deleted().stream().allMatch(d -> "Background".equals(d.propagationPolicy()) && d.uid() != null));
        assertTrue(s.events().contains("SuccessfulDelete: Deleted job " + nameAt("08:30:00")), s.events().toString());

        Step none = decide(withSpec(cj, b -> b.setSuccessfulJobsHistoryLimit(0).setFailedJobsHistoryLimit(0)), jobs,
                at("08:37:40"));
        assertEquals(7, none.deleted().size(), "CJ-X03 limit 0 keeps no finished Job");
    }

    @Test
    @DisplayName("CJ-X03 a finished Job whose time the stored lastScheduleTime does not cover yet is kept one step, so "
            + "its time cannot look unmet and start again")
    void historyWaitsForTheStatus() {
        CronJob cj = withSpec(withStatus(EVERY_MINUTE, b -> b.setLastScheduleTime(at("08:29:00"))),
                b -> b.setSuccessfulJobsHistoryLimit(0));
        Job quick = complete(job(cj, at("08:30:00")), at("08:30:01"));
        Step s = decide(cj, List.of(quick), at("08:30:02"));
        assertEquals(List.of(), s.deletedNames());
        assertEquals(at("08:30:00"), s.status().getLastScheduleTime());
        Step next = decide(withStatus(cj, b -> b.setLastScheduleTime(at("08:30:00"))), List.of(quick), at("08:30:03"));
        assertEquals(List.of(nameAt("08:30:00")), next.deletedNames());
        assertEquals(List.of(), next.createdNames());
    }

    @Test
    @DisplayName("AC-CJ-04 CJ-13 CJ-15(a) every minute from 08:30, controller down 08:29-10:21, startingDeadlineSeconds "
            + "unset: more than 100 missed, no Job starts, a Warning says why")
    void tooManyMissed() {
        for (String now : List.of("10:21:00", "10:22:00")) {
            Step s = decide(EVERY_MINUTE, List.of(), at(now));
            assertEquals(List.of(), s.createdNames(), now);
            assertEquals(List.of("TooManyMissedTimes: Cannot determine if job needs to be started. Too many missed start "
                    + "time (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew."), s.events());
            assertTrue(s.events().get(0).startsWith("TooManyMissedTimes: Cannot determine if job needs to be started. "
                    + "Too many missed start time (> 100). Set"), "the seed's (truncated) text");
        }
    }

    @Test
    @DisplayName("CJ-13 CJ-X09 (the seed's rule chosen, D17) 100 missed times still start the most recent; 101 do not")
    void exactlyAHundred() {
        CronJob cj = stored(hello("*/1 * * * *"), at("08:00:00"));
        assertEquals(ScheduleTimes.TOO_MANY, ScheduleTimes.unmet(io.eventplane.core.cron.CronSchedule.parse("*/1 * * * *"),
                ZoneOffset.UTC, at("08:00:00"), null, at("09:40:00")).count());
        assertEquals(List.of(nameAt("09:40:00")), decide(cj, List.of(), at("09:40:00")).createdNames());
        assertEquals(List.of(), decide(cj, List.of(), at("09:41:00")).createdNames());
    }

    @Test
    @DisplayName("AC-CJ-05 CJ-15(b) D16 the same outage with startingDeadlineSeconds 200: at 10:22:00 the last 200 s hold "
            + "3 missed times (10:19, 10:20, 10:21) and 10:22 is due: the 10:22 Job starts")
    void startingDeadline() {
        CronJob cj = withSpec(EVERY_MINUTE, b -> b.setStartingDeadlineSeconds(200L));
        ScheduleTimes.Unmet unmet = ScheduleTimes.unmet(io.eventplane.core.cron.CronSchedule.parse("*/1 * * * *"),
                ZoneOffset.UTC, T0, 200L, at("10:22:00"));
        assertEquals(3, unmet.missed());
        assertEquals(at("10:22:00"), unmet.mostRecent());
        assertEquals(List.of(nameAt("10:22:00")), decide(cj, List.of(), at("10:22:00")).createdNames());
    }

    @Test
    @DisplayName("CJ-12 AC-CJ-08 startingDeadlineSeconds 5: woken 100 ms after its time the Job starts; a time more than 5 s "
            + "past is missed")
    void shortDeadline() {
        CronJob cj = withSpec(EVERY_MINUTE, b -> b.setStartingDeadlineSeconds(5L));
        assertEquals(List.of(nameAt("08:30:00")), decide(cj, List.of(), at("08:30:00.100")).createdNames());
        Step late = decide(cj, List.of(), at("08:30:06"));
        assertEquals(List.of(), late.createdNames());
        assertEquals(Duration.ofMillis(54_100), late.requeueAfter());
    }

    @Test
    @DisplayName("AC-CJ-06 CJ-14 CJ-16 Forbid: while the previous Job runs, no new Job (that time is missed, JobAlreadyActive)")
    void forbid() {
        CronJob cj = withSpec(EVERY_MINUTE, b -> b.setConcurrencyPolicy("Forbid"));
        Job running = job(cj, at("08:30:00"));
        CronJob recorded = withStatus(cj, b -> b.setActive(List.of(ref(running))).setLastScheduleTime(at("08:30:00")));
        Step s = decide(recorded, List.of(running), at("08:31:00.100"));
        assertEquals(List.of(), s.createdNames());
        assertEquals(List.of("JobAlreadyActive: Not starting job because prior execution is running and concurrency "
                + "policy is Forbid"), s.events());
        assertEquals(Duration.ofSeconds(60), s.requeueAfter());
    }

    @Test
    @DisplayName("CJ-11 CJ-X01 Allow: the next Job starts while the previous runs")
    void allow() {
        Job running = job(EVERY_MINUTE, at("08:30:00"));
        CronJob recorded = withStatus(EVERY_MINUTE, b -> b.setActive(List.of(ref(running))).setLastScheduleTime(at("08:30:00")));
        assertEquals(List.of(nameAt("08:31:00")), decide(recorded, List.of(running), at("08:31:00.100")).createdNames());
    }

    @Test
    @DisplayName("CJ-X01 Replace: the running Job is deleted (background), then the new one created; it leaves status.active")
    void replace() {
        CronJob cj = withSpec(EVERY_MINUTE, b -> b.setConcurrencyPolicy("Replace"));
        Job running = job(cj, at("08:30:00"));
        CronJob recorded = withStatus(cj, b -> b.setActive(List.of(ref(running))).setLastScheduleTime(at("08:30:00")));
        Step s = decide(recorded, List.of(running), at("08:31:00.100"));
        Action.Then then = (Action.Then) s.raw().actions().stream().filter(a -> a instanceof Action.Then).findFirst().orElseThrow();
        assertEquals(running.getMetadata().getName(), ((Action.Delete) then.first()).name());
        assertEquals("Background", ((Action.Delete) then.first()).propagationPolicy());
        assertEquals(nameAt("08:31:00"), ((Job) ((Action.Create) then.then()).object()).getMetadata().getName());
        assertNull(s.status().getActive());
        assertEquals(List.of("SuccessfulDelete: Deleted job " + nameAt("08:30:00"),
                "SuccessfulCreate: Created job " + nameAt("08:31:00")), s.events());
    }

    @Test
    @DisplayName("CJ-X02 suspended: no Job and no wake-up, the status still follows the Jobs; unsuspended, the most "
            + "recent time missed meanwhile starts")
    void suspend() {
        CronJob cj = withStatus(withSpec(EVERY_MINUTE, b -> b.setSuspend(true)), b -> b.setLastScheduleTime(at("08:30:00")));
        Job done = complete(job(cj, at("08:30:00")), at("08:30:30"));
        Step s = decide(cj, List.of(done), at("08:35:00.100"));
        assertEquals(List.of(), s.createdNames());
        assertNull(s.requeueAfter());
        assertEquals(at("08:30:30"), s.status().getLastSuccessfulTime());
        CronJob resumed = withSpec(cj, b -> b.setSuspend(false));
        assertEquals(List.of(nameAt("08:35:00")), decide(resumed, List.of(done), at("08:35:10")).createdNames());
    }

    @Test
    @DisplayName("CJ-02 AC-CJ-09 without timeZone the controller-manager's zone applies: 0 9 * * * at UTC+2 fires at 07:00 UTC")
    void controllerZone() {
        CronJob cj = stored(hello("0 9 * * *"), Instant.parse("2026-01-01T00:00:00Z"));
        ZoneId plus2 = ZoneOffset.ofHours(2);
        Step early = decide(cj, List.of(), Instant.parse("2026-01-01T06:00:00Z"), plus2);
        assertEquals(List.of(), early.createdNames());
        assertEquals(Duration.ofHours(1).plusMillis(100), early.requeueAfter());
        Step s = decide(cj, List.of(), Instant.parse("2026-01-01T07:00:00.100Z"), plus2);
        assertEquals(List.of("hello-" + Instant.parse("2026-01-01T07:00:00Z").getEpochSecond() / 60), s.createdNames());
        assertEquals("2026-01-01T07:00:00Z", s.created().get(0).getMetadata().getAnnotations()
                .get(CronJobJobs.SCHEDULED_TIMESTAMP), "no timeZone: the annotation is in UTC, as Kubernetes writes it");
    }

    @Test
    @DisplayName("CJ-X04 timeZone: the schedule and the scheduled-timestamp annotation are in that zone; an unknown zone "
            + "starts nothing (UnknownTimeZone)")
    void timeZone() {
        CronJob cj = withSpec(stored(hello("0 9 * * *"), Instant.parse("2026-01-01T00:00:00Z")),
                b -> b.setTimeZone("Europe/Berlin"));
        Step s = decide(cj, List.of(), Instant.parse("2026-01-01T08:00:00.100Z"));
        assertEquals("2026-01-01T09:00:00+01:00", s.created().get(0).getMetadata().getAnnotations()
                .get(CronJobJobs.SCHEDULED_TIMESTAMP));
        Step bad = decide(withSpec(cj, b -> b.setTimeZone("Mars/Olympus")), List.of(), Instant.parse("2026-01-01T08:00:00.100Z"));
        assertEquals(List.of(), bad.createdNames());
        assertEquals(List.of("UnknownTimeZone: invalid timeZone: \"Mars/Olympus\": unknown time zone Mars/Olympus"), bad.events());
    }

    @Test
    @DisplayName("CJ-05 @every counts from the creation time, and the controller wakes on that grid")
    void every() {
        CronJob cj = stored(hello("@every 1h30m"), at("08:29:30"));
        assertEquals(Duration.ofMinutes(90).plusMillis(100), decide(cj, List.of(), at("08:29:30")).requeueAfter());
        assertEquals(List.of(nameAt("09:59:30")), decide(cj, List.of(), at("09:59:30.100")).createdNames());
    }

    @Test
    @DisplayName("a CronJob being deleted only has its status kept; nothing starts")
    void deleting() {
        CronJob cj = CronJob.newBuilder(EVERY_MINUTE).setMetadata(ObjectMeta.newBuilder(EVERY_MINUTE.getMetadata())
                .setDeletionTimestamp(at("08:29:30")).build()).build();
        Step s = decide(cj, List.of(), at("08:30:00.100"));
        assertEquals(List.of(), s.createdNames());
        assertNull(s.requeueAfter());
    }

    private static ObjectReference ref(Job j) {
        return io.eventplane.client.events.ObjectReferences.of(j);
    }
}
