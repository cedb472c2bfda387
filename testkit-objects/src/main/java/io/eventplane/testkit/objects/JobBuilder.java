package io.eventplane.testkit.objects;

import io.eventplane.model.Job;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.PodFailurePolicy;
import io.eventplane.model.SuccessPolicy;

/**
 * A Job as a user creates it: no selector (the API server generates one), template labels app=&lt;name&gt;, template
 * restartPolicy Never, one container "c" (image nginx); parallelism, completions and backoffLimit unset.
 */
public final class JobBuilder extends WorkloadBuilder<JobBuilder> {
    private final JobSpec.Builder spec = JobSpec.newBuilder();
    private JobStatus status;

    JobBuilder(String name) {
        super(name);
        withoutSelector();
        template(t -> t.restartPolicy("Never"));
    }

    public JobBuilder parallelism(int parallelism) {
        spec.setParallelism(parallelism);
        return this;
    }

    public JobBuilder completions(int completions) {
        spec.setCompletions(completions);
        return this;
    }

    public JobBuilder backoffLimit(int limit) {
        spec.setBackoffLimit(limit);
        return this;
    }

    /** completionMode Indexed (NonIndexed when unset). */
    public JobBuilder indexed() {
        spec.setCompletionMode("Indexed");
        return this;
    }

    public JobBuilder backoffLimitPerIndex(int limit) {
        spec.setBackoffLimitPerIndex(limit);
        return this;
    }

    public JobBuilder maxFailedIndexes(int max) {
        spec.setMaxFailedIndexes(max);
        return this;
    }

    public JobBuilder activeDeadlineSeconds(long seconds) {
        spec.setActiveDeadlineSeconds(seconds);
        return this;
    }

    public JobBuilder ttlSecondsAfterFinished(int seconds) {
        spec.setTtlSecondsAfterFinished(seconds);
        return this;
    }

    public JobBuilder suspended() {
        spec.setSuspend(true);
        return this;
    }

    /** The selector is the user's own (spec.manualSelector true); give it with {@link #selector}. */
    public JobBuilder manualSelector() {
        spec.setManualSelector(true);
        return this;
    }

    /** TerminatingOrFailed or Failed. */
    public JobBuilder podReplacementPolicy(String policy) {
        spec.setPodReplacementPolicy(policy);
        return this;
    }

    public JobBuilder podFailurePolicy(PodFailurePolicy policy) {
        spec.setPodFailurePolicy(policy);
        return this;
    }

    public JobBuilder successPolicy(SuccessPolicy policy) {
        spec.setSuccessPolicy(policy);
        return this;
    }

    public JobBuilder status(JobStatus status) {
        this.status = status;
        return this;
    }

    public Job build() {
        return Job.newBuilder().setMetadata(buildMeta())
                .setSpec(spec.setSelector(buildSelector()).setTemplate(buildTemplate()).build())
                .setStatus(status).build();
    }
}
