package io.eventplane.controllers.job;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.Pod;
import io.eventplane.model.UncountedTerminatedPods;
import io.eventplane.reconcile.Action;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One step of the job controller for one Job (upstream's syncJobCtx): what it read (the Job, its pods, the stored
 * ledger of uncounted pods), what it works out along the way (counts, indexes, the condition the Job is heading for),
 * the status it is writing, and the commands and Events it decides. Built and used by one step only; nothing read
 * from the view is modified (the status is a copy).
 */
final class JobContext {
    final Job job;
    final JobSpec spec;
    final ObjectReference ref;
    /** Now, as precise as the clock; {@link #stamp} is what goes into the status (whole seconds, as Kubernetes). */
    final Instant now;
    final Instant stamp;
    /** The status being written: a copy of the stored one. */
    final JobStatus status;
    /** The ledger as stored: only pods recorded in it may lose their finalizer. */
    final Set<String> storedUncountedSucceeded;
    final Set<String> storedUncountedFailed;

    List<Pod> pods = List.of();
    List<Pod> activePods = List.of();
    int ready;
    int terminating;
    int succeeded;
    int failed;
    BackoffRecord backoff;
    /** The condition the Job is heading for (FailureTarget, SuccessCriteriaMet, Failed, Complete), or null. */
    JobCondition finishedCondition;
    OrderedIntervals prevSucceededIndexes = OrderedIntervals.EMPTY;
    OrderedIntervals succeededIndexes = OrderedIntervals.EMPTY;
    OrderedIntervals failedIndexes;
    Map<Integer, Pod> podsWithDelayedDeletionPerIndex = Map.of();

    final List<Action> actions = new ArrayList<>();
    final List<EventNotice> events = new ArrayList<>();
    Duration requeueAfter;

    JobContext(Job job, Instant now) {
        this.job = job;
        this.spec = job.getSpec();
        this.ref = ObjectReferences.of(job);
        this.now = now;
        this.stamp = now.truncatedTo(ChronoUnit.SECONDS);
        this.status = job.getStatus() == null ? new JobStatus() : JobStatus.newBuilder(job.getStatus()).build();
        UncountedTerminatedPods u = status.getUncountedTerminatedPods();
        List<String> s = u == null || u.getSucceeded() == null ? List.of() : u.getSucceeded();
        List<String> f = u == null || u.getFailed() == null ? List.of() : u.getFailed();
        this.storedUncountedSucceeded = new LinkedHashSet<>(s);
        this.storedUncountedFailed = new LinkedHashSet<>(f);
        // the ledger being written keeps the stored order, so an unchanged ledger compares equal
        status.setUncountedTerminatedPods(UncountedTerminatedPods.newBuilder()
                .setSucceeded(new ArrayList<>(s)).setFailed(new ArrayList<>(f)).build());
    }

    boolean indexed() {
        return CompletionIndexes.isIndexed(job);
    }

    int completions() {
        return spec.getCompletions() == null ? 0 : spec.getCompletions();
    }

    boolean suspended() {
        return Boolean.TRUE.equals(spec.getSuspend());
    }

    /** Replace a pod only once it has failed, not while it terminates (JOB-X07). */
    boolean onlyReplaceFailedPods() {
        return "Failed".equals(spec.getPodReplacementPolicy()) || spec.getPodFailurePolicy() != null;
    }

    /** Failed, or (unless only failed pods are replaced) deleted before it succeeded: a pod that never got to finish. */
    boolean isPodFailed(Pod p) {
        String phase = PodStates.phase(p);
        if ("Failed".equals(phase)) {
            return true;
        }
        if (onlyReplaceFailedPods()) {
            return false;
        }
        return PodStates.isTerminating(p) && !"Succeeded".equals(phase);
    }

    /** Wake this Job again after {@code d} at the latest (the earliest of all such wishes wins). */
    void requeue(Duration d) {
        Duration after = d.isNegative() ? Duration.ZERO : d;
        if (requeueAfter == null || after.compareTo(requeueAfter) < 0) {
            requeueAfter = after;
        }
    }

    /** The uncounted pods being written (copies of the stored lists). */
    List<String> uncountedSucceeded() {
        return status.getUncountedTerminatedPods().getSucceeded();
    }

    List<String> uncountedFailed() {
        return status.getUncountedTerminatedPods().getFailed();
    }

    /** No uncounted pod left in the status being written. */
    boolean ledgerEmpty() {
        return uncountedSucceeded().isEmpty() && uncountedFailed().isEmpty();
    }

    /** The ledger as Kubernetes shows it: empty lists left out ({@code uncountedTerminatedPods: {}}). */
    void normalizeLedger() {
        List<String> s = uncountedSucceeded();
        List<String> f = uncountedFailed();
        status.setUncountedTerminatedPods(UncountedTerminatedPods.newBuilder()
                .setSucceeded(s.isEmpty() ? null : s).setFailed(f.isEmpty() ? null : f).build());
    }
}
