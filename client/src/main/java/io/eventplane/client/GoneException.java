package io.eventplane.client;

/** A watch asked to start from a position older than the view retains: the client must list again (HTTP 410). */
public final class GoneException extends Exception {
    public GoneException(String message) {
        super(message, null, false, false);
    }
}
