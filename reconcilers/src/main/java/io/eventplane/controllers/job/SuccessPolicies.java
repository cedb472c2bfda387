package io.eventplane.controllers.job;

import io.eventplane.model.SuccessPolicy;
import io.eventplane.model.SuccessPolicyRule;
import java.util.List;
import java.util.Optional;

/**
 * An Indexed Job's {@code successPolicy} (JOB-X04): the first rule met by the succeeded indexes makes the Job
 * SuccessCriteriaMet. A rule with {@code succeededIndexes} is met when all of them succeeded, or, with
 * {@code succeededCount}, when that many of them did; a rule with only {@code succeededCount} when that many indexes
 * succeeded. Pure.
 */
final class SuccessPolicies {
    private SuccessPolicies() {
    }

    /** The condition's message ("Matched rules at index 0") when a rule is met. */
    static Optional<String> match(SuccessPolicy policy, int completions, OrderedIntervals succeeded) {
        if (policy == null || policy.getRules() == null || succeeded.isEmpty()) {
            return Optional.empty();
        }
        List<SuccessPolicyRule> rules = policy.getRules();
        for (int i = 0; i < rules.size(); i++) {
            SuccessPolicyRule rule = rules.get(i);
            if (rule.getSucceededIndexes() != null) {
                OrderedIntervals required = OrderedIntervals.parse(rule.getSucceededIndexes(), completions);
                if (required.isEmpty()) {
                    continue; // an unreadable rule is skipped
                }
                if (indexesRuleMet(required, succeeded, rule.getSucceededCount())) {
                    return Optional.of("Matched rules at index " + i);
                }
            } else if (rule.getSucceededCount() != null && succeeded.total() >= rule.getSucceededCount()) {
                return Optional.of("Matched rules at index " + i);
            }
        }
        return Optional.empty();
    }

    /** How many of the rule's indexes succeeded: all of them, or at least {@code count}. */
    static boolean indexesRuleMet(OrderedIntervals rule, OrderedIntervals succeeded, Integer count) {
        int contains = 0;
        List<OrderedIntervals.Interval> r = rule.intervals();
        List<OrderedIntervals.Interval> s = succeeded.intervals();
        int ri = 0;
        int si = 0;
        while (ri < r.size() && si < s.size()) {
            int overlap = Math.min(r.get(ri).last(), s.get(si).last()) - Math.max(r.get(ri).first(), s.get(si).first()) + 1;
            if (overlap > 0) {
                contains += overlap;
            }
            if (s.get(si).last() < r.get(ri).last()) {
                si++;
            } else if (s.get(si).last() > r.get(ri).last()) {
                ri++;
            } else {
                si++;
                ri++;
            }
        }
        return contains == rule.total() || (count != null && contains >= count);
    }
}
