package io.eventplane.gateway.wire;

import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.wire.KubeStatus.Cause;
import io.eventplane.gateway.wire.KubeStatus.Details;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.StatusCause;
import java.util.ArrayList;
import java.util.List;

/** The Statuses the API answers, worded as kube-apiserver words them. */
public final class Statuses {
    /** kube-apiserver's limit on request bodies. */
    public static final long MAX_BODY_BYTES = 3L * 1024 * 1024;

    private Statuses() {
    }

    public static KubeStatus success(int code) {
        return new KubeStatus(code, "", "", null);
    }

    public static KubeStatus notFound(KindInfo kind, String name) {
        return new KubeStatus(404, "NotFound", ObjectDecider.resource(kind) + " \"" + name + "\" not found",
                resourceDetails(kind, name));
    }

    /** A path the API does not serve. */
    public static KubeStatus noSuchResource() {
        return new KubeStatus(404, "NotFound", "the server could not find the requested resource",
                new Details(null, null, null, List.of()));
    }

    public static KubeStatus badRequest(String message) {
        return new KubeStatus(400, "BadRequest", message, null);
    }

    public static KubeStatus badRequest(String message, List<Cause> causes) {
        return new KubeStatus(400, "BadRequest", message, new Details(null, null, null, causes));
    }

    public static KubeStatus forbidden(KindInfo kind, String name, String why) {
        return new KubeStatus(403, "Forbidden", ObjectDecider.resource(kind) + " \"" + name + "\" is forbidden: " + why,
                resourceDetails(kind, name));
    }

    /** A Forbidden with causes (a create in a terminating namespace names NamespaceTerminating). */
    public static KubeStatus forbidden(KindInfo kind, String name, String why, List<Cause> causes) {
        KubeStatus s = forbidden(kind, name, why);
        return new KubeStatus(s.code(), s.reason(), s.message(), new Details(name, emptyToNull(kind.group()),
                kind.plural(), causes));
    }

    public static KubeStatus methodNotAllowed() {
        return new KubeStatus(405, "MethodNotAllowed", "the server does not allow this method on the requested resource",
                new Details(null, null, null, List.of()));
    }

    public static KubeStatus conflict(KindInfo kind, String name, String why) {
        return new KubeStatus(409, "Conflict", "Operation cannot be fulfilled on " + ObjectDecider.resource(kind)
                + " \"" + name + "\": " + why, resourceDetails(kind, name));
    }

    public static KubeStatus expired(String message) {
        return new KubeStatus(410, "Expired", message, null);
    }

    public static KubeStatus tooLarge(long limit) {
        return new KubeStatus(413, "RequestEntityTooLarge", "Request entity too large: limit is " + limit, null);
    }

    public static KubeStatus unsupportedMediaType(String contentType, List<String> accepted) {
        return new KubeStatus(415, "UnsupportedMediaType", "the body of the request was in an unknown format - "
                + "accepted media types include: " + String.join(", ", accepted)
                + (contentType == null ? "" : " (got " + contentType + ")"), null);
    }

    public static KubeStatus invalid(KindInfo kind, String name, List<Cause> causes) {
        StringBuilder sb = new StringBuilder(ObjectDecider.qualifiedKind(kind)).append(" \"").append(name == null ? "" : name)
                .append("\" is invalid: ");
        if (causes.size() == 1) {
            sb.append(causes.get(0).message());
        } else {
            sb.append('[');
            for (int i = 0; i < causes.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(causes.get(i).message());
            }
            sb.append(']');
        }
        return new KubeStatus(422, "Invalid", sb.toString(), new Details(name, emptyToNull(kind.group()), kind.objectKind(),
                causes));
    }

    public static KubeStatus tooLargeResourceVersion(String requested, String current) {
        return new KubeStatus(504, "Timeout", "Too large resource version: " + requested + ", current: " + current,
                new Details(null, null, null, List.of(new Cause("ResourceVersionTooLarge",
                        "Too large resource version", ""))));
    }

    /** The writer did not answer in time; the command may still take effect. */
    public static KubeStatus timeout() {
        return new KubeStatus(504, "Timeout",
                "Timeout: request did not complete within requested timeout - context deadline exceeded",
                new Details(null, null, null, List.of()));
    }

    public static KubeStatus internal(String message) {
        return new KubeStatus(500, "InternalError", "Internal error occurred: " + message,
                new Details(null, null, null, List.of(new Cause(null, message, null))));
    }

    public static KubeStatus serviceUnavailable(String message) {
        return new KubeStatus(503, "ServiceUnavailable", message, null);
    }

    /** The writer's rejection of a command, as the Status Kubernetes would answer. */
    public static KubeStatus fromOutcome(CommandOutcome outcome, KindInfo kind) {
        List<Cause> causes = new ArrayList<>();
        for (StatusCause c : outcome.getCauses()) {
            causes.add(new Cause(c.getReason(), c.getMessage(), c.getField()));
        }
        String detailKind = "Invalid".equals(outcome.getReason()) ? kindOfInvalid(outcome, kind) : kind.plural();
        return new KubeStatus(outcome.getCode(), outcome.getReason(), outcome.getMessage(),
                new Details(outcome.getName(), emptyToNull(kind.group()), detailKind, causes));
    }

    /**
     * {@code Pod "x" is invalid}, {@code Ingress.networking.k8s.io "x" is invalid} or {@code DeleteOptions "x" is
     * invalid}: the kind the writer named, without its group (the details carry the group apart, as Kubernetes').
     */
    private static String kindOfInvalid(CommandOutcome outcome, KindInfo kind) {
        String m = outcome.getMessage();
        int quote = m.indexOf(" \"");
        if (quote <= 0 || m.indexOf(' ') != quote) {
            return kind.objectKind();
        }
        String named = m.substring(0, quote);
        int dot = named.indexOf('.');
        return dot > 0 ? named.substring(0, dot) : named;
    }

    private static Details resourceDetails(KindInfo kind, String name) {
        return new Details(name, emptyToNull(kind.group()), kind.plural(), List.of());
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
