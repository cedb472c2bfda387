package io.eventplane.controllers.job;

import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodFailurePolicy;
import io.eventplane.model.PodFailurePolicyOnExitCodesRequirement;
import io.eventplane.model.PodFailurePolicyOnPodConditionsPattern;
import io.eventplane.model.PodFailurePolicyRule;
import io.eventplane.model.PodStatus;
import java.util.List;
import java.util.Objects;

/**
 * A failed pod against the Job's {@code podFailurePolicy} (JOB-X03): rules in order, the first that matches decides.
 * {@code onExitCodes} looks at terminated containers with a non-zero exit code (app containers, then init
 * containers); {@code onPodConditions} at the pod's conditions (DisruptionTarget from an eviction, the taint manager,
 * the kubelet or PodGC). A rule with an action this controller does not know is skipped. Pure.
 */
final class PodFailurePolicies {
    static final String FAIL_JOB = "FailJob";
    static final String FAIL_INDEX = "FailIndex";
    static final String IGNORE = "Ignore";
    static final String COUNT = "Count";

    /**
     * What a failed pod means under the policy.
     *
     * @param failJobMessage the Job's failure message when a FailJob rule matched, else null
     * @param countFailed    whether the failure counts toward backoffLimit (false for Ignore)
     * @param action         the matching rule's action, or null when none matched
     */
    record Match(String failJobMessage, boolean countFailed, String action) {
        static final Match DEFAULT = new Match(null, true, null);
    }

    private PodFailurePolicies() {
    }

    static Match match(PodFailurePolicy policy, Pod pod) {
        if (policy == null || policy.getRules() == null) {
            return Match.DEFAULT;
        }
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        List<PodFailurePolicyRule> rules = policy.getRules();
        for (int i = 0; i < rules.size(); i++) {
            PodFailurePolicyRule rule = rules.get(i);
            String action = rule.getAction();
            if (rule.getOnExitCodes() != null) {
                ContainerStatus c = matchOnExitCodes(status, rule.getOnExitCodes());
                if (c != null) {
                    String message = "Container " + c.getName() + " for pod " + pod.getMetadata().getNamespace() + "/"
                            + pod.getMetadata().getName() + " failed with exit code "
                            + c.getState().getTerminated().getExitCode() + " matching " + action + " rule at index " + i;
                    Match m = decide(action, message);
                    if (m != null) {
                        return m;
                    }
                }
            } else if (rule.getOnPodConditions() != null) {
                PodCondition c = matchOnPodConditions(status, rule.getOnPodConditions());
                if (c != null) {
                    String message = "Pod " + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName()
                            + " has condition " + c.getType() + " matching " + action + " rule at index " + i;
                    Match m = decide(action, message);
                    if (m != null) {
                        return m;
                    }
                }
            }
        }
        return Match.DEFAULT;
    }

    /** The match for a rule's action, or null for an action this controller does not know (the rule is skipped). */
    private static Match decide(String action, String failJobMessage) {
        if (action == null) {
            return null;
        }
        return switch (action) {
            case IGNORE -> new Match(null, false, IGNORE);
            case FAIL_INDEX -> new Match(null, true, FAIL_INDEX);
            case COUNT -> new Match(null, true, COUNT);
            case FAIL_JOB -> new Match(failJobMessage, true, FAIL_JOB);
            default -> null;
        };
    }

    private static ContainerStatus matchOnExitCodes(PodStatus status, PodFailurePolicyOnExitCodesRequirement req) {
        ContainerStatus c = matchingContainer(status.getContainerStatuses(), req);
        return c != null ? c : matchingContainer(status.getInitContainerStatuses(), req);
    }

    private static ContainerStatus matchingContainer(List<ContainerStatus> statuses,
                                                     PodFailurePolicyOnExitCodesRequirement req) {
        if (statuses == null) {
            return null;
        }
        for (ContainerStatus s : statuses) {
            if (s.getState() == null || s.getState().getTerminated() == null) {
                continue; // still terminating: no exit code to match
            }
            if (req.getContainerName() != null && !req.getContainerName().equals(s.getName())) {
                continue;
            }
            Integer code = s.getState().getTerminated().getExitCode();
            if (code != null && code != 0 && operatorMatches(code, req)) {
                return s;
            }
        }
        return null;
    }

    private static boolean operatorMatches(int code, PodFailurePolicyOnExitCodesRequirement req) {
        List<Integer> values = req.getValues() == null ? List.of() : req.getValues();
        if ("In".equals(req.getOperator())) {
            return values.contains(code);
        }
        if ("NotIn".equals(req.getOperator())) {
            return !values.contains(code);
        }
        return false;
    }

    private static PodCondition matchOnPodConditions(PodStatus status, List<PodFailurePolicyOnPodConditionsPattern> patterns) {
        if (status.getConditions() == null) {
            return null;
        }
        for (PodCondition c : status.getConditions()) {
            for (PodFailurePolicyOnPodConditionsPattern p : patterns) {
                if (Objects.equals(c.getType(), p.getType()) && Objects.equals(c.getStatus(), p.getStatus())) {
                    return c;
                }
            }
        }
        return null;
    }

    /** The Job's failure message if one of its failed pods matches a FailJob rule, else null. */
    static String failJobMessage(JobContext ctx) {
        PodFailurePolicy policy = ctx.spec.getPodFailurePolicy();
        if (policy == null) {
            return null;
        }
        for (Pod p : ctx.pods) {
            if (ctx.isPodFailed(p)) {
                String message = match(policy, p).failJobMessage();
                if (message != null) {
                    return message;
                }
            }
        }
        return null;
    }
}
