package io.eventplane.core.decide;

import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.log.StatusCause;
import io.eventplane.model.Affinity;
import io.eventplane.model.Job;
import io.eventplane.model.JobSpec;
import io.eventplane.model.JobStatus;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodFailurePolicy;
import io.eventplane.model.PodFailurePolicyOnPodConditionsPattern;
import io.eventplane.model.PodFailurePolicyRule;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * batch/v1 Job defaulting, selector generation and validation (workloads.md §5.1, §5.2, §5.7: JOB-01 to JOB-08,
 * JOB-X01 to JOB-X09).
 */
final class JobRules implements KindRules<Job> {

    /** GC-15: a delete without propagationPolicy orphans the pods (Kubernetes' backward-compatible default). */
    @Override
    public String defaultPropagationPolicy() {
        return "Orphan";
    }
    static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    static final String JOB_NAME = "batch.kubernetes.io/job-name";
    static final String LEGACY_CONTROLLER_UID = "controller-uid";
    static final String LEGACY_JOB_NAME = "job-name";
    static final List<String> COMPLETION_MODES = List.of("NonIndexed", "Indexed");
    static final List<String> REPLACEMENT_POLICIES = List.of("TerminatingOrFailed", "Failed");
    static final List<String> ACTIONS = List.of("FailJob", "FailIndex", "Ignore", "Count");

    @Override
    public Job defaults(Job job) {
        if (job.getSpec() == null) {
            return job;
        }
        JobSpec.Builder spec = JobSpec.newBuilder(job.getSpec());
        if (spec.getCompletions() == null && spec.getParallelism() == null) {
            spec.setCompletions(1); // JOB-07
            spec.setParallelism(1);
        }
        if (spec.getParallelism() == null) {
            spec.setParallelism(1); // JOB-08
        }
        if (spec.getBackoffLimit() == null) {
            spec.setBackoffLimit(spec.getBackoffLimitPerIndex() != null ? Integer.MAX_VALUE : 6); // JOB-14, JOB-X02
        }
        if (spec.getCompletionMode() == null) {
            spec.setCompletionMode("NonIndexed"); // JOB-X01
        }
        if (spec.getSuspend() == null) {
            spec.setSuspend(false); // JOB-X06
        }
        if (spec.getPodFailurePolicy() != null) {
            spec.setPodFailurePolicy(conditionStatusDefaults(spec.getPodFailurePolicy()));
        }
        if (spec.getPodReplacementPolicy() == null) {
            spec.setPodReplacementPolicy(spec.getPodFailurePolicy() != null ? "Failed" : "TerminatingOrFailed"); // JOB-X07
        }
        if (spec.getManualSelector() == null) {
            spec.setManualSelector(false);
        }
        spec.setTemplate(Workloads.defaults(spec.getTemplate()));
        return withTemplateLabels(Job.newBuilder(job).setSpec(spec.build()).build());
    }

    private static PodFailurePolicy conditionStatusDefaults(PodFailurePolicy policy) {
        if (policy.getRules() == null) {
            return policy;
        }
        List<PodFailurePolicyRule> rules = new ArrayList<>();
        for (PodFailurePolicyRule r : policy.getRules()) {
            if (r.getOnPodConditions() == null) {
                rules.add(r);
                continue;
            }
            List<PodFailurePolicyOnPodConditionsPattern> patterns = new ArrayList<>();
            for (PodFailurePolicyOnPodConditionsPattern p : r.getOnPodConditions()) {
                patterns.add(p.getStatus() == null ? PodFailurePolicyOnPodConditionsPattern.newBuilder(p).setStatus("True").build() : p);
            }
            rules.add(PodFailurePolicyRule.newBuilder(r).setOnPodConditions(patterns).build());
        }
        return PodFailurePolicy.newBuilder(policy).setRules(rules).build();
    }

    /** A Job without labels of its own shows its template's labels (JOB-03). */
    private static Job withTemplateLabels(Job job) {
        Map<String, String> labels = Workloads.labels(job.getSpec() == null ? null : job.getSpec().getTemplate());
        ObjectMeta meta = Workloads.meta(job.getMetadata());
        if (labels == null || (meta.getLabels() != null && !meta.getLabels().isEmpty())) {
            return job;
        }
        return Job.newBuilder(job).setMetadata(ObjectMeta.newBuilder(meta).setLabels(labels).build()).build();
    }

    /**
     * The generated selector (JOB-03, JOB-X09): unless {@code manualSelector} is true, the template gets the
     * {@code controller-uid} and {@code job-name} labels (batch.kubernetes.io/ and legacy) and the selector selects
     * {@code batch.kubernetes.io/controller-uid}. Labels the user set are kept; a conflict fails validation.
     */
    @Override
    public Job prepareForCreate(Job job, Instant now) {
        Job.Builder out = Job.newBuilder(job).setStatus(new JobStatus());
        JobSpec spec = job.getSpec();
        if (spec != null && !Boolean.TRUE.equals(spec.getManualSelector())) {
            ObjectMeta meta = Workloads.meta(job.getMetadata());
            PodTemplateSpec template = spec.getTemplate() == null ? new PodTemplateSpec() : spec.getTemplate();
            ObjectMeta templateMeta = Workloads.meta(template.getMetadata());
            Map<String, String> labels = templateMeta.getLabels() == null ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(templateMeta.getLabels());
            labels.putIfAbsent(LEGACY_JOB_NAME, meta.getName());
            labels.putIfAbsent(JOB_NAME, meta.getName());
            labels.putIfAbsent(LEGACY_CONTROLLER_UID, meta.getUid());
            labels.putIfAbsent(CONTROLLER_UID, meta.getUid());
            LabelSelector selector = spec.getSelector() == null ? new LabelSelector()
                    : LabelSelector.newBuilder(spec.getSelector()).build();
            Map<String, String> matchLabels = selector.getMatchLabels() == null ? new LinkedHashMap<>()
                    : new LinkedHashMap<>(selector.getMatchLabels());
            matchLabels.putIfAbsent(CONTROLLER_UID, meta.getUid());
            selector.setMatchLabels(matchLabels);
            out.setSpec(JobSpec.newBuilder(spec).setSelector(selector)
                    .setTemplate(PodTemplateSpec.newBuilder(template)
                            .setMetadata(ObjectMeta.newBuilder(templateMeta).setLabels(labels).build()).build())
                    .build());
        }
        return withTemplateLabels(out.build());
    }

    @Override
    public List<StatusCause> validate(Job job) {
        List<StatusCause> causes = new ArrayList<>();
        JobSpec spec = job.getSpec();
        if (spec == null) {
            causes.add(Causes.required("spec"));
            return causes;
        }
        if (spec.getSelector() == null) {
            causes.add(Causes.required("spec.selector"));
        } else {
            int before = causes.size();
            Workloads.wellFormed("spec.selector", spec.getSelector(), causes);
            if (causes.size() == before) {
                Workloads.templateLabels("spec.template", spec.getSelector(), spec.getTemplate(), causes);
            }
        }
        validateSpec("spec", spec, causes);
        return causes;
    }

    /** Job spec rules shared with a CronJob's job template ({@code path} is {@code spec} or {@code spec.jobTemplate.spec}). */
    static void validateSpec(String path, JobSpec spec, List<StatusCause> causes) {
        Workloads.nonNegative(path + ".parallelism", spec.getParallelism(), causes);
        Workloads.nonNegative(path + ".completions", spec.getCompletions(), causes);
        Workloads.nonNegative(path + ".activeDeadlineSeconds", spec.getActiveDeadlineSeconds(), causes);
        Workloads.nonNegative(path + ".backoffLimit", spec.getBackoffLimit(), causes);
        Workloads.nonNegative(path + ".ttlSecondsAfterFinished", spec.getTtlSecondsAfterFinished(), causes);
        String mode = spec.getCompletionMode();
        if (mode != null && !COMPLETION_MODES.contains(mode)) {
            causes.add(Causes.notSupported(path + ".completionMode", mode, COMPLETION_MODES));
        }
        boolean indexed = "Indexed".equals(mode);
        if (indexed && spec.getCompletions() == null) {
            causes.add(Causes.required(path + ".completions", "when completion mode is Indexed")); // JOB-X01
        }
        if (spec.getBackoffLimitPerIndex() != null) { // JOB-X02
            Workloads.nonNegative(path + ".backoffLimitPerIndex", spec.getBackoffLimitPerIndex(), causes);
            if (!indexed) {
                causes.add(Causes.forbidden(path + ".backoffLimitPerIndex", "requires indexed completion mode"));
            }
        }
        if (spec.getMaxFailedIndexes() != null) {
            Workloads.nonNegative(path + ".maxFailedIndexes", spec.getMaxFailedIndexes(), causes);
            if (spec.getBackoffLimitPerIndex() == null) {
                causes.add(Causes.forbidden(path + ".maxFailedIndexes",
                        "cannot set maxFailedIndexes when backoffLimitPerIndex is not set"));
            } else if (spec.getCompletions() != null && spec.getMaxFailedIndexes() > spec.getCompletions()) {
                causes.add(Causes.invalid(path + ".maxFailedIndexes", spec.getMaxFailedIndexes(),
                        "must be less than or equal to completions"));
            }
        }
        if (spec.getSuccessPolicy() != null && !indexed) {
            causes.add(Causes.invalidShown(path + ".successPolicy", "{...}", "requires indexed completion mode")); // JOB-X04
        }
        String restartPolicy = spec.getTemplate() == null || spec.getTemplate().getSpec() == null ? null
                : spec.getTemplate().getSpec().getRestartPolicy();
        if (spec.getPodFailurePolicy() != null) {
            podFailurePolicy(path, spec, restartPolicy, causes);
        }
        String replacement = spec.getPodReplacementPolicy();
        if (replacement != null) {
            List<String> allowed = spec.getPodFailurePolicy() != null ? List.of("Failed") : REPLACEMENT_POLICIES;
            if (!allowed.contains(replacement)) {
                causes.add(Causes.notSupported(path + ".podReplacementPolicy", replacement, allowed));
            }
        }
        if (spec.getManagedBy() != null && (spec.getManagedBy().isEmpty() || spec.getManagedBy().length() > 63)) {
            causes.add(Causes.invalid(path + ".managedBy", spec.getManagedBy(), "must be no more than 63 characters"));
        }
        Workloads.template(path + ".template", spec.getTemplate(), Workloads.ON_FAILURE_OR_NEVER, null, causes); // JOB-02
    }

    /** JOB-X03: at most 20 rules, known actions, exactly one of onExitCodes and onPodConditions, Never only. */
    private static void podFailurePolicy(String path, JobSpec spec, String restartPolicy, List<StatusCause> causes) {
        String p = path + ".podFailurePolicy";
        if ("OnFailure".equals(restartPolicy)) {
            causes.add(Causes.invalid(path + ".template.spec.restartPolicy", restartPolicy,
                    "only \"Never\" is supported when podFailurePolicy is specified"));
        }
        List<PodFailurePolicyRule> rules = spec.getPodFailurePolicy().getRules() == null ? List.of()
                : spec.getPodFailurePolicy().getRules();
        if (rules.size() > 20) {
            causes.add(Causes.cause("FieldValueTooMany", p + ".rules", p + ".rules: Too many: " + rules.size()
                    + ": must have at most 20 items"));
        }
        for (int i = 0; i < rules.size(); i++) {
            PodFailurePolicyRule r = rules.get(i);
            String f = p + ".rules[" + i + "]";
            String action = r.getAction() == null ? "" : r.getAction();
            if (!ACTIONS.contains(action)) {
                causes.add(Causes.notSupported(f + ".action", action, ACTIONS));
            } else if (action.equals("FailIndex") && spec.getBackoffLimitPerIndex() == null) {
                causes.add(Causes.forbidden(f + ".action", "requires the backoffLimitPerIndex to be set"));
            }
            boolean exitCodes = r.getOnExitCodes() != null;
            boolean conditions = r.getOnPodConditions() != null && !r.getOnPodConditions().isEmpty();
            if (exitCodes == conditions) {
                causes.add(Causes.invalidShown(f, "{...}", "specifying one of OnExitCodes and OnPodConditions is required"));
            }
            if (exitCodes) {
                String op = r.getOnExitCodes().getOperator() == null ? "" : r.getOnExitCodes().getOperator();
                if (!List.of("In", "NotIn").contains(op)) {
                    causes.add(Causes.notSupported(f + ".onExitCodes.operator", op, List.of("In", "NotIn")));
                }
                if (r.getOnExitCodes().getValues() == null || r.getOnExitCodes().getValues().isEmpty()) {
                    causes.add(Causes.required(f + ".onExitCodes.values", "at least one value is required"));
                }
            }
        }
    }

    /** A selector the user gave without {@code manualSelector: true} is refused (JOB-04, AC-JOB-13). */
    @Override
    public List<StatusCause> validateCreate(Job job) {
        List<StatusCause> causes = new ArrayList<>();
        JobSpec spec = job.getSpec();
        if (spec == null || Boolean.TRUE.equals(spec.getManualSelector()) || spec.getSelector() == null) {
            return causes;
        }
        ObjectMeta meta = Workloads.meta(job.getMetadata());
        Map<String, String> labels = Workloads.labels(spec.getTemplate());
        hasLabel(labels, LEGACY_CONTROLLER_UID, meta.getUid(), causes);
        hasLabel(labels, LEGACY_JOB_NAME, meta.getName(), causes);
        hasLabel(labels, CONTROLLER_UID, meta.getUid(), causes);
        hasLabel(labels, JOB_NAME, meta.getName(), causes);
        if (!LabelSelectors.matches(spec.getSelector(), Map.of(CONTROLLER_UID, meta.getUid()))) {
            causes.add(Causes.invalidShown("spec.selector", Workloads.show(spec.getSelector()), "`selector` not auto-generated"));
        }
        return causes;
    }

    private static void hasLabel(Map<String, String> labels, String key, String expected, List<StatusCause> causes) {
        String actual = labels == null ? null : labels.get(key);
        String field = "spec.template.metadata.labels";
        if (actual == null) {
            causes.add(Causes.required(field, "must include " + key));
        } else if (!actual.equals(expected)) {
            causes.add(Causes.invalid(field, actual, "must be '" + expected + "'"));
        }
    }

    /** JOB-05: the template, selector and the shape of the Job cannot change once created. */
    @Override
    public List<StatusCause> validateUpdate(Job old, Job updated) {
        List<StatusCause> causes = new ArrayList<>();
        JobSpec o = old.getSpec();
        JobSpec n = updated.getSpec();
        if (o == null || n == null) {
            return causes;
        }
        boolean elastic = "Indexed".equals(n.getCompletionMode()) && Objects.equals(n.getCompletions(), n.getParallelism());
        if (!elastic) {
            Workloads.immutable("spec.completions", o.getCompletions(), n.getCompletions(),
                    String.valueOf(n.getCompletions()), causes);
        }
        Workloads.immutable("spec.selector", o.getSelector(), n.getSelector(), Workloads.show(n.getSelector()), causes);
        PodTemplateSpec oldTemplate = o.getTemplate();
        if (Boolean.TRUE.equals(o.getSuspend()) && (old.getStatus() == null || old.getStatus().getStartTime() == null)) {
            oldTemplate = withSchedulingDirectives(oldTemplate, n.getTemplate());
        }
        Workloads.immutable("spec.template", oldTemplate, n.getTemplate(), "core.PodTemplateSpec{...}", causes);
        Workloads.immutable("spec.completionMode", o.getCompletionMode(), n.getCompletionMode(),
                '"' + String.valueOf(n.getCompletionMode()) + '"', causes);
        Workloads.immutable("spec.podFailurePolicy", o.getPodFailurePolicy(), n.getPodFailurePolicy(), "{...}", causes);
        Workloads.immutable("spec.backoffLimitPerIndex", o.getBackoffLimitPerIndex(), n.getBackoffLimitPerIndex(),
                String.valueOf(n.getBackoffLimitPerIndex()), causes);
        Workloads.immutable("spec.managedBy", o.getManagedBy(), n.getManagedBy(), '"' + String.valueOf(n.getManagedBy()) + '"', causes);
        Workloads.immutable("spec.successPolicy", o.getSuccessPolicy(), n.getSuccessPolicy(), "{...}", causes);
        return causes;
    }

    /**
     * A suspended Job that never started may change its template's scheduling directives (node affinity, node
     * selector, tolerations, scheduling gates) and its labels and annotations: {@code old} with those taken from
     * {@code updated}.
     */
    private static PodTemplateSpec withSchedulingDirectives(PodTemplateSpec old, PodTemplateSpec updated) {
        if (old == null || updated == null || old.getSpec() == null || updated.getSpec() == null) {
            return old;
        }
        PodSpec n = updated.getSpec();
        PodSpec.Builder spec = PodSpec.newBuilder(old.getSpec()).setNodeSelector(n.getNodeSelector())
                .setTolerations(n.getTolerations()).setSchedulingGates(n.getSchedulingGates());
        Affinity oldAffinity = old.getSpec().getAffinity();
        Affinity newAffinity = n.getAffinity();
        if (newAffinity == null && oldAffinity != null) {
            Affinity rest = Affinity.newBuilder(oldAffinity).setNodeAffinity(null).build();
            spec.setAffinity(rest.equals(new Affinity()) ? null : rest);
        } else if (newAffinity != null) {
            spec.setAffinity(oldAffinity == null ? Affinity.newBuilder().setNodeAffinity(newAffinity.getNodeAffinity()).build()
                    : Affinity.newBuilder(oldAffinity).setNodeAffinity(newAffinity.getNodeAffinity()).build());
        }
        ObjectMeta meta = Workloads.meta(old.getMetadata());
        ObjectMeta newMeta = Workloads.meta(updated.getMetadata());
        return PodTemplateSpec.newBuilder(old).setSpec(spec.build()).setMetadata(ObjectMeta.newBuilder(meta)
                .setLabels(newMeta.getLabels()).setAnnotations(newMeta.getAnnotations()).build()).build();
    }
}
