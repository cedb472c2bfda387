package io.eventplane.controllers;

import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Requests;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.core.Keys;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.reconcile.ControllerClients;
import io.eventplane.reconcile.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thin shell every workload controller runs in: a view of the log, a work queue of owned keys fed by the view
 * (a change only names keys), one worker that asks the {@link Reconciler} for a decision and sends its commands.
 *
 * <p>Expectations: while commands decided for a key are in flight, the key is not decided again. Each command is
 * submitted through {@link Requests}, which completes once the writer's verdict is in and the view shows the change;
 * only then is the key decided again, on a view that includes everything this controller did. Together with
 * deterministic names (a second create of the same pod name is rejected by the writer), no twin is ever created,
 * also across a restart.
 *
 * <p>A verdict that is slow to come is not a failure: the command is in the log and the writer will decide it exactly
 * once. So the key stays in flight for up to {@link #VERDICT_TIMEOUT} (Kubernetes' expectations last 5 minutes too);
 * deciding it again sooner would only send the same commands again and deepen a backlog that made the writer late.
 */
public final class ControllerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerService.class);
    static final Duration VERDICT_TIMEOUT = Duration.ofMinutes(5);
    private static final int BATCH = 64;

    private final EventplaneConfig config;
    private final String actor;
    private final String component;
    private final Clock clock;
    private final Reconciler reconciler;
    private final Commands commands;
    private final WorkQueue<String> queue;
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private ControllerClients clients;
    private ObjectView view;
    private Thread worker;
    private volatile boolean running;
    private volatile boolean synced;

    /**
     * @param actor     who the commands come from and the clients' id (each controller process has its own)
     * @param component the Events' source component, e.g. {@code replicaset-controller}
     */
    public ControllerService(EventplaneConfig config, String actor, String component, Clock clock, Reconciler reconciler) {
        this.config = config;
        this.actor = actor;
        this.component = component;
        this.clock = clock;
        this.reconciler = reconciler;
        this.commands = new Commands(actor, clock);
        this.queue = new WorkQueue<>(actor + "-queue");
    }

    public ControllerService start() {
        running = true;
        clients = ControllerClients.create(config, actor, clock, new EventOrigin(component, null,
                component + "-" + EventplaneConfig.setting("HOSTNAME", actor)));
        view = clients.view();
        reconciler.index(view);
        clients.listen(this::onChange);
        clients.start();
        worker = new Thread(this::run, actor + "-worker");
        worker.setDaemon(true);
        worker.start();
        return this;
    }

    /** Keeps a started controller running until the JVM is asked to stop (SIGTERM, Ctrl-C), then closes it. */
    public void runUntilShutdown() throws InterruptedException {
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            close();
            stopped.countDown();
        }, actor + "-shutdown"));
        stopped.await();
    }

    public boolean isReady() {
        return running && synced && view.isReady() && worker.isAlive();
    }

    /** Commands sent and rejected so far (for logs and benchmarks). */
    public long sent() {
        return sent.get();
    }

    public long rejected() {
        return rejected.get();
    }

    private void onChange(ObjectChanged change) {
        if (!synced) {
            return;
        }
        try {
            for (String key : reconciler.keysFor(change, view)) {
                queue.add(key);
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: cannot tell which keys {} concerns: {}", actor, change.getName(), e.toString());
        }
    }

    private void run() {
        try {
            clients.awaitViewReady(() -> running);
            synced = true;
            int n = 0;
            for (ObjectChanged c : view.list(reconciler.kind(), null)) {
                queue.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
                n++;
            }
            LOG.info("{}: ready; {} {}(s) queued", actor, n, reconciler.kind());
            while (running) {
                for (String key : queue.take(BATCH, Duration.ofSeconds(1))) {
                    try {
                        process(key);
                    } catch (RuntimeException e) {
                        LOG.warn("{}: reconciling {} failed: {}", actor, key, e.toString(), e);
                        queue.addRateLimited(key);
                    } finally {
                        queue.done(key);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void process(String key) {
        AtomicInteger pending = inFlight.get(key);
        if (pending != null && pending.get() > 0) {
            return; // our own commands are not in the view yet; their completion queues the key again
        }
        Reconciliation r = reconciler.reconcile(key, view, clock.instant(), failures.get(key));
        for (EventNotice e : r.events()) {
            clients.recorder().record(e);
        }
        if (r.requeueAfter() != null) {
            queue.addAfter(key, r.requeueAfter().isNegative() ? Duration.ZERO : r.requeueAfter());
        }
        List<Action> actions = r.actions();
        if (actions.isEmpty()) {
            queue.forget(key);
            return;
        }
        AtomicInteger counter = inFlight.computeIfAbsent(key, k -> new AtomicInteger());
        counter.addAndGet(actions.size());
        AtomicBoolean anyRejected = new AtomicBoolean();
        AtomicBoolean failureReported = new AtomicBoolean();
        boolean tracksFailures = actions.stream().anyMatch(a -> a.failedReason() != null);
        for (Action action : actions) {
            Command command = command(action);
            sent.incrementAndGet();
            CompletableFuture<Requests.Result> f = clients.requests().submit(command, VERDICT_TIMEOUT);
            f.whenComplete((result, error) -> {
                try {
                    if (error != null) {
                        anyRejected.set(true);
                        LOG.warn("{}: {} {} {}: no verdict: {}", actor, command.getVerb(), command.getKind(),
                                command.getName(), error.toString());
                    } else if (result.accepted()) {
                        if (action.onAccepted() != null) {
                            clients.recorder().record(action.onAccepted());
                        }
                    } else {
                        anyRejected.set(true);
                        rejected.incrementAndGet();
                        String message = result.outcome().getMessage();
                        LOG.debug("{}: {} {} {} rejected: {}", actor, command.getVerb(), command.getKind(),
                                command.getName(), message);
                        if (action.failedReason() != null && !isConflict(result)) {
                            String text = failureText(action, message);
                            failures.put(key, text);
                            failureReported.set(true);
                            EventNotice notice = action.onAccepted();
                            if (notice != null) {
                                clients.recorder().record(EventNotice.warning(notice.involvedObject(), action.failedReason(), text));
                            }
                        }
                    }
                } finally {
                    if (counter.decrementAndGet() == 0) {
                        if (tracksFailures && !failureReported.get()) {
                            failures.remove(key);
                        }
                        if (anyRejected.get()) {
                            queue.addRateLimited(key);
                        } else {
                            queue.forget(key);
                            queue.add(key);
                        }
                    }
                }
            });
        }
    }

    private static boolean isConflict(Requests.Result result) {
        int code = result.outcome().getCode();
        return code == 409;
    }

    private static String failureText(Action action, String message) {
        String verb = action instanceof Action.Delete ? "Error deleting: " : "Error creating: ";
        return verb + message;
    }

    private Command command(Action action) {
        if (action instanceof Action.Create c) {
            return commands.create(c.object());
        } else if (action instanceof Action.Update u) {
            return commands.update(u.object());
        } else if (action instanceof Action.UpdateStatus s) {
            return commands.updateStatus(s.object());
        }
        Action.Delete d = (Action.Delete) action;
        return commands.delete(d.kind(), d.namespace(), d.name(), null, d.uid());
    }

    @Override
    public void close() {
        running = false;
        queue.close();
        if (worker != null) {
            worker.interrupt();
            try {
                worker.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (clients != null) {
            clients.close();
        }
        LOG.info("{}: stopped after {} command(s), {} rejected", actor, sent.get(), rejected.get());
    }
}
