package io.eventplane.controllers.podautoscaler;

import io.eventplane.core.decide.HorizontalPodAutoscalerRules;
import io.eventplane.model.HPAScalingPolicy;
import io.eventplane.model.HPAScalingRules;
import io.eventplane.model.HorizontalPodAutoscalerBehavior;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An HPA's {@code behavior} applied to a recommendation: the stabilization windows (scaling up to the lowest
 * recommendation of the up window, down to the highest of the down window), then the scaling policies (how much the
 * replicas may change per period, counting the changes already made in it) and min/max. Without a behavior the
 * defaults apply: no up window, a 300 s down window, +4 pods or +100% and -100% per 15 s. Pure.
 */
final class ScalingBehavior {
    /** kube-controller-manager's --horizontal-pod-autoscaler-downscale-stabilization. */
    static final Duration DOWNSCALE_STABILIZATION = Duration.ofMinutes(5);

    /** A recommendation made at a time (what the stabilization windows look back over). */
    record Recommendation(int replicas, Instant at) {
    }

    /** A change of the target's replicas made at a time (what the policies' periods count). */
    record ScaleEvent(int change, Instant at) {
    }

    /** What the controller remembers of one HPA between steps (as upstream, in memory). */
    record History(List<Recommendation> recommendations, List<ScaleEvent> ups, List<ScaleEvent> downs) {
        static final History EMPTY = new History(List.of(), List.of(), List.of());

        History {
            recommendations = List.copyOf(recommendations);
            ups = List.copyOf(ups);
            downs = List.copyOf(downs);
        }

        /** This history with a scale from {@code from} to {@code to} at {@code now}; events older than an hour go. */
        History scaled(int from, int to, Instant now) {
            Instant horizon = now.minus(Duration.ofSeconds(HorizontalPodAutoscalerRules.MAX_PERIOD_SECONDS));
            List<ScaleEvent> u = recent(ups, horizon);
            List<ScaleEvent> d = recent(downs, horizon);
            (to > from ? u : d).add(new ScaleEvent(Math.abs(to - from), now));
            return new History(recommendations, u, d);
        }

        private static List<ScaleEvent> recent(List<ScaleEvent> events, Instant horizon) {
            List<ScaleEvent> out = new ArrayList<>();
            events.stream().filter(e -> e.at().isAfter(horizon)).forEach(out::add);
            return out;
        }
    }

    /** The replicas to scale to, why (the AbleToScale and ScalingLimited conditions), and the updated history. */
    record Outcome(int replicas, String stabilizedReason, String stabilizedMessage, boolean limited,
                   String limitReason, String limitMessage, History history) {
    }

    private ScalingBehavior() {
    }

    static Outcome apply(HorizontalPodAutoscalerBehavior behavior, int min, int max, int current, int recommended,
                         History history, Instant now) {
        HPAScalingRules up = HorizontalPodAutoscalerRules.complete(behavior == null ? null : behavior.getScaleUp(),
                HorizontalPodAutoscalerRules.defaultScaleUp());
        HPAScalingRules down = HorizontalPodAutoscalerRules.complete(behavior == null ? null
                : behavior.getScaleDown(), HorizontalPodAutoscalerRules.defaultScaleDown());
        Duration upWindow = Duration.ofSeconds(up.getStabilizationWindowSeconds() == null ? 0
                : up.getStabilizationWindowSeconds());
        Duration downWindow = down.getStabilizationWindowSeconds() == null ? DOWNSCALE_STABILIZATION
                : Duration.ofSeconds(down.getStabilizationWindowSeconds());

        Instant upCutoff = now.minus(upWindow);
        Instant downCutoff = now.minus(downWindow);
        int upFloor = recommended;
        int downCeiling = recommended;
        List<Recommendation> kept = new ArrayList<>();
        // An HPA seen for the first time starts from its current size: its first scale-down waits a whole window.
        List<Recommendation> past = history.recommendations().isEmpty()
                ? List.of(new Recommendation(current, now)) : history.recommendations();
        for (Recommendation r : past) {
            if (r.at().isAfter(upCutoff)) {
                upFloor = Math.min(upFloor, r.replicas());
            }
            if (r.at().isAfter(downCutoff)) {
                downCeiling = Math.max(downCeiling, r.replicas());
            }
            if (r.at().isAfter(upCutoff) || r.at().isAfter(downCutoff)) {
                kept.add(r);
            }
        }
        kept.add(new Recommendation(recommended, now));
        int stabilized = Math.min(Math.max(current, upFloor), downCeiling);
        String reason = "ReadyForNewScale";
        String message = "recommended size matches current size";
        if (stabilized != recommended) {
            boolean downHeld = stabilized > recommended;
            reason = downHeld ? "ScaleDownStabilized" : "ScaleUpStabilized";
            message = downHeld ? "recent recommendations were higher than current one, applying the highest recent "
                    + "recommendation" : "recent recommendations were lower than current one, applying the lowest "
                    + "recent recommendation";
        }
        History next = new History(kept, history.ups(), history.downs());

        int replicas = stabilized;
        String limitReason = "DesiredWithinRange";
        String limitMessage = "the desired count is within the acceptable range";
        if (stabilized > current) {
            int limit = Math.max(current, scaleUpLimit(current, history, up, now));
            int allowed = max;
            limitReason = "TooManyReplicas";
            limitMessage = "the desired replica count is more than the maximum replica count";
            if (allowed > limit) {
                allowed = limit;
                limitReason = "ScaleUpLimit";
                limitMessage = "the desired replica count is increasing faster than the maximum scale rate";
            }
            replicas = Math.min(stabilized, allowed);
        } else if (stabilized < current) {
            int limit = Math.min(current, scaleDownLimit(current, history, down, now));
            int allowed = min;
            limitReason = "TooFewReplicas";
            limitMessage = "the desired replica count is less than the minimum replica count";
            if (allowed < limit) {
                allowed = limit;
                limitReason = "ScaleDownLimit";
                limitMessage = "the desired replica count is decreasing faster than the maximum scale rate";
            }
            replicas = Math.max(stabilized, allowed);
        }
        boolean limited = replicas != stabilized;
        if (!limited) {
            limitReason = "DesiredWithinRange";
            limitMessage = "the desired count is within the acceptable range";
        }
        return new Outcome(replicas, reason, message, limited, limitReason, limitMessage, next);
    }

    /** The most replicas the scale-up policies allow now (selectPolicy Max: the most generous policy). */
    static int scaleUpLimit(int current, History h, HPAScalingRules rules, Instant now) {
        if ("Disabled".equals(rules.getSelectPolicy())) {
            return current;
        }
        boolean min = "Min".equals(rules.getSelectPolicy());
        int result = min ? Integer.MAX_VALUE : Integer.MIN_VALUE;
        for (HPAScalingPolicy p : rules.getPolicies()) {
            int start = current - changed(h.ups(), p, now) + changed(h.downs(), p, now);
            int proposed = "Pods".equals(p.getType()) ? start + p.getValue()
                    : (int) Math.ceil(start * (1 + p.getValue() / 100.0));
            result = min ? Math.min(result, proposed) : Math.max(result, proposed);
        }
        return result;
    }

    /** The fewest replicas the scale-down policies allow now (selectPolicy Max: the most generous policy). */
    static int scaleDownLimit(int current, History h, HPAScalingRules rules, Instant now) {
        if ("Disabled".equals(rules.getSelectPolicy())) {
            return current;
        }
        boolean min = "Min".equals(rules.getSelectPolicy());
        int result = min ? Integer.MIN_VALUE : Integer.MAX_VALUE;
        for (HPAScalingPolicy p : rules.getPolicies()) {
            int start = current + changed(h.downs(), p, now) - changed(h.ups(), p, now);
            int proposed = "Pods".equals(p.getType()) ? start - p.getValue()
                    : (int) (start * (1 - p.getValue() / 100.0));
            result = min ? Math.max(result, proposed) : Math.min(result, proposed);
        }
        return result;
    }

    private static int changed(List<ScaleEvent> events, HPAScalingPolicy p, Instant now) {
        Instant since = now.minusSeconds(p.getPeriodSeconds());
        return events.stream().filter(e -> e.at().isAfter(since)).mapToInt(ScaleEvent::change).sum();
    }
}
