package io.eventplane.topology;

import io.eventplane.client.pki.CommandCredentials;
import io.eventplane.core.decide.Rejection;
import io.eventplane.log.Command;
import io.eventplane.log.Envelope;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

/**
 * The writer's check of who sent a command: its credential (the record header {@value CommandCredentials#HEADER})
 * must be valid for this cluster and cover the actor the envelope names, else the command is refused before it is
 * decided: 401 without a valid credential, 403 when the credential's identity may not act as the actor.
 */
final class CommandAuthentication {
    private final CommandCredentials credentials;

    CommandAuthentication(CommandCredentials credentials) {
        this.credentials = credentials;
    }

    /** Why the command is refused, or empty when its credential covers its actor. */
    Optional<Rejection> refusal(Command command, Headers headers) {
        Header h = headers == null ? null : headers.lastHeader(CommandCredentials.HEADER);
        Optional<String> subject = h == null || h.value() == null ? Optional.empty()
                : credentials.verify(new String(h.value(), StandardCharsets.UTF_8));
        if (subject.isEmpty()) {
            return Optional.of(new Rejection(401, "Unauthorized", "Unauthorized", List.of()));
        }
        Envelope e = command.getEnvelope();
        String actor = e == null ? "" : e.getActor();
        List<String> groups = e == null ? List.of() : e.getGroups();
        if (CommandCredentials.covers(subject.get(), actor, groups)) {
            return Optional.empty();
        }
        return Optional.of(new Rejection(403, "Forbidden", "User \"" + subject.get() + "\" cannot act as \"" + actor
                + "\"" + (groups.isEmpty() ? "" : " in groups " + groups), List.of()));
    }
}
