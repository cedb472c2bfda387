package io.eventplane.reconcile;

/**
 * What a controller has done so far, for progress logs and benchmarks.
 *
 * @param steps     decisions taken (keys reconciled, ticks, batches)
 * @param sent      commands sent
 * @param accepted  commands the writer accepted
 * @param rejected  commands the writer rejected (conflicts included)
 * @param noVerdict commands whose verdict did not come within the timeout (they may still take effect)
 * @param queued    keys waiting in the queue now (also those waiting for a delay)
 * @param inFlight  keys or objects whose commands are on their way now
 * @param leading   whether this instance acts (always, without leader election)
 */
public record ControllerMetrics(long steps, long sent, long accepted, long rejected, long noVerdict, int queued,
                                int inFlight, boolean leading) {
    /** Whether anything was done between {@code before} and this. */
    public boolean movedSince(ControllerMetrics before) {
        return before == null || steps != before.steps || sent != before.sent || queued != before.queued
                || inFlight != before.inFlight || leading != before.leading;
    }

    @Override
    public String toString() {
        return String.format("%d step(s), %d command(s) sent: %d accepted, %d rejected, %d without verdict; "
                + "%d key(s) queued, %d in flight%s", steps, sent, accepted, rejected, noVerdict, queued, inFlight,
                leading ? "" : "; standing by");
    }
}
