package io.eventplane.reconcile;

import io.eventplane.client.events.EventNotice;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ObjectChanged;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a {@link PeriodicReconciler}: each tick waits for the {@linkplain ControllerClients#barrier writer barrier}
 * (the view then holds everything the writer decided before the tick's time), asks for a decision as of that time, and
 * sends the commands, each unless a command about the same object at the same version is still on its way.
 */
final class PeriodicDriver implements Driver {
    private static final Logger LOG = LoggerFactory.getLogger(PeriodicDriver.class);
    private static final Duration BARRIER_TIMEOUT = Duration.ofSeconds(30);
    /** The shortest pause between ticks, whatever a tick asks: a tick is a look at the whole cluster. */
    private static final Duration MIN_PAUSE = Duration.ofMillis(10);

    private final PeriodicReconciler reconciler;
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicLong steps = new AtomicLong();
    private final Object wake = new Object();
    private Controller.Shell shell;
    private ActionSender sender;
    private volatile boolean closed;

    PeriodicDriver(PeriodicReconciler reconciler) {
        this.reconciler = reconciler;
    }

    @Override
    public void init(Controller.Shell shell) {
        this.shell = shell;
        ControllerClients c = shell.clients();
        this.sender = ActionSender.of(shell.actor(), c, BARRIER_TIMEOUT);
        reconciler.index(c.view());
    }

    @Override
    public void onChange(ObjectChanged change, ObjectChanged previous) {
        // level-triggered on a timer: a change alone is no reason to look
    }

    @Override
    public void startActing() {
        LOG.info("{}: acting; a look at the cluster every {} ms", shell.actor(), reconciler.period().toMillis());
    }

    @Override
    public void turn() throws InterruptedException {
        Duration next = reconciler.period();
        try {
            Instant now = shell.clients().barrier(BARRIER_TIMEOUT);
            steps.incrementAndGet();
            Reconciliation r = reconciler.tick(shell.view(), now);
            for (EventNotice e : r.events()) {
                shell.events().record(e);
            }
            for (Action action : r.actions()) {
                send(action);
            }
            if (r.requeueAfter() != null && r.requeueAfter().compareTo(next) < 0) {
                next = r.requeueAfter().compareTo(MIN_PAUSE) < 0 ? MIN_PAUSE : r.requeueAfter();
            }
        } catch (TimeoutException e) {
            LOG.warn("{}: nothing judged this tick: {}", shell.actor(), e.getMessage());
        }
        synchronized (wake) {
            if (!closed) {
                wake.wait(Math.max(1, next.toMillis()));
            }
        }
    }

    /** Sends {@code action} unless one about the same object at the same version is on its way. */
    private void send(Action action) {
        String flight = action.target() + "@" + version(action);
        if (!inFlight.add(flight)) {
            return;
        }
        sender.send(action).whenComplete((v, e) -> inFlight.remove(flight));
    }

    private static String version(Action action) {
        if (action instanceof Action.Then t) {
            return version(t.first());
        }
        if (action instanceof Action.Delete d) {
            return d.resourceVersion() != null ? d.resourceVersion() : d.uid();
        }
        SpecificRecord object = action instanceof Action.Create c ? c.object()
                : action instanceof Action.Update u ? u.object()
                : action instanceof Action.Finalize f ? f.object() : ((Action.UpdateStatus) action).object();
        return ObjectAccess.meta(object).getResourceVersion();
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
        return 0;
    }

    @Override
    public ActionSender sender() {
        return sender;
    }

    @Override
    public void close() {
        closed = true;
        if (sender != null) {
            sender.close();
        }
        synchronized (wake) {
            wake.notifyAll();
        }
    }
}
