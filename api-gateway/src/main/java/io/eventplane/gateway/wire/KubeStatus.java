package io.eventplane.gateway.wire;

import java.util.List;

/**
 * A Kubernetes {@code Status}: what every failed (and a few successful) API calls answer.
 *
 * @param code    HTTP status code
 * @param reason  StatusReason ({@code NotFound}, {@code AlreadyExists}, {@code Invalid}...), empty for success
 * @param message human-readable description
 * @param details name, group, kind (the resource, or the kind for Invalid) and causes; null for none
 */
public record KubeStatus(int code, String reason, String message, Details details) {

    /** {@code details} of a Status. */
    public record Details(String name, String group, String kind, List<Cause> causes) {
        public Details {
            causes = causes == null ? List.of() : List.copyOf(causes);
        }
    }

    /** One field problem of an Invalid or BadRequest. */
    public record Cause(String reason, String message, String field) {
    }

    public boolean success() {
        return code >= 200 && code < 300;
    }
}
