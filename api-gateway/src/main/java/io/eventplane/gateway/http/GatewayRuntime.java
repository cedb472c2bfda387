package io.eventplane.gateway.http;

import io.eventplane.gateway.api.ApiRouter;
import io.eventplane.gateway.auth.authn.Authentication;
import io.eventplane.gateway.console.ConsoleRouter;
import io.eventplane.gateway.exec.ContainerStreams;
import java.util.concurrent.Executor;

/**
 * What the HTTP layer needs from the gateway, handed to Micronaut as a ready-made singleton (the gateway's parts are
 * built from its configuration, not by dependency injection).
 *
 * @param router      answers every API request
 * @param console     answers {@code /ui} and below: the web console
 * @param watchPumps  runs the blocking loops that feed watch streams
 * @param streams     opens pods/exec, attach and portforward streams (the WebSocket upgrades)
 * @param authentication who each request is from
 */
public record GatewayRuntime(ApiRouter router, ConsoleRouter console, Executor watchPumps,
                             ContainerStreams streams, Authentication authentication) {
}
