package io.eventplane.client;

import io.eventplane.core.Keys;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Synchronous writes: send a command, wait for the writer's verdict and for the view to show its effect, so that the
 * answer carries the stored object and a read that follows sees it.
 */
public final class Requests {
    /** The answer to one command: accepted with the object as stored (changed or not), or rejected. */
    public record Result(CommandOutcome outcome, ObjectChanged object) {
        public boolean accepted() {
            return outcome.getAccepted();
        }
    }

    private final CommandSender sender;
    private final Outcomes outcomes;
    private final ObjectView view;

    public Requests(CommandSender sender, Outcomes outcomes, ObjectView view) {
        this.sender = sender;
        this.outcomes = outcomes;
        this.view = view;
    }

    /**
     * Sends {@code command} and completes with its result, or exceptionally with a {@link java.util.concurrent.TimeoutException}
     * after {@code timeout} (the command may still take effect; a retry with the same request id is rejected as a
     * duplicate or is a no-op).
     */
    public CompletableFuture<Result> submit(Command command, Duration timeout) {
        String id = command.getEnvelope().getRequestId();
        CompletableFuture<ObjectChanged> change = view.awaitRequest(id);
        CompletableFuture<CommandOutcome> outcome = outcomes.await(id);
        // send() may block (the log unreachable, up to CommandSender.MAX_BLOCK): that time counts against the timeout
        long started = System.nanoTime();
        sender.send(command).whenComplete((md, e) -> {
            if (e != null) {
                outcome.completeExceptionally(e);
            }
        });
        String key = Keys.of(command.getKind(), command.getNamespace(), command.getName());
        CompletableFuture<Result> result = outcome.thenCompose(o -> {
            if (!o.getAccepted()) {
                view.forgetRequest(id);
                return CompletableFuture.completedFuture(new Result(o, null));
            }
            if (o.getChanged()) {
                return change.thenApply(c -> new Result(o, c));
            }
            view.forgetRequest(id);
            return view.awaitVersion(key, o.getResourceVersion())
                    .thenApply(v -> new Result(o, view.get(key).orElse(null)));
        });
        long left = Math.max(1, timeout.toMillis() - (System.nanoTime() - started) / 1_000_000);
        return result.orTimeout(left, TimeUnit.MILLISECONDS).whenComplete((r, e) -> {
            if (e != null) {
                outcomes.forget(id);
                view.forgetRequest(id);
            }
        });
    }
}
