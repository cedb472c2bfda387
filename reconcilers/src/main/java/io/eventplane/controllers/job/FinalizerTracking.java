package io.eventplane.controllers.job;

import io.eventplane.model.JobCondition;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Tracking finished pods with finalizers (JOB-X08), upstream's trackJobStatusAndRemoveFinalizers adapted to a
 * level-triggered step: every Job pod carries {@code batch.kubernetes.io/job-tracking}; a finished pod is first
 * recorded in {@code status.uncountedTerminatedPods} (an Indexed Job's success: its index in
 * {@code status.completedIndexes}), its finalizer is removed only once that record is in the stored status, and once
 * the finalizer is gone the pod moves from the ledger to {@code succeeded}/{@code failed}. So a pod is counted once,
 * and counts survive its deletion (Pod GC, a user). Three steps instead of upstream's three writes in one sync; the
 * runtime's in-flight expectations keep them in order.
 */
final class FinalizerTracking {
    static final String FINALIZER = "batch.kubernetes.io/job-tracking";
    /** At most this many pods enter the ledger per step (keeps the status small; upstream's MaxUncountedPods). */
    static final int MAX_UNCOUNTED = 500;

    private FinalizerTracking() {
    }

    static boolean hasFinalizer(Pod pod) {
        List<String> f = pod.getMetadata().getFinalizers();
        return f != null && f.contains(FINALIZER);
    }

    /** The pod with the tracking finalizer, and its resourceVersion kept as the update's precondition. */
    static Pod withoutFinalizer(Pod pod) {
        List<String> f = new ArrayList<>(pod.getMetadata().getFinalizers());
        f.remove(FINALIZER);
        return Pod.newBuilder(pod).setMetadata(ObjectMeta.newBuilder(pod.getMetadata()).setFinalizers(f).build()).build();
    }

    static Action removeFinalizer(Pod pod) {
        return new Action.Update(withoutFinalizer(pod));
    }

    /**
     * Records newly finished pods, removes the finalizers of recorded ones, counts the pods whose finalizer is gone,
     * and finishes the Job when its condition is due (upstream's trackJobStatusAndRemoveFinalizers and
     * enactJobFinished). Returns whether the Job finished in this step.
     */
    static boolean track(JobContext ctx) {
        boolean indexed = ctx.indexed();
        List<Pod> pods = new ArrayList<>(ctx.pods);
        if (indexed) {
            pods.sort(CompletionIndexes.BY_INDEX);
        }
        Set<String> withFinalizer = new java.util.HashSet<>();
        for (Pod p : pods) {
            if (hasFinalizer(p)) {
                withFinalizer.add(p.getMetadata().getUid());
            }
        }
        cleanUncounted(ctx, withFinalizer);
        List<Integer> newSucceededIndexes = new ArrayList<>();
        boolean reachedMax = false;
        for (Pod pod : pods) {
            if (!hasFinalizer(pod)) {
                continue;
            }
            boolean considerFailed = ctx.isPodFailed(pod);
            if (!canRemoveFinalizer(ctx, pod, considerFailed)) {
                continue;
            }
            if (record(ctx, pod, considerFailed, newSucceededIndexes)) {
                ctx.actions.add(removeFinalizer(pod));
            }
            if (newSucceededIndexes.size() + ctx.uncountedSucceeded().size() + ctx.uncountedFailed().size()
                    >= MAX_UNCOUNTED) {
                reachedMax = true; // the status changes bring the Job back for the rest
                break;
            }
        }
        if (indexed) {
            ctx.succeededIndexes = ctx.succeededIndexes.withOrderedIndexes(newSucceededIndexes);
            ctx.status.setSucceeded(ctx.succeededIndexes.total());
            ctx.status.setCompletedIndexes(ctx.succeededIndexes.toString());
            ctx.status.setFailedIndexes(ctx.failedIndexes == null ? null : ctx.failedIndexes.toString());
        }
        stageTerminalCondition(ctx);
        return !reachedMax && enactFinished(ctx);
    }

    /**
     * Whether the pod's finalizer may go now: its finish is already in the stored status, or nothing is to be recorded
     * (an ignored failure, a pod without a valid index, a pod stopped for a Job being deleted). Otherwise its record is
     * added to the status being written and the finalizer goes in a later step.
     */
    private static boolean record(JobContext ctx, Pod pod, boolean considerFailed, List<Integer> newSucceededIndexes) {
        String uid = pod.getMetadata().getUid();
        if (ctx.storedUncountedSucceeded.contains(uid) || ctx.storedUncountedFailed.contains(uid)) {
            return true;
        }
        boolean indexed = ctx.indexed();
        int completions = ctx.completions();
        if ("Succeeded".equals(phase(pod))) {
            if (!indexed) {
                ctx.uncountedSucceeded().add(uid);
                return false;
            }
            int ix = CompletionIndexes.index(pod);
            if (CompletionIndexes.validIndex(pod, completions) && !ctx.prevSucceededIndexes.has(ix)) {
                newSucceededIndexes.add(ix);
                return false;
            }
            return true; // its index is recorded already (or it has none)
        }
        boolean jobFailing = ctx.finishedCondition != null
                && !JobConditions.SUCCESS_CRITERIA_MET.equals(ctx.finishedCondition.getType());
        if (considerFailed || jobFailing) {
            // when the Job is failing, every pod not finished is a failure
            if (indexed && !CompletionIndexes.validIndex(pod, completions)) {
                return true;
            }
            boolean counted = ctx.spec.getPodFailurePolicy() == null
                    || PodFailurePolicies.match(ctx.spec.getPodFailurePolicy(), pod).countFailed();
            if (counted) {
                ctx.uncountedFailed().add(uid);
                return false;
            }
        }
        return true;
    }

    /**
     * The finalizer may go when the Job is being deleted or is heading for its end, or the pod succeeded, or it
     * failed, unless it is the failed pod of an index whose replacement does not exist yet (backoffLimitPerIndex).
     */
    private static boolean canRemoveFinalizer(JobContext ctx, Pod pod, boolean considerFailed) {
        if (ctx.job.getMetadata().getDeletionTimestamp() != null || ctx.finishedCondition != null
                || "Succeeded".equals(phase(pod))) {
            return true;
        }
        if (!considerFailed) {
            return false;
        }
        if (CompletionIndexes.hasBackoffLimitPerIndex(ctx.job)) {
            int ix = CompletionIndexes.index(pod);
            Pod delayed = ix == CompletionIndexes.UNKNOWN ? null : ctx.podsWithDelayedDeletionPerIndex.get(ix);
            return delayed == null || !delayed.getMetadata().getUid().equals(pod.getMetadata().getUid());
        }
        return true;
    }

    /** Pods in the stored ledger whose finalizer is gone (or that are gone) move to the counters. */
    private static void cleanUncounted(JobContext ctx, Set<String> withFinalizer) {
        List<String> s = ctx.uncountedSucceeded();
        List<String> keep = s.stream().filter(withFinalizer::contains).toList();
        if (keep.size() != s.size()) {
            ctx.status.setSucceeded(n(ctx.status.getSucceeded()) + s.size() - keep.size());
            s.clear();
            s.addAll(keep);
        }
        List<String> f = ctx.uncountedFailed();
        keep = f.stream().filter(withFinalizer::contains).toList();
        if (keep.size() != f.size()) {
            ctx.status.setFailed(n(ctx.status.getFailed()) + f.size() - keep.size());
            f.clear();
            f.addAll(keep);
        }
    }

    /**
     * JOB-X05: a failure is written first as FailureTarget (then Failed), a success as SuccessCriteriaMet (then
     * Complete), so the terminal condition comes only after every pod is accounted for and stopped.
     */
    private static void stageTerminalCondition(JobContext ctx) {
        JobCondition c = ctx.finishedCondition;
        if (c == null) {
            return;
        }
        if (JobConditions.FAILURE_TARGET.equals(c.getType())) {
            List<JobCondition> list = new ArrayList<>(conditions(ctx));
            list.add(c);
            ctx.status.setConditions(list);
            ctx.finishedCondition = JobConditions.trueOf(JobConditions.FAILED, c.getReason(), c.getMessage(), ctx.stamp);
        } else if (JobConditions.SUCCESS_CRITERIA_MET.equals(c.getType())) {
            if (io.eventplane.core.meta.Conditions.find(conditions(ctx), JobConditions.SUCCESS_CRITERIA_MET).isEmpty()) {
                List<JobCondition> list = new ArrayList<>(conditions(ctx));
                list.add(c);
                ctx.status.setConditions(list);
            }
            ctx.finishedCondition = JobConditions.trueOf(JobConditions.COMPLETE, c.getReason(), c.getMessage(), ctx.stamp);
        }
    }

    /** Complete or Failed, once no pod is uncounted and none is terminating; Complete also sets completionTime. */
    private static boolean enactFinished(JobContext ctx) {
        JobCondition c = ctx.finishedCondition;
        if (c == null || !ctx.ledgerEmpty() || ctx.terminating > 0) {
            return false;
        }
        ctx.status.setConditions(JobConditions.ensure(conditions(ctx), c.getType(), c.getStatus(), c.getReason(),
                c.getMessage(), ctx.stamp));
        if (JobConditions.COMPLETE.equals(c.getType())) {
            ctx.status.setCompletionTime(ctx.stamp);
        }
        return true;
    }

    private static List<JobCondition> conditions(JobContext ctx) {
        return ctx.status.getConditions() == null ? List.of() : ctx.status.getConditions();
    }

    private static String phase(Pod p) {
        return p.getStatus() == null ? null : p.getStatus().getPhase();
    }

    static int n(Integer i) {
        return i == null ? 0 : i;
    }
}
