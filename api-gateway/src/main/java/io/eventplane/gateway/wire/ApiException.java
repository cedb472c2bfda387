package io.eventplane.gateway.wire;

/** A request that ends with a Kubernetes {@code Status}; thrown anywhere, answered once by the router. */
public final class ApiException extends RuntimeException {
    private final KubeStatus status;

    public ApiException(KubeStatus status) {
        super(status.message(), null, false, false);
        this.status = status;
    }

    public KubeStatus status() {
        return status;
    }
}
