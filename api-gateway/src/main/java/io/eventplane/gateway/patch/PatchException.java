package io.eventplane.gateway.patch;

/** A patch that does not apply to the object (a missing path, a failed test, a malformed operation). */
public final class PatchException extends RuntimeException {
    public PatchException(String message) {
        super(message, null, false, false);
    }
}
