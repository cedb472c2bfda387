package io.eventplane.controllers.cronjob;

import io.eventplane.core.cron.CronSchedule;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * Which scheduled times of a CronJob are unmet, and when to look next (workloads.md §8.4). Pure.
 *
 * <p>The missed-schedule rule is the seed's (controller v1, CJ-13, D17): the times counted are those after the last
 * scheduled time (or the creation time), or, with {@code startingDeadlineSeconds}, only those within that many seconds
 * before now; more than {@value #TOO_MANY} means no Job starts (AC-CJ-04). Kubernetes' controller v2 would still
 * start the most recent one (CJ-X09); the seed's rule wins because the spec asks for it (D17), and the Warning tells
 * the user the way out: set or decrease {@code startingDeadlineSeconds}.
 */
final class ScheduleTimes {
    /** More missed times than this and the controller cannot tell whether to start a Job (CJ-13). */
    static final int TOO_MANY = 100;
    /** Wake a little after the scheduled time, so that a clock a bit behind still finds it due (upstream: 100 ms). */
    static final Duration WAKE_DELTA = Duration.ofMillis(100);

    private ScheduleTimes() {
    }

    /**
     * The unmet times in (earliest, now].
     *
     * @param mostRecent the latest of them, or null when none is due
     * @param count      how many there are (counting stops past {@value #TOO_MANY})
     */
    record Unmet(Instant mostRecent, int count) {
        boolean tooMany() {
            return count > TOO_MANY;
        }

        /** The times not started: all but the most recent, which is the one to start now. */
        int missed() {
            return Math.max(0, count - 1);
        }
    }

    /**
     * @param last                    the last scheduled time, or the CronJob's creation time when it has none
     * @param startingDeadlineSeconds null when unset
     */
    static Unmet unmet(CronSchedule schedule, ZoneId zone, Instant last, Long startingDeadlineSeconds, Instant now) {
        Instant earliest = last;
        if (startingDeadlineSeconds != null) {
            Instant deadline = now.minusSeconds(startingDeadlineSeconds);
            if (deadline.isAfter(earliest)) {
                earliest = deadline;
            }
        }
        Instant mostRecent = null;
        int count = 0;
        for (Instant t = schedule.next(earliest, zone); t != null && !t.isAfter(now); t = schedule.next(t, zone)) {
            mostRecent = t;
            if (++count > TOO_MANY) {
                break;
            }
        }
        return new Unmet(mostRecent, count);
    }

    /**
     * The first scheduled time after now, on the schedule's grid from {@code last} (an {@code @every} schedule counts
     * from the last scheduled time or the creation time, not from now); null when the schedule never fires again.
     */
    static Instant nextAfter(CronSchedule schedule, ZoneId zone, Instant last, Instant now) {
        Duration every = schedule.every();
        if (every == null || last.isAfter(now)) {
            return schedule.next(now, zone);
        }
        Instant base = last.truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        long periods = Duration.between(base, now).toMillis() / every.toMillis() + 1;
        return base.plus(every.multipliedBy(periods));
    }

    /** How long until the next scheduled time, plus {@link #WAKE_DELTA}; null when there is none. */
    static Duration wakeAfter(CronSchedule schedule, ZoneId zone, Instant last, Instant now) {
        Instant next = nextAfter(schedule, zone, last, now);
        return next == null ? null : Duration.between(now, next).plus(WAKE_DELTA);
    }
}
