package io.eventplane.core.decide;

import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import java.util.Optional;

/**
 * The writer's verdict on one command: the change to append (none for a rejection or a no-op) and the outcome to
 * report to whoever waits on the command.
 */
public record Decision(Optional<ObjectChanged> change, CommandOutcome outcome) {
}
