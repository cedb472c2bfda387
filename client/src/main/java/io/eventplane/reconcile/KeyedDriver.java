package io.eventplane.reconcile;

import io.eventplane.client.events.EventNotice;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a {@link Reconciler}: a change only names keys; the worker takes keys from the queue and asks for a
 * decision on the whole current state, sends its commands and records its Events.
 *
 * <p>Expectations: while commands decided for a key are in flight, the key is not decided again. Each command is
 * submitted through {@link io.eventplane.client.Requests}, which completes once the writer's verdict is in and the
 * view shows the change; only then is the key decided again, on a view that includes everything this controller did.
 * Together with deterministic names (a second create of the same pod name is rejected by the writer), no twin is ever
 * created, also across a restart. A verdict that is slow to come is not a failure: the command is in the log and the
 * writer will decide it exactly once, so the key stays in flight for up to the verdict timeout.
 */
final class KeyedDriver implements Driver {
    private static final Logger LOG = LoggerFactory.getLogger(KeyedDriver.class);

    private final Reconciler reconciler;
    private final Reconciler.Options options;
    /** Commands on their way per key (no entry: none). */
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final AtomicLong steps = new AtomicLong();
    private WorkQueue<String> queue;
    private Controller.Shell shell;
    private ActionSender sender;

    KeyedDriver(Reconciler reconciler) {
        this.reconciler = reconciler;
        this.options = reconciler.options();
    }

    @Override
    public void init(Controller.Shell shell) {
        this.shell = shell;
        this.queue = new WorkQueue<>(shell.actor() + "-queue", options.baseDelay(), options.maxDelay());
        ControllerClients c = shell.clients();
        this.sender = ActionSender.of(shell.actor(), c, options.verdictTimeout());
        reconciler.index(c.view());
    }

    @Override
    public void onChange(ObjectChanged change, ObjectChanged previous) {
        reconciler.observe(change, previous);
        if (!shell.synced()) {
            return; // the first pass looks at everything
        }
        for (String key : reconciler.keysFor(change, previous, shell.view())) {
            queue.add(key);
        }
    }

    @Override
    public void startActing() {
        int n = 0;
        for (String key : reconciler.initialKeys(shell.view())) {
            queue.add(key);
            n++;
        }
        LOG.info("{}: acting; {} {} key(s) queued", shell.actor(), n, reconciler.kind());
    }

    @Override
    public void turn() throws InterruptedException {
        List<String> batch = queue.take(options.batch(), Duration.ofSeconds(1));
        if (batch.isEmpty()) {
            return;
        }
        if (options.quorumReads()) {
            try {
                shell.clients().catchUp(Duration.ofSeconds(30));
            } catch (TimeoutException e) {
                LOG.warn("{}: {}; trying the batch again later", shell.actor(), e.getMessage());
                for (String key : batch) {
                    queue.done(key);
                    queue.addRateLimited(key);
                }
                return;
            }
        }
        for (String key : batch) {
            try {
                process(key);
            } catch (RuntimeException e) {
                LOG.warn("{}: reconciling {} failed: {}", shell.actor(), key, e.toString(), e);
                queue.addRateLimited(key);
            } finally {
                queue.done(key);
            }
        }
    }

    private void process(String key) {
        if (inFlight.containsKey(key)) {
            return; // our own commands are not in the view yet; their completion queues the key again
        }
        steps.incrementAndGet();
        Reconciliation r = reconciler.reconcile(key, shell.view(), shell.clock().instant(), failures.get(key));
        for (EventNotice e : r.events()) {
            shell.events().record(e);
        }
        if (r.requeueAfter() != null) {
            queue.addAfter(key, r.requeueAfter().isNegative() ? Duration.ZERO : r.requeueAfter());
        }
        List<Action> actions = r.actions();
        if (actions.isEmpty()) {
            queue.forget(key);
            return;
        }
        inFlight.merge(key, actions.size(), Integer::sum);
        AtomicBoolean anyRejected = new AtomicBoolean();
        AtomicBoolean failureReported = new AtomicBoolean();
        boolean tracksFailures = actions.stream().anyMatch(a -> a.failedReason() != null);
        for (Action action : actions) {
            sender.send(action).whenComplete((verdict, error) -> {
                try {
                    if (error != null || !verdict.accepted()) {
                        anyRejected.set(true);
                    }
                    if (verdict != null && verdict.failed()) {
                        failures.put(key, verdict.failureText());
                        failureReported.set(true);
                    }
                } finally {
                    if (inFlight.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1) == null) {
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

    @Override
    public long steps() {
        return steps.get();
    }

    @Override
    public int inFlight() {
        return inFlight.size();
    }

    @Override
    public int queued() {
        return queue == null ? 0 : queue.size() + queue.delayed();
    }

    @Override
    public ActionSender sender() {
        return sender;
    }

    @Override
    public void close() {
        if (queue != null) {
            queue.close();
        }
        if (sender != null) {
            sender.close();
        }
        if (reconciler instanceof AutoCloseable resources) {
            // what the reconciler holds besides the view (the HPA's usage view): stopped with it, not left polling a
            // broker that is going away
            try {
                resources.close();
            } catch (Exception e) {
                LOG.warn("closing {}: {}", reconciler.kind(), e.toString());
            }
        }
    }
}
