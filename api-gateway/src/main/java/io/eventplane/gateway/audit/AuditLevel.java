package io.eventplane.gateway.audit;

/** Kubernetes' audit levels, from least to most: what an audit.k8s.io/v1 Event of that level carries. */
public enum AuditLevel {
    /** Not logged. */
    None,
    /** Who, what, when, and the response status; no bodies. */
    Metadata,
    /** Metadata plus the request body. */
    Request,
    /** Request plus the response body. */
    RequestResponse;

    public static AuditLevel parse(String text) {
        for (AuditLevel l : values()) {
            if (l.name().equalsIgnoreCase(text)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown audit level \"" + text + "\" (None, Metadata, Request, RequestResponse)");
    }
}
