package io.eventplane.controllers.job;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.meta.Conditions;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One level-triggered step of the job controller for one Job (upstream's syncJob): read the Job and its pods, work out
 * where it stands (counts, back-off, deadline, indexes, policies), decide the pods to create or delete, record
 * finished pods and remove their finalizers ({@link FinalizerTracking}), and write the status (JOB-07 to JOB-27,
 * JOB-X01 to JOB-X08). Pure: time comes in as {@code now}, the back-off record in and out as a value.
 */
final class JobSync {
    static final String CONTROLLER_NAME = "kubernetes.io/job-controller";

    /**
     * What a step decided.
     *
     * @param backoff the Job's back-off record after this step, or null when the Job needs none any more (finished)
     */
    record Decision(List<Action> actions, List<EventNotice> events, Duration requeueAfter, BackoffRecord backoff) {
        static Decision nothing(BackoffRecord backoff) {
            return new Decision(List.of(), List.of(), null, backoff);
        }
    }

    private JobSync() {
    }

    /**
     * @param candidates the pods the Job may own: those it controls, the namespace's orphans (it may adopt them) and
     *                   those whose names start with its pods' name prefix (a new pod's name must be free)
     * @param backoff    the Job's back-off record so far ({@link BackoffRecord#NONE} at first)
     */
    static Decision sync(Job job, List<Pod> candidates, BackoffRecord backoff, Instant now) {
        JobSpec spec = job.getSpec();
        if (spec == null || job.getMetadata() == null || job.getMetadata().getUid() == null || spec.getSelector() == null) {
            return Decision.nothing(backoff);
        }
        if (spec.getManagedBy() != null && !CONTROLLER_NAME.equals(spec.getManagedBy())) {
            return Decision.nothing(backoff); // another controller runs it
        }
        if (JobConditions.isFinished(job)) {
            return finished(job, candidates); // JOB-21: never restarted
        }
        String mode = spec.getCompletionMode();
        if (mode != null && !mode.equals("NonIndexed") && !mode.equals("Indexed")) {
            return new Decision(List.of(), List.of(EventNotice.warning(ObjectReferences.of(job), "UnknownCompletionMode",
                    "Skipped Job sync because completion mode is unknown")), null, backoff);
        }
        JobContext ctx = new JobContext(job, now);
        ctx.pods = JobPods.claim(ctx, candidates);
        ctx.activePods = ctx.pods.stream().filter(PodStates::isActive).toList();
        ctx.ready = (int) ctx.activePods.stream().filter(PodStates::isReady).count();
        ctx.terminating = (int) ctx.pods.stream().filter(JobPods::isTerminatingNotFinished).count();
        List<Pod> newSucceeded = newFinished(ctx, p -> "Succeeded".equals(PodStates.phase(p)));
        List<Pod> newFailed = newFinished(ctx, ctx::isPodFailed);
        ctx.succeeded = FinalizerTracking.n(ctx.status.getSucceeded()) + newSucceeded.size()
                + ctx.storedUncountedSucceeded.size();
        ctx.failed = FinalizerTracking.n(ctx.status.getFailed()) + counted(ctx, newFailed) + ctx.storedUncountedFailed.size();
        if (ctx.status.getStartTime() == null && !ctx.suspended()) {
            ctx.status.setStartTime(ctx.stamp);
        }
        ctx.backoff = backoff.with(newSucceeded, newFailed);

        decideFailure(ctx);
        if (ctx.indexed()) {
            decideIndexes(ctx);
        }
        int active;
        if (ctx.finishedCondition != null) {
            JobPods.deleteActivePods(ctx); // JOB-17, JOB-19: running pods are stopped when the Job fails
            active = 0;
        } else {
            boolean managed = false;
            active = ctx.activePods.size();
            if (job.getMetadata().getDeletionTimestamp() == null) {
                active = JobPods.manage(ctx, candidates);
                managed = true;
            }
            boolean complete = spec.getCompletions() == null ? ctx.succeeded > 0 && active == 0
                    : ctx.succeeded >= spec.getCompletions() && active == 0;
            if (complete) {
                ctx.finishedCondition = JobConditions.trueOf(JobConditions.SUCCESS_CRITERIA_MET,
                        JobConditions.COMPLETIONS_REACHED, "Reached expected number of succeeded pods", ctx.stamp);
            } else if (managed) {
                suspendCondition(ctx);
            }
        }
        ctx.status.setActive(nullIfZero(active));
        ctx.status.setReady(Math.max(0, ctx.ready));
        ctx.status.setTerminating(ctx.terminating);
        boolean finished = FinalizerTracking.track(ctx);
        ctx.normalizeLedger();
        ctx.status.setSucceeded(nullIfZero(FinalizerTracking.n(ctx.status.getSucceeded())));
        ctx.status.setFailed(nullIfZero(FinalizerTracking.n(ctx.status.getFailed())));
        JobStatus old = job.getStatus() == null ? new JobStatus() : job.getStatus();
        if (!Objects.equals(ctx.status, old)) {
            // recomputed from the view each step, so it goes without a resourceVersion precondition
            ObjectMeta meta = ObjectMeta.newBuilder(job.getMetadata()).setResourceVersion(null).build();
            ctx.actions.add(new Action.UpdateStatus(Job.newBuilder(job).setMetadata(meta).setStatus(ctx.status).build()));
        }
        if (finished) {
            recordFinished(ctx);
        }
        return new Decision(ctx.actions, ctx.events, ctx.requeueAfter, finished ? null : ctx.backoff);
    }

    /** The FailureTarget the Job is heading for, or the Failed it reached: pod failure policy, backoff, deadline. */
    private static void decideFailure(JobContext ctx) {
        Optional<JobCondition> criteriaMet = JobConditions.findTrue(ctx.job, JobConditions.SUCCESS_CRITERIA_MET);
        if (criteriaMet.isPresent()) {
            ctx.finishedCondition = criteriaMet.get(); // success is decided; the failure policy no longer applies
            return;
        }
        Optional<JobCondition> target = JobConditions.findTrue(ctx.job, JobConditions.FAILURE_TARGET);
        if (target.isPresent()) {
            ctx.finishedCondition = JobConditions.trueOf(JobConditions.FAILED, target.get().getReason(),
                    target.get().getMessage(), ctx.stamp);
            return;
        }
        String failJob = PodFailurePolicies.failJobMessage(ctx);
        if (failJob != null) {
            ctx.finishedCondition = failureTarget(ctx, JobConditions.POD_FAILURE_POLICY, failJob);
            return;
        }
        int backoffLimit = ctx.spec.getBackoffLimit() == null ? 6 : ctx.spec.getBackoffLimit();
        if (ctx.failed > backoffLimit || pastBackoffLimitOnFailure(ctx, backoffLimit)) {
            ctx.finishedCondition = failureTarget(ctx, JobConditions.BACKOFF_LIMIT_EXCEEDED,
                    "Job has reached the specified backoff limit");
        } else if (pastActiveDeadline(ctx)) {
            ctx.finishedCondition = failureTarget(ctx, JobConditions.DEADLINE_EXCEEDED,
                    "Job was active longer than specified deadline");
        } else if (ctx.spec.getActiveDeadlineSeconds() != null && !ctx.suspended()) {
            Duration elapsed = resuming(ctx) ? Duration.ZERO : Duration.between(ctx.status.getStartTime(), ctx.now);
            ctx.requeue(Duration.ofSeconds(ctx.spec.getActiveDeadlineSeconds()).minus(elapsed));
        }
    }

    /** Indexed Jobs: succeeded and failed indexes, maxFailedIndexes, the success policy. */
    private static void decideIndexes(JobContext ctx) {
        CompletionIndexes.calculateSucceededIndexes(ctx);
        ctx.succeeded = ctx.succeededIndexes.total();
        if (CompletionIndexes.hasBackoffLimitPerIndex(ctx.job)) {
            ctx.failedIndexes = CompletionIndexes.calculateFailedIndexes(ctx);
            if (ctx.finishedCondition == null) {
                Integer max = ctx.spec.getMaxFailedIndexes();
                int failedIndexes = ctx.failedIndexes.total();
                if (max != null && failedIndexes > max) {
                    ctx.finishedCondition = failureTarget(ctx, JobConditions.MAX_FAILED_INDEXES_EXCEEDED,
                            "Job has exceeded the specified maximal number of failed indexes");
                } else if (failedIndexes > 0 && failedIndexes + ctx.succeededIndexes.total() >= ctx.completions()) {
                    ctx.finishedCondition = failureTarget(ctx, JobConditions.FAILED_INDEXES, "Job has failed indexes");
                }
            }
            ctx.podsWithDelayedDeletionPerIndex = CompletionIndexes.podsWithDelayedDeletionPerIndex(ctx);
        }
        if (ctx.finishedCondition == null) {
            SuccessPolicies.match(ctx.spec.getSuccessPolicy(), ctx.completions(), ctx.succeededIndexes).ifPresent(m ->
                    ctx.finishedCondition = JobConditions.trueOf(JobConditions.SUCCESS_CRITERIA_MET,
                            JobConditions.SUCCESS_POLICY, m, ctx.stamp));
        }
    }

    /** JOB-X06: Suspended=True (JobSuspended) while suspended; False (JobResumed) on resume, which restarts startTime. */
    private static void suspendCondition(JobContext ctx) {
        List<JobCondition> before = ctx.status.getConditions();
        if (ctx.suspended()) {
            ctx.status.setConditions(JobConditions.ensure(before, JobConditions.SUSPENDED, "True", "JobSuspended",
                    "Job suspended", ctx.stamp));
            if (ctx.status.getConditions() != before) {
                ctx.events.add(EventNotice.normal(ctx.ref, "Suspended", "Job suspended"));
            }
        } else {
            ctx.status.setConditions(JobConditions.ensure(before, JobConditions.SUSPENDED, "False", "JobResumed",
                    "Job resumed", ctx.stamp));
            if (ctx.status.getConditions() != before) {
                ctx.events.add(EventNotice.normal(ctx.ref, "Resumed", "Job resumed"));
                ctx.status.setStartTime(ctx.stamp); // the deadline counts from the resume
            }
        }
    }

    private static JobCondition failureTarget(JobContext ctx, String reason, String message) {
        return JobConditions.trueOf(JobConditions.FAILURE_TARGET, reason, message, ctx.stamp);
    }

    /** Pods that finished since they were last counted: they carry the finalizer and are not in the stored ledger. */
    private static List<Pod> newFinished(JobContext ctx, java.util.function.Predicate<Pod> finished) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : ctx.pods) {
            String uid = p.getMetadata().getUid();
            if (!FinalizerTracking.hasFinalizer(p) || ctx.storedUncountedSucceeded.contains(uid)
                    || ctx.storedUncountedFailed.contains(uid)) {
                continue;
            }
            if (ctx.indexed() && !CompletionIndexes.validIndex(p, ctx.completions())) {
                continue;
            }
            if (finished.test(p)) {
                out.add(p);
            }
        }
        return out;
    }

    /** Failures that count toward backoffLimit (an Ignore rule's do not, JOB-X03). */
    private static int counted(JobContext ctx, List<Pod> failed) {
        if (ctx.spec.getPodFailurePolicy() == null) {
            return failed.size();
        }
        return (int) failed.stream().filter(p -> PodFailurePolicies.match(ctx.spec.getPodFailurePolicy(), p)
                .countFailed()).count();
    }

    /** OnFailure: the containers' restarts in running pods add up to the backoff limit (JOB-17, AC-JOB-08). */
    static boolean pastBackoffLimitOnFailure(JobContext ctx, int backoffLimit) {
        String policy = ctx.spec.getTemplate() == null || ctx.spec.getTemplate().getSpec() == null ? null
                : ctx.spec.getTemplate().getSpec().getRestartPolicy();
        if (!"OnFailure".equals(policy)) {
            return false;
        }
        int restarts = 0;
        for (Pod p : ctx.pods) {
            String phase = PodStates.phase(p);
            if (!"Running".equals(phase) && !"Pending".equals(phase)) {
                continue;
            }
            for (List<ContainerStatus> list : java.util.Arrays.asList(p.getStatus() == null ? null
                    : p.getStatus().getInitContainerStatuses(), p.getStatus() == null ? null
                    : p.getStatus().getContainerStatuses())) {
                if (list != null) {
                    for (ContainerStatus s : list) {
                        restarts += s.getRestartCount() == null ? 0 : s.getRestartCount();
                    }
                }
            }
        }
        return backoffLimit == 0 ? restarts > 0 : restarts >= backoffLimit;
    }

    /**
     * JOB-19: activeDeadlineSeconds passed since startTime. Never while suspended, nor in the step that resumes the
     * Job, which starts startTime over (JOB-X06: the timer stops while suspended; upstream checks the old startTime
     * first, so a Job suspended past its deadline fails on resume).
     */
    static boolean pastActiveDeadline(JobContext ctx) {
        Long ads = ctx.spec.getActiveDeadlineSeconds();
        if (ads == null || ctx.status.getStartTime() == null || ctx.suspended() || resuming(ctx)) {
            return false;
        }
        return !Duration.between(ctx.status.getStartTime(), ctx.now).minusSeconds(ads).isNegative();
    }

    private static boolean resuming(JobContext ctx) {
        return JobConditions.findTrue(ctx.job, JobConditions.SUSPENDED).isPresent();
    }

    /** The Events of a Job that just finished (upstream's recordJobFinished). */
    private static void recordFinished(JobContext ctx) {
        JobCondition c = Conditions.find(ctx.status.getConditions(), JobConditions.COMPLETE)
                .filter(x -> "True".equals(x.getStatus())).orElse(null);
        if (c != null) {
            if (ctx.spec.getCompletions() != null && FinalizerTracking.n(ctx.status.getSucceeded()) > ctx.spec.getCompletions()) {
                ctx.events.add(EventNotice.warning(ctx.ref, "TooManySucceededPods",
                        "Too many succeeded pods running after completion count reached"));
            }
            ctx.events.add(EventNotice.normal(ctx.ref, "Completed", "Job completed"));
            return;
        }
        Conditions.find(ctx.status.getConditions(), JobConditions.FAILED).ifPresent(f ->
                ctx.events.add(EventNotice.warning(ctx.ref, f.getReason(), f.getMessage())));
    }

    /** A finished Job: the finalizers its pods may still carry go (upstream's cleanupPodFinalizers). */
    private static Decision finished(Job job, List<Pod> candidates) {
        List<Action> actions = new ArrayList<>();
        for (Pod p : candidates) {
            if (Owners.isControlledBy(p.getMetadata(), job.getMetadata().getUid()) && FinalizerTracking.hasFinalizer(p)) {
                actions.add(FinalizerTracking.removeFinalizer(p));
            }
        }
        return new Decision(actions, List.of(), null, null);
    }

    private static Integer nullIfZero(int i) {
        return i == 0 ? null : i;
    }
}
