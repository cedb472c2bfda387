package io.eventplane.schemas.serde;

/**
 * A schema registry refused a request or could not be reached. {@link #isRetriable()} tells a transient failure
 * (unreachable, 5xx) from a definitive answer (unknown id, incompatible schema).
 */
public class SchemaRegistryException extends RuntimeException {

    /** No HTTP status: the registry was not reached. */
    public static final int UNREACHABLE = -1;

    private final int status;
    private final int errorCode;

    public SchemaRegistryException(String message, int status, int errorCode, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.errorCode = errorCode;
    }

    public SchemaRegistryException(String message, int status, int errorCode) {
        this(message, status, errorCode, null);
    }

    /** The HTTP status, or {@link #UNREACHABLE}. */
    public int status() {
        return status;
    }

    /** The registry's {@code error_code} (e.g. 40403 schema not found, 409 incompatible), or the status. */
    public int errorCode() {
        return errorCode;
    }

    public boolean isNotFound() {
        return status == 404;
    }

    public boolean isIncompatible() {
        return status == 409;
    }

    public boolean isRetriable() {
        return status == UNREACHABLE || status >= 500 || status == 429 || status == 408;
    }
}
