package io.eventplane.client.events;

import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.model.Event;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Where a recorder reads and writes Events: a view of the stored Events and the single writer. {@link KafkaEventStore}
 * is the real one; tests use an in-memory one.
 */
public interface EventStore {

    /** A stored Event with the resourceVersion it was stored at. */
    record Stored(Event event, long resourceVersion) {
    }

    /** The Event as the view shows it now. */
    Optional<Stored> find(String namespace, String name);

    /** Sends a command to the writer; completes with its verdict (exceptionally when it cannot be had). */
    CompletableFuture<CommandOutcome> submit(Command command);

    /**
     * Completes when the view shows the Event at a resourceVersion after {@code resourceVersion} or no longer shows it
     * ({@code resourceVersion} 0: when it shows it at all): a re-read after a conflict is only worth it once the view
     * has seen what won. Completes exceptionally after a timeout.
     */
    CompletableFuture<Void> awaitNewer(String namespace, String name, long resourceVersion);
}
