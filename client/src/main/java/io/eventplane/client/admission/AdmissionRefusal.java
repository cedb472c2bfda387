package io.eventplane.client.admission;

import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import java.util.List;

/**
 * Why admission refused a request, as a value: the API answers it as a Kubernetes Status, a controller reports it as
 * the create's failure (its FailedCreate Event). {@link #message()} is kube-apiserver's message for it.
 *
 * @param code   the HTTP code kube-apiserver answers: 403 Forbidden, 404 (the namespace is missing), 409 (the quota
 *               kept changing under the reservation)
 * @param why    the plugin's reason, after {@code is forbidden: } (or the conflict's, after the object's name)
 * @param causes the Status' causes (a terminating namespace names one), maybe empty
 */
public record AdmissionRefusal(int code, KindInfo kind, String name, String why, List<Cause> causes) {
    /** One cause of a refusal, as a Status carries it. */
    public record Cause(String reason, String message, String field) {
    }

    public static AdmissionRefusal forbidden(KindInfo kind, String name, String why) {
        return new AdmissionRefusal(403, kind, name, why, List.of());
    }

    public static AdmissionRefusal forbidden(KindInfo kind, String name, String why, List<Cause> causes) {
        return new AdmissionRefusal(403, kind, name, why, causes);
    }

    /** The request's namespace does not exist. */
    public static AdmissionRefusal namespaceNotFound(String namespace) {
        return new AdmissionRefusal(404, Kinds.NAMESPACE, namespace, null, List.of());
    }

    public static AdmissionRefusal conflict(KindInfo kind, String name, String why) {
        return new AdmissionRefusal(409, kind, name, why, List.of());
    }

    /** kube-apiserver's Status message, e.g. {@code pods "web-1" is forbidden: exceeded quota: q, ...}. */
    public String message() {
        String resource = ObjectDecider.resource(kind);
        return switch (code) {
            case 404 -> resource + " \"" + name + "\" not found";
            case 409 -> "Operation cannot be fulfilled on " + resource + " \"" + name + "\": " + why;
            default -> resource + " \"" + name + "\" is forbidden: " + why;
        };
    }

    /** The Status reason kube-apiserver gives with {@link #code}. */
    public String reason() {
        return switch (code) {
            case 404 -> "NotFound";
            case 409 -> "Conflict";
            default -> "Forbidden";
        };
    }

    /** Thrown by a plugin to stop the chain; the chain answers the refusal. */
    static final class Refused extends RuntimeException {
        final AdmissionRefusal refusal;

        Refused(AdmissionRefusal refusal) {
            super(refusal.message(), null, false, false);
            this.refusal = refusal;
        }
    }

    Refused thrown() {
        return new Refused(this);
    }
}
