package io.eventplane.client.log;

import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import java.time.Instant;

/**
 * One mutation as the audit shows it: who asked for what, when, what the writer answered, and the object before and
 * after. Accepted mutations come from the event log (kept forever); rejected ones from the outcomes and commands
 * topics (kept for their retention).
 *
 * @param verb     the command's verb in lower case: create, update, update-status, delete, bind
 * @param code     the HTTP status Kubernetes would answer (201 for a creation, 200 otherwise when accepted)
 * @param request  the command as sent, when still retained (null otherwise)
 * @param before   the object before the change (null for a creation or a rejection)
 * @param after    the object after the change (null for a rejection; for a deletion, the object as it was removed)
 */
public record AuditEntry(Instant time, String actor, String requestId, String causationId, String verb, String kind,
                         String namespace, String name, boolean accepted, int code, String reason, String message,
                         String changeType, long resourceVersion, Command request, ObjectChanged before,
                         ObjectChanged after) {

    /** Who asked in full (groups, the real user behind an impersonation, the User-Agent), when the log still holds it. */
    public io.eventplane.log.Envelope envelope() {
        if (after != null) {
            return after.getEnvelope();
        }
        return request == null ? null : request.getEnvelope();
    }

    public String outcome() {
        return accepted ? "accepted" : "rejected";
    }
}
