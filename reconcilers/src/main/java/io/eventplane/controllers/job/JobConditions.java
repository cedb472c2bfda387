package io.eventplane.controllers.job;

import io.eventplane.core.meta.Conditions;
import io.eventplane.model.Job;
import io.eventplane.model.JobCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Job's conditions as kube-controller-manager's job controller writes them (JOB-27, JOB-X05, JOB-X06): the types,
 * the reasons, and its rule for changing one (a condition whose status, reason or message changes is written anew with
 * both times set to now; a False condition is never added where none was). Pure.
 */
public final class JobConditions {
    public static final String COMPLETE = "Complete";
    public static final String FAILED = "Failed";
    public static final String SUSPENDED = "Suspended";
    public static final String FAILURE_TARGET = "FailureTarget";
    public static final String SUCCESS_CRITERIA_MET = "SuccessCriteriaMet";

    static final String BACKOFF_LIMIT_EXCEEDED = "BackoffLimitExceeded";
    static final String DEADLINE_EXCEEDED = "DeadlineExceeded";
    static final String POD_FAILURE_POLICY = "PodFailurePolicy";
    static final String MAX_FAILED_INDEXES_EXCEEDED = "MaxFailedIndexesExceeded";
    static final String FAILED_INDEXES = "FailedIndexes";
    static final String SUCCESS_POLICY = "SuccessPolicy";
    static final String COMPLETIONS_REACHED = "CompletionsReached";

    private JobConditions() {
    }

    static JobCondition of(String type, String status, String reason, String message, Instant now) {
        return JobCondition.newBuilder().setType(type).setStatus(status).setReason(reason).setMessage(message)
                .setLastProbeTime(now).setLastTransitionTime(now).build();
    }

    static JobCondition trueOf(String type, String reason, String message, Instant now) {
        return of(type, "True", reason, message, now);
    }

    /** The condition of {@code type} with status True, if the job has one. */
    public static Optional<JobCondition> findTrue(Job job, String type) {
        List<JobCondition> list = job.getStatus() == null ? null : job.getStatus().getConditions();
        return Conditions.find(list, type).filter(c -> "True".equals(c.getStatus()));
    }

    /** Complete or Failed: the job controller does nothing more with it (JOB-21). */
    public static boolean isFinished(Job job) {
        return findTrue(job, COMPLETE).isPresent() || findTrue(job, FAILED).isPresent();
    }

    /** When the job finished: its Complete or Failed condition's lastTransitionTime, or empty (TTL-X01). */
    public static Optional<Instant> finishTime(Job job) {
        return findTrue(job, COMPLETE).or(() -> findTrue(job, FAILED)).map(JobCondition::getLastTransitionTime);
    }

    /**
     * {@code list} with the condition of {@code type} at {@code status}, or {@code list} itself when it already says so
     * (upstream's ensureJobConditionStatus).
     */
    static List<JobCondition> ensure(List<JobCondition> list, String type, String status, String reason, String message,
                                     Instant now) {
        List<JobCondition> in = list == null ? List.of() : list;
        Optional<JobCondition> existing = Conditions.find(in, type);
        if (existing.isPresent()) {
            JobCondition c = existing.get();
            if (Objects.equals(c.getStatus(), status) && Objects.equals(c.getReason(), reason)
                    && Objects.equals(c.getMessage(), message)) {
                return list;
            }
            List<JobCondition> out = new ArrayList<>();
            for (JobCondition x : in) {
                out.add(x == c ? of(type, status, reason, message, now) : x);
            }
            return out;
        }
        if ("False".equals(status)) {
            return list;
        }
        List<JobCondition> out = new ArrayList<>(in);
        out.add(of(type, status, reason, message, now));
        return out;
    }
}
