package io.eventplane.client.log;

import java.time.Instant;

/**
 * Which audit entries a query wants. Every filter is optional (null: any); text filters match exactly, except
 * {@code kind} and {@code verb}, which match case-insensitively; a kind without a group ({@code CronTab}) also matches
 * the custom kinds of that name in every group ({@code CronTab.stable.example.com}, their name on the log).
 *
 * @param outcome "accepted", "rejected" or null
 */
public record AuditQuery(Instant since, Instant until, String actor, String verb, String kind, String namespace,
                         String name, String outcome, int limit) {
    public static final AuditQuery ALL = new AuditQuery(null, null, null, null, null, null, null, null, 0);

    public AuditQuery {
        if (outcome != null && !outcome.equals("accepted") && !outcome.equals("rejected")) {
            throw new IllegalArgumentException("outcome must be accepted or rejected, not \"" + outcome + "\"");
        }
        if (since != null && until != null && until.isBefore(since)) {
            throw new IllegalArgumentException("until (" + until + ") is before since (" + since + ")");
        }
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative");
        }
    }

    public boolean inTime(Instant t) {
        return (since == null || !t.isBefore(since)) && (until == null || !t.isAfter(until));
    }

    /** Matches the object-side filters: kind, namespace, name. */
    public boolean matchesObject(String k, String ns, String n) {
        return (kind == null || kind.equalsIgnoreCase(k) || customOfKind(k)) && (namespace == null || namespace.equals(ns))
                && (name == null || name.equals(n));
    }

    private boolean customOfKind(String k) {
        return kind.indexOf('.') < 0 && k.length() > kind.length() && k.charAt(kind.length()) == '.'
                && k.regionMatches(true, 0, kind, 0, kind.length());
    }

    public boolean matches(AuditEntry e) {
        return inTime(e.time()) && matchesObject(e.kind(), e.namespace(), e.name())
                && (actor == null || actor.equals(e.actor()))
                && (verb == null || verb.equalsIgnoreCase(e.verb()))
                && (outcome == null || outcome.equals(e.outcome()));
    }
}
