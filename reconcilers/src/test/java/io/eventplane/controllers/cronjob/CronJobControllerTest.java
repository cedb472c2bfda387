package io.eventplane.controllers.cronjob;

import static io.eventplane.controllers.cronjob.CronJobs.hello;
import static io.eventplane.controllers.cronjob.CronJobs.withSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.CronJob;
import io.eventplane.model.CronJobSpec;
import io.eventplane.model.Job;
import io.eventplane.model.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The CronJob controller in {@link SimulatedCluster}: the writer's rules, the controller as the runtime runs it (woken
 * at the time its requeueAfter names), a virtual clock that jumps from one wake-up to the next, so a day of schedules
 * runs in a second. No Job controller runs here: a script finishes each Job after a given time, writing the status
 * (conditions Complete or Failed) that Kubernetes' Job controller writes.
 */
class CronJobControllerTest {
    private final SimulatedCluster cluster = new SimulatedCluster();
    private final Instant start = cluster.clock.instant();
    /** Every Job seen: name -> [scheduled time (annotation), creation time]. */
    private final Map<String, Instant[]> seen = new TreeMap<>();

    /** Jobs finish {@code runtime} after their creation, failed when {@code fails} says so. */
    private void jobsRun(Duration runtime, Predicate<Job> fails) {
        cluster.everyRound(c -> {
            Instant now = c.clock.instant();
            for (Job j : c.list(Job.class)) {
                ObjectMeta m = j.getMetadata();
                seen.computeIfAbsent(m.getName(), n -> new Instant[] {Instant.parse(
                        m.getAnnotations().get(CronJobJobs.SCHEDULED_TIMESTAMP)), m.getCreationTimestamp()});
                if (CronJobJobs.finished(j).isPresent()) {
                    continue;
                }
                Instant end = m.getCreationTimestamp().plus(runtime);
                if (now.isBefore(end)) {
                    c.wakeAt(end);
                } else {
                    c.updateStatus(fails.test(j) ? CronJobs.failed(j, now) : CronJobs.complete(j, now));
                }
            }
        });
    }

    private CronJob cronJob() {
        return cluster.get(CronJob.class, "hello");
    }

    private List<Job> jobs() {
        return cluster.list(Job.class);
    }

    private long running() {
        return jobs().stream().filter(j -> CronJobJobs.finished(j).isEmpty()).count();
    }

    private String nameAt(Instant t) {
        return "hello-" + t.getEpochSecond() / 60;
    }

    private void create(CronJob cj) {
        assertTrue(cluster.create(cj).getAccepted());
    }

    private void update(java.util.function.UnaryOperator<CronJobSpec.Builder> change) {
        assertTrue(cluster.update(withSpec(cronJob(), change)).getAccepted());
    }

    @Test
    @DisplayName("AC-CJ-01 CJ-01 CJ-07 CJ-09 CJ-10 CJ-X03 CJ-X05 CJ-X06 a day of */1 * * * * in virtual time: 1,440 Jobs (one per minute, no "
            + "twin, none missed), each created within a second of its minute, named hello-<minutes>, owned by hello; 3 successful Jobs kept")
    void aDayOfSchedules() {
        jobsRun(Duration.ofSeconds(20), j -> false);
        create(hello("*/1 * * * *"));
        cluster.runUntil(start.plus(Duration.ofDays(1)).plusSeconds(30));

        assertEquals(1440, seen.size());
        assertEquals(1440, cluster.eventsWithReason("SuccessfulCreate").stream().filter(m -> m.startsWith("Created job"))
                .count(), "the CronJob's own SuccessfulCreate Events (the Job controller records its pods' too)");
        for (Map.Entry<String, Instant[]> e : seen.entrySet()) {
            Instant scheduled = e.getValue()[0];
            assertEquals(nameAt(scheduled), e.getKey());
            Duration late = Duration.between(scheduled, e.getValue()[1]);
            assertTrue(!late.isNegative() && late.compareTo(Duration.ofSeconds(1)) < 0, e.getKey() + " created " + late + " late");
        }
        String uid = cronJob().getMetadata().getUid();
        assertTrue(jobs().stream().allMatch(j -> Owners.isControlledBy(j.getMetadata(), uid)));
        assertEquals(List.of(nameAt(start.plus(Duration.ofMinutes(1438))), nameAt(start.plus(Duration.ofMinutes(1439))),
                nameAt(start.plus(Duration.ofDays(1)))), jobs().stream().map(j -> j.getMetadata().getName()).sorted().toList());
        assertEquals(start.plus(Duration.ofDays(1)), cronJob().getStatus().getLastScheduleTime());
        assertEquals(start.plus(Duration.ofDays(1)).plusSeconds(20), // Kubernetes times are whole seconds
                cronJob().getStatus().getLastSuccessfulTime());
        assertEquals(null, cronJob().getStatus().getActive());
        assertEquals(1437, cluster.eventsWithReason("SuccessfulDelete").size());
        assertEquals(List.of(), cluster.rejections.stream().filter(r -> !r.startsWith("Conflict")).toList());
    }

    @Test
    @DisplayName("CJ-X03 CJ-X06 every fifth Job fails: 3 successful and 1 failed Job kept; lastSuccessfulTime from the "
            + "last success; a running Job is in status.active")
    void historyWithFailures() {
        jobsRun(Duration.ofSeconds(90), j -> j.getMetadata().getName().endsWith("0") || j.getMetadata().getName().endsWith("5"));
        create(hello("*/1 * * * *"));
        cluster.runUntil(start.plus(Duration.ofMinutes(30)).plusSeconds(10));
        List<Job> finished = jobs().stream().filter(j -> CronJobJobs.finished(j).isPresent()).toList();
        assertEquals(3, finished.stream().filter(CronJobJobs::succeeded).count());
        assertEquals(1, finished.stream().filter(j -> !CronJobJobs.succeeded(j)).count());
        assertEquals(2, running(), "runs of 90 s overlap (Allow)");
        assertEquals(List.of(nameAt(start.plus(Duration.ofMinutes(29))), nameAt(start.plus(Duration.ofMinutes(30)))),
                cronJob().getStatus().getActive().stream().map(r -> r.getName()).toList());
    }

    @Test
    @DisplayName("AC-CJ-06 CJ-14 CJ-16 Forbid with Jobs of 150 s and startingDeadlineSeconds 10: never two at once; the "
            + "times that come while one runs are missed (JobAlreadyActive)")
    void forbid() {
        cluster.invariant(c -> assertTrue(c.list(Job.class).stream().filter(j -> CronJobJobs.finished(j).isEmpty()).count() <= 1,
                "two Jobs run at once"));
        jobsRun(Duration.ofSeconds(150), j -> false);
        create(withSpec(hello("*/1 * * * *"), b -> b.setConcurrencyPolicy("Forbid").setStartingDeadlineSeconds(10L)));
        cluster.runUntil(start.plus(Duration.ofMinutes(10)).plusSeconds(10));
        assertEquals(List.of(1, 4, 7, 10), seen.values().stream()
                .map(t -> (int) Duration.between(start, t[0]).toMinutes()).toList());
        assertTrue(cluster.eventsWithReason("JobAlreadyActive").size() >= 6, cluster.events.toString());
    }

    @Test
    @DisplayName("CJ-11 CJ-14 Forbid without startingDeadlineSeconds: the most recent time missed while a Job ran starts "
            + "when it finishes")
    void forbidRunsTheMissedTimeLate() {
        jobsRun(Duration.ofSeconds(150), j -> false);
        create(withSpec(hello("*/1 * * * *"), b -> b.setConcurrencyPolicy("Forbid")));
        cluster.runUntil(start.plus(Duration.ofMinutes(4)).plusSeconds(10));
        Instant[] second = seen.get(nameAt(start.plus(Duration.ofMinutes(3))));
        assertEquals(List.of(nameAt(start.plus(Duration.ofMinutes(1))), nameAt(start.plus(Duration.ofMinutes(3)))),
                List.copyOf(seen.keySet()));
        assertTrue(Duration.between(start.plus(Duration.ofSeconds(60 + 150)), second[1]).abs().getSeconds() <= 2,
                "started when the first finished: " + second[1]);
    }

    @Test
    @DisplayName("CJ-X01 Replace with Jobs of 150 s: each new time deletes the running Job (background) and starts its own")
    void replace() {
        jobsRun(Duration.ofSeconds(150), j -> false);
        create(withSpec(hello("*/1 * * * *"), b -> b.setConcurrencyPolicy("Replace")));
        cluster.runUntil(start.plus(Duration.ofMinutes(5)).plusSeconds(10));
        assertEquals(List.of(nameAt(start.plus(Duration.ofMinutes(5)))), jobs().stream().map(j -> j.getMetadata().getName()).toList());
        assertEquals(5, seen.size());
        assertEquals(4, cluster.eventsWithReason("SuccessfulDelete").size());
        assertEquals(1, cronJob().getStatus().getActive().size());
    }

    @Test
    @DisplayName("AC-CJ-04 CJ-13 CJ-15(a) every minute from 08:30, the controller down 08:29-10:21, no startingDeadlineSeconds: "
            + "no Job starts on recovery, nor after (the seed's v1 rule, D17), and a Warning says why")
    void outageWithoutDeadline() {
        cluster.clock.advance(Duration.ofHours(8).plusMinutes(29));
        create(hello("*/1 * * * *"));
        cluster.clock.advance(Duration.ofMinutes(112)); // down until 10:21:00
        cluster.runUntil(start.plus(Duration.ofHours(10).plusMinutes(23)));
        assertEquals(List.of(), jobs());
        assertTrue(cluster.eventsWithReason("TooManyMissedTimes").stream().allMatch(m -> m.startsWith(
                "Cannot determine if job needs to be started. Too many missed start time (> 100). Set")));
        assertTrue(cluster.eventsWithReason("TooManyMissedTimes").size() >= 2, "at 10:21 and again at 10:22");
    }

    @Test
    @DisplayName("AC-CJ-05 CJ-15(b) the same outage with startingDeadlineSeconds 200: the Job starts at 10:22:00 (and the "
            + "10:21 one on recovery); nothing from before the last 200 s")
    void outageWithDeadline() {
        cluster.clock.advance(Duration.ofHours(8).plusMinutes(29));
        create(withSpec(hello("*/1 * * * *"), b -> b.setStartingDeadlineSeconds(200L)));
        cluster.clock.advance(Duration.ofMinutes(112));
        jobsRun(Duration.ofSeconds(20), j -> false);
        cluster.runUntil(start.plus(Duration.ofHours(10).plusMinutes(22)).plusSeconds(5));
        Instant at1022 = start.plus(Duration.ofHours(10).plusMinutes(22));
        assertEquals(List.of(nameAt(at1022.minusSeconds(60)), nameAt(at1022)), List.copyOf(seen.keySet()));
        assertTrue(Duration.between(at1022, seen.get(nameAt(at1022))[1]).toMillis() < 1000, "started at 10:22:00");
    }

    @Test
    @DisplayName("CJ-X02 suspended for 10 minutes: no Jobs meanwhile, and on resume the most recent missed time starts at once")
    void suspend() {
        jobsRun(Duration.ofSeconds(20), j -> false);
        create(hello("*/1 * * * *"));
        cluster.runUntil(start.plus(Duration.ofMinutes(2)).plusSeconds(30));
        update(b -> b.setSuspend(true));
        cluster.runUntil(start.plus(Duration.ofMinutes(12)).plusSeconds(30));
        assertEquals(2, seen.size());
        update(b -> b.setSuspend(false));
        cluster.step();
        cluster.step();
        assertEquals(3, seen.size());
        assertTrue(seen.containsKey(nameAt(start.plus(Duration.ofMinutes(12)))), seen.keySet().toString());
    }

    @Test
    @DisplayName("CJ-X04 timeZone Etc/GMT-2 (UTC+2): 0 9 * * * fires once a day at 07:00 UTC")
    void timeZone() {
        jobsRun(Duration.ofSeconds(20), j -> false);
        create(withSpec(hello("0 9 * * *"), b -> b.setTimeZone("Etc/GMT-2")));
        cluster.runUntil(start.plus(Duration.ofDays(2)));
        assertEquals(List.of(start.plus(Duration.ofHours(7)), start.plus(Duration.ofHours(31))),
                seen.values().stream().map(t -> t[0]).toList());
    }

    @Test
    @DisplayName("CJ-03 a CronJob named with 52 characters makes Jobs of 61 characters, which the writer accepts")
    void longName() {
        String name = "a".repeat(52);
        CronJob cj = hello("*/1 * * * *");
        create(CronJob.newBuilder(cj).setMetadata(ObjectMeta.newBuilder(cj.getMetadata()).setName(name).build()).build());
        cluster.runUntil(start.plus(Duration.ofMinutes(1)).plusSeconds(5));
        assertEquals(List.of(61), jobs().stream().map(j -> j.getMetadata().getName().length()).toList());
    }
}
