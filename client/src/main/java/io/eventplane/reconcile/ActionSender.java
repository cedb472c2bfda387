package io.eventplane.reconcile;

import io.eventplane.client.Commands;
import io.eventplane.client.Requests;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.Preconditions;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verdict handling, once for every controller: turns an {@link Action} into its command, submits it, waits for the
 * writer's verdict and the view, records the action's Event on acceptance and its Warning on a rejection (a conflict
 * is not a failure: the object changed and the next decision sees it; a delete of what is gone already is done).
 */
final class ActionSender {
    private static final Logger LOG = LoggerFactory.getLogger(ActionSender.class);

    /** The verdict on one action: accepted, rejected with a message to show the next decision, or none in time. */
    record Verdict(boolean accepted, boolean failed, String failureText, boolean noVerdict) {
        static final Verdict ACCEPTED = new Verdict(true, false, null, false);
    }

    /** How long a quota reservation waits for the writer's verdict before the create is tried again later. */
    private static final Duration RESERVATION_TIMEOUT = Duration.ofSeconds(30);
    private final String actor;
    private final Commands commands;
    private final Requests requests;
    private final EventRecorder events;
    private final Duration timeout;
    private final CreateAdmission admission;
    final AtomicLong sent = new AtomicLong();
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong noVerdict = new AtomicLong();

    /** @param admission the chain creates of pods and claims go through before they are sent, or null for none */
    ActionSender(String actor, Commands commands, Requests requests, EventRecorder events, Duration timeout,
                 CreateAdmission admission) {
        this.actor = actor;
        this.commands = commands;
        this.requests = requests;
        this.events = events;
        this.timeout = timeout;
        this.admission = admission;
    }

    /** The runtime's sender for a controller: its creates of pods and claims go through the admission chain. */
    static ActionSender of(String actor, ControllerClients clients, Duration timeout) {
        var chain = io.eventplane.client.admission.AdmissionChain.forControllers(clients.view(), clients.clock(),
                new io.eventplane.client.admission.QuotaReservationWriter(clients.requests(), clients.clock(), RESERVATION_TIMEOUT));
        return new ActionSender(actor, clients.commands(), clients.requests(), clients.recorder(), timeout,
                new CreateAdmission(clients.view(), clients.commands(), chain));
    }

    /** Sends {@code action} (and what follows it, once accepted); completes with the first command's verdict. */
    CompletableFuture<Verdict> send(Action action) {
        if (action instanceof Action.Then then) {
            return send(then.first()).thenCompose(v -> !v.accepted() ? CompletableFuture.completedFuture(v)
                    : send(then.then()).thenApply(next -> v));
        }
        if (admission != null && action instanceof Action.Create create && CreateAdmission.applies(create.object())) {
            return admission.admit(create.object()).handle((result, error) -> {
                if (error != null) {
                    noVerdict.incrementAndGet();
                    LOG.warn("{}: admitting {}: {}", actor, create.target(), error.toString());
                    return CompletableFuture.completedFuture(new Verdict(false, false, null, true));
                }
                if (result == null) {
                    return submit(action); // the writer refuses it with its own message
                }
                if (result.isRefused()) {
                    rejected.incrementAndGet();
                    return CompletableFuture.completedFuture(failed(action, result.refusal().code(),
                            result.refusal().message()));
                }
                return submit(new Action.Create(result.object(), create.onAccepted(), create.failedReason()));
            }).thenCompose(f -> f);
        }
        return submit(action);
    }

    /** Submits the action's command and waits for the writer's verdict. */
    private CompletableFuture<Verdict> submit(Action action) {
        Command command = command(action);
        sent.incrementAndGet();
        return requests.submit(command, timeout).handle((result, error) -> {
            if (error != null) {
                noVerdict.incrementAndGet();
                LOG.warn("{}: {} {} {}: no verdict: {}", actor, command.getVerb(), command.getKind(), command.getName(),
                        error.toString());
                return new Verdict(false, false, null, true);
            }
            if (result.accepted()) {
                accepted.incrementAndGet();
                if (action.onAccepted() != null) {
                    events.record(action.onAccepted());
                }
                return Verdict.ACCEPTED;
            }
            int code = result.outcome().getCode();
            if (code == 404 && action instanceof Action.Delete) {
                return Verdict.ACCEPTED; // what was to be deleted is gone
            }
            rejected.incrementAndGet();
            String message = result.outcome().getMessage();
            LOG.debug("{}: {} {} {} rejected: {}", actor, command.getVerb(), command.getKind(), command.getName(), message);
            return failed(action, code, message);
        });
    }

    /**
     * A refusal (the writer's, or admission's before anything was sent): a Warning with the action's failedReason and
     * the message the next decision sees, as Kubernetes' controllers report an API error; a conflict is no failure.
     */
    private Verdict failed(Action action, int code, String message) {
        if (action.failedReason() == null || code == 409) {
            return new Verdict(false, false, null, false);
        }
        String text = (action instanceof Action.Delete ? "Error deleting: " : "Error creating: ") + message;
        EventNotice notice = action.onAccepted();
        if (notice != null) {
            events.record(EventNotice.warning(notice.involvedObject(), action.failedReason(), text));
        }
        return new Verdict(false, true, text, false);
    }

    void close() {
        if (admission != null) {
            admission.close();
        }
    }

    Command command(Action action) {
        if (action instanceof Action.Create c) {
            return commands.create(c.object());
        } else if (action instanceof Action.Update u) {
            return commands.update(u.object());
        } else if (action instanceof Action.UpdateStatus s) {
            return commands.updateStatus(s.object());
        } else if (action instanceof Action.Finalize f) {
            return commands.finalize(f.object());
        } else if (action instanceof Action.Delete d) {
            return commands.deleteWith(d.kind(), d.namespace(), d.name(),
                    Preconditions.newBuilder().setUid(d.uid()).setResourceVersion(d.resourceVersion()).build(),
                    DeleteOptions.newBuilder().setGracePeriodSeconds(d.gracePeriodSeconds())
                            .setPropagationPolicy(d.propagationPolicy()).build());
        }
        throw new IllegalArgumentException("not a single command: " + action);
    }
}
