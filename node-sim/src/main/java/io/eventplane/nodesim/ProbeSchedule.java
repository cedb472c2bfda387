package io.eventplane.nodesim;

import io.eventplane.model.Probe;
import java.time.Duration;
import java.time.Instant;

/**
 * The probes of a {@link ContainerRun} (POD-7), as a kubelet's prober would run them, but worked out in advance: probe k
 * of a run runs at start + initialDelaySeconds + k * periodSeconds, and from what the program declares
 * ({@link PodBehavior}: when it answers, how fast, when it stops answering) follows when the container is started
 * (startup probe), ready and unready again (readiness probe, successThreshold, failureThreshold), and when a failed
 * startup or liveness probe gets it killed. A stage ({@link PodStages}) can change that mid-run. Pure.
 */
final class ProbeSchedule {

    private ProbeSchedule() {
    }

    /**
     * A new run from {@code s}: when it is started, ready and unready, and its end when a startup or liveness probe
     * kills it. The startup probe holds every other probe back (POD-7.7, W-R8).
     */
    static void plan(ContainerRun c, Instant s) {
        PodBehavior b = c.behavior;
        boolean answers;
        boolean probes = c.role != ContainerRun.Role.INIT;
        Probe startup = probes ? c.spec.getStartupProbe() : null;
        c.startedAt = s;
        if (startup != null) {
            answers = answersWithin(b, startup);
            int ok = answers ? firstProbeAtOrAfter(s, startup, s.plus(b.startupAfter())) : Integer.MAX_VALUE;
            if (ok >= failureThreshold(startup)) {
                c.startedAt = null;
                c.end(probeAt(s, startup, failureThreshold(startup) - 1), ContainerRun.KILLED, "Error", "startup");
            } else {
                c.startedAt = probeAt(s, startup, ok);
            }
        }
        Probe liveness = probes ? c.spec.getLivenessProbe() : null;
        if (liveness != null && c.startedAt != null && (b.livenessFailsAfter() != null || !answersWithin(b, liveness))) {
            Instant failFrom = answersWithin(b, liveness) ? s.plus(b.livenessFailsAfter()) : s;
            int first = firstProbeAtOrAfter(s, liveness, max(failFrom, c.startedAt));
            c.end(probeAt(s, liveness, first + failureThreshold(liveness) - 1), ContainerRun.KILLED, "Error", "liveness");
        }
        Probe readiness = probes ? c.spec.getReadinessProbe() : null;
        c.readyAt = null;
        c.unreadyAt = null;
        if (c.role == ContainerRun.Role.INIT || c.role == ContainerRun.Role.EPHEMERAL) {
            c.readyAt = null;
        } else if (readiness == null) {
            c.readyAt = c.startedAt; // no readiness probe: ready once started (POD-7.7, W-R7)
        } else if (c.startedAt != null && answersWithin(b, readiness)) {
            int first = firstProbeAtOrAfter(s, readiness, max(s.plus(b.readyAfter()), c.startedAt));
            c.readyAt = probeAt(s, readiness, first + successThreshold(readiness) - 1);
            if (b.unreadyAfter() != null) {
                int fail = firstProbeAtOrAfter(s, readiness, max(s.plus(b.unreadyAfter()), c.readyAt));
                c.unreadyAt = probeAt(s, readiness, fail + failureThreshold(readiness) - 1);
                if (!c.unreadyAt.isAfter(c.readyAt)) {
                    c.readyAt = null;
                }
            }
        }
    }

    // ---- what a stage changes: the probes after t fail or succeed

    /** The readiness probes after {@code t} fail: failureThreshold of them make a ready container unready. */
    static void readinessFails(ContainerRun c, Instant t) {
        Probe readiness = probed(c) ? c.spec.getReadinessProbe() : null;
        if (readiness != null && c.ready) {
            int k = firstProbeAtOrAfter(c.runStart, readiness, t.plusMillis(1));
            c.unreadyAt = PodRun.min(c.unreadyAt, probeAt(c.runStart, readiness, k + failureThreshold(readiness) - 1));
        } else if (readiness != null) {
            c.readyAt = null;
            c.unreadyAt = null;
        }
    }

    /** The readiness probes after {@code t} succeed: successThreshold of them make a started container ready. */
    static void readinessSucceeds(ContainerRun c, Instant t) {
        Probe readiness = probed(c) ? c.spec.getReadinessProbe() : null;
        if (readiness != null && c.ready) {
            c.unreadyAt = null;
        } else if (readiness != null && c.startedAt != null) {
            int k = firstProbeAtOrAfter(c.runStart, readiness, max(t.plusMillis(1), c.startedAt));
            c.readyAt = probeAt(c.runStart, readiness, k + successThreshold(readiness) - 1);
            c.unreadyAt = null;
        }
    }

    /** The liveness probes after {@code t} fail: failureThreshold of them get the container killed. */
    static void livenessFails(ContainerRun c, Instant t) {
        Probe liveness = probed(c) ? c.spec.getLivenessProbe() : null;
        if (liveness != null && c.startedAt != null) {
            int k = firstProbeAtOrAfter(c.runStart, liveness, max(t.plusMillis(1), c.startedAt));
            c.end(probeAt(c.runStart, liveness, k + failureThreshold(liveness) - 1), ContainerRun.KILLED, "Error",
                    "liveness");
        }
    }

    private static boolean probed(ContainerRun c) {
        return c.role != ContainerRun.Role.INIT && c.role != ContainerRun.Role.EPHEMERAL;
    }

    // ---- the timing fields

    private static boolean answersWithin(PodBehavior b, Probe p) {
        int timeout = Math.max(1, p.getTimeoutSeconds() == null ? 1 : p.getTimeoutSeconds());
        return b.probeResponseTime().compareTo(Duration.ofSeconds(timeout)) < 0;
    }

    private static int failureThreshold(Probe p) {
        return Math.max(1, p.getFailureThreshold() == null ? 3 : p.getFailureThreshold());
    }

    private static int successThreshold(Probe p) {
        return Math.max(1, p.getSuccessThreshold() == null ? 1 : p.getSuccessThreshold());
    }

    /** Probe k of a run that started at {@code s}: s + initialDelaySeconds + k * periodSeconds (POD-7.8, POD-7.10). */
    static Instant probeAt(Instant s, Probe p, int k) {
        long delay = p.getInitialDelaySeconds() == null ? 0 : p.getInitialDelaySeconds();
        return s.plusSeconds(delay + (long) k * period(p));
    }

    private static long period(Probe p) {
        return Math.max(1, p.getPeriodSeconds() == null ? 10 : p.getPeriodSeconds());
    }

    /** The index of the first probe at or after {@code t}. */
    static int firstProbeAtOrAfter(Instant s, Probe p, Instant t) {
        Instant first = probeAt(s, p, 0);
        if (!t.isAfter(first)) {
            return 0;
        }
        long ms = Duration.between(first, t).toMillis();
        long per = period(p) * 1000;
        return (int) Math.min(Integer.MAX_VALUE - 1000, (ms + per - 1) / per);
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
