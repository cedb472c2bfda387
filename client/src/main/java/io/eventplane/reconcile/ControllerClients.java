package io.eventplane.reconcile;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.CustomKindsFeed;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.Requests;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.KafkaEventRecorder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a service needs to join the log: a view, a command sender, the writer's verdicts (requests), an event
 * recorder, and the two quorum reads: {@link #catchUp} (the view has applied every change committed before the call,
 * so an object missing from it is really gone) and {@link #barrier} (besides, the writer has decided every command sent
 * before the call). Every long-running service builds its clients here, nowhere else.
 */
public final class ControllerClients implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerClients.class);

    /** Which view the clients read: the process's shared one, or one of the service's own (its own thread). */
    public enum ViewKind { SHARED, OWN }

    private final String actor;
    private final Clock clock;
    private final ObjectView view;
    private final CommandSender sender;
    private final Outcomes outcomes;
    private final Requests requests;
    private final Commands commands;
    private final KafkaEventRecorder recorder;
    private final WriterBarrier barrier;
    private final List<ObjectView.Listener> listeners = new CopyOnWriteArrayList<>();

    private ControllerClients(EventplaneConfig config, String actor, Commands.Actor identity, Clock clock,
                              ObjectView view, EventOrigin origin) {
        this.actor = actor;
        this.clock = clock;
        this.view = view;
        this.sender = new CommandSender(config, actor);
        this.outcomes = new Outcomes(config, actor + "-outcomes");
        this.requests = new Requests(sender, outcomes, view);
        Commands.Actor stamped = identity == null ? Commands.Actor.of(actor) : identity;
        this.commands = new Commands(stamped, clock);
        this.recorder = KafkaEventRecorder.start(config, sender, view, actor, stamped, clock, origin);
        this.barrier = new WriterBarrier(config, actor, view);
    }

    /**
     * Creates the clients. A shared view is running already (services of one process read and decode the log once);
     * an own view starts with {@link #start}, after listeners and indexes are added.
     */
    public static ControllerClients create(EventplaneConfig config, String actor, Clock clock, EventOrigin origin,
                                           ViewKind kind) {
        return create(config, actor, null, clock, origin, kind);
    }

    /**
     * As above, the commands stamped with {@code identity} ({@link io.eventplane.client.ServiceIdentities}); null:
     * with {@code actor}.
     */
    public static ControllerClients create(EventplaneConfig config, String actor, Commands.Actor identity, Clock clock,
                                           EventOrigin origin, ViewKind kind) {
        // A controller's own view feeds the custom kinds as the shared one does (the process learns them either way).
        ObjectView view = kind == ViewKind.SHARED ? ObjectView.shared(config, 1000)
                : CustomKindsFeed.attach(new ObjectView(config, actor + "-view"));
        return new ControllerClients(config, actor, identity, clock, view, origin);
    }

    /** Clients on the process's shared view. */
    public static ControllerClients create(EventplaneConfig config, String actor, Clock clock, EventOrigin origin) {
        return create(config, actor, clock, origin, ViewKind.SHARED);
    }

    /** Follows the view's changes until {@link #close} (the view may be shared and go on without this service). */
    public void listen(ObjectView.Listener listener) {
        listeners.add(listener);
        view.addListener(listener);
    }

    public ControllerClients start() {
        view.start();
        return this;
    }

    public String actor() {
        return actor;
    }

    public Clock clock() {
        return clock;
    }

    public ObjectView view() {
        return view;
    }

    public CommandSender sender() {
        return sender;
    }

    public Requests requests() {
        return requests;
    }

    /** The writer's verdicts, for services that send without waiting and look at verdicts later. */
    public Outcomes outcomes() {
        return outcomes;
    }

    /** Commands stamped with this service's actor and clock. */
    public Commands commands() {
        return commands;
    }

    public KafkaEventRecorder recorder() {
        return recorder;
    }

    /**
     * Waits until the view has read the log to its end, saying so every 30 s, as long as {@code running} holds: what a
     * controller does before its first decision.
     */
    public void awaitViewReady(BooleanSupplier running) throws InterruptedException {
        while (running.getAsBoolean()) {
            try {
                view.awaitReady(Duration.ofSeconds(30));
                return;
            } catch (TimeoutException e) {
                LOG.info("{}: waiting for the view to catch up with the log", actor);
            }
        }
    }

    /** Waits until the view has applied everything committed to the log before this call. */
    public void catchUp(Duration timeout) throws InterruptedException, TimeoutException {
        barrier.catchUp(timeout);
    }

    /**
     * Waits until the writer has decided every command sent before this call and the view shows the result; answers
     * the time of the call, up to which the view is complete.
     */
    public java.time.Instant barrier(Duration timeout) throws InterruptedException, TimeoutException {
        java.time.Instant at = clock.instant();
        barrier.await(timeout);
        return at;
    }

    @Override
    public void close() {
        listeners.forEach(view::removeListener);
        recorder.close();
        view.close();
        outcomes.close();
        sender.close();
        barrier.close();
    }
}
