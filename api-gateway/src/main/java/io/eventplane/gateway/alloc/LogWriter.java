package io.eventplane.gateway.alloc;

import io.eventplane.client.Requests;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.log.Command;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/** Sends one command to the writer and waits for its verdict (and for the view to show it). */
@FunctionalInterface
public interface LogWriter {
    /**
     * The writer's verdict; throws an {@link ApiException} (504, 503) when there is none in time, in which case the
     * command may still take effect.
     */
    Requests.Result submit(Command command);

    /** The gateway's writer: {@link Requests} with a time budget. */
    static LogWriter of(Requests requests, Duration timeout) {
        return command -> {
            try {
                return requests.submit(command, timeout).get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TimeoutException) {
                    throw new ApiException(Statuses.timeout());
                }
                throw new ApiException(Statuses.serviceUnavailable("the event log is unavailable: "
                        + e.getCause().getMessage()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ApiException(Statuses.timeout());
            }
        };
    }
}
