package io.eventplane.gateway.auth.authz;

/**
 * An authorizer's answer: allowed, denied, or no opinion (the next authorizer decides), with Kubernetes' reason.
 *
 * @param reason     why (an RBAC allow names its binding; a Node refusal its rule); may be empty
 * @param admission  for a refusal worded as NodeRestriction's admission words it ({@code node "n1" can only ...}):
 *                   the whole message after {@code is forbidden: }, else null
 */
public record Decision(Outcome outcome, String reason, String admission) {
    public enum Outcome { ALLOW, DENY, NO_OPINION }

    public static Decision allow(String reason) {
        return new Decision(Outcome.ALLOW, reason, null);
    }

    public static Decision noOpinion(String reason) {
        return new Decision(Outcome.NO_OPINION, reason, null);
    }

    public static Decision deny(String reason) {
        return new Decision(Outcome.DENY, reason, null);
    }

    /** A refusal as an admission plugin words it. */
    public static Decision refuse(String message) {
        return new Decision(Outcome.DENY, "", message);
    }

    public boolean allowed() {
        return outcome == Outcome.ALLOW;
    }
}
