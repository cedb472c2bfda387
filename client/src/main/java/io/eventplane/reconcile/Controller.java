package io.eventplane.reconcile;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.log.ObjectChanged;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one shell every long-running controller runs in: its clients ({@link ControllerClients}: view, sender,
 * verdicts, Events), a worker thread that waits for the view to catch up with the log, then (while it leads, with
 * leader election) lets the controller's {@link Driver} work, readiness, metrics and a clean shutdown. What the
 * controller decides is one of three shapes: a keyed {@link Reconciler} (most controllers), a
 * {@link PeriodicReconciler} (a look at the whole cluster at a time), or a {@link BatchReconciler} (the scheduler).
 *
 * <p>With leader election ({@link #leaderElection}) several instances may run: the one holding the Lease acts, the
 * others keep their view current and stand by; a crashed leader is replaced when its Lease expires, a stopped one at
 * once (it releases the Lease).
 */
public final class Controller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Controller.class);

    private final EventplaneConfig config;
    private final String actor;
    private final String component;
    private final Clock clock;
    private final Driver driver;
    private ControllerClients.ViewKind viewKind = ControllerClients.ViewKind.SHARED;
    private Commands.Actor identity;
    private LeaderElection.Settings election;
    private ControllerClients clients;
    private LeaderElector elector;
    private Thread worker;
    private volatile boolean running;
    private volatile boolean synced;
    private volatile boolean leading;

    private Controller(EventplaneConfig config, String actor, String component, Clock clock, Driver driver) {
        this.config = config;
        this.actor = actor;
        this.component = component;
        this.clock = clock;
        this.driver = driver;
    }

    /**
     * @param actor     who the commands come from, the clients' id and the worker's name (one per controller)
     * @param component the Events' source component, e.g. {@code replicaset-controller}
     */
    public static Controller keyed(EventplaneConfig config, String actor, String component, Clock clock,
                                   Reconciler reconciler) {
        return new Controller(config, actor, component, clock, new KeyedDriver(reconciler));
    }

    public static Controller periodic(EventplaneConfig config, String actor, String component, Clock clock,
                                      PeriodicReconciler reconciler) {
        return new Controller(config, actor, component, clock, new PeriodicDriver(reconciler));
    }

    public static Controller batch(EventplaneConfig config, String actor, String component, Clock clock,
                                   BatchReconciler reconciler) {
        return new Controller(config, actor, component, clock, new BatchDriver(reconciler));
    }

    /** Acts only while holding the Lease {@code settings} names; set before {@link #start}. */
    public Controller leaderElection(LeaderElection.Settings settings) {
        this.election = settings;
        return this;
    }

    /** Reads a view of its own (its own thread) instead of the process's shared one; set before {@link #start}. */
    public Controller ownView() {
        this.viewKind = ControllerClients.ViewKind.OWN;
        return this;
    }

    /**
     * Stamps its commands (and Events) with a Kubernetes identity instead of the actor name
     * ({@link io.eventplane.client.ServiceIdentities}); set before {@link #start}.
     */
    public Controller identity(Commands.Actor who) {
        this.identity = who;
        return this;
    }

    public String actor() {
        return actor;
    }

    public Controller start() {
        running = true;
        clients = ControllerClients.create(config, actor, identity, clock, new EventOrigin(component, null,
                component + "-" + EventplaneConfig.setting("HOSTNAME", actor)), viewKind);
        driver.init(new Shell());
        clients.listen(new ObjectView.Listener() {
            @Override
            public void onChange(ObjectChanged change) {
                onChange(change, null);
            }

            @Override
            public void onChange(ObjectChanged change, ObjectChanged previous) {
                try {
                    driver.onChange(change, previous);
                } catch (RuntimeException e) {
                    LOG.warn("{}: cannot tell what {} concerns: {}", actor, change.getName(), e.toString(), e);
                }
            }
        });
        clients.start();
        if (election != null) {
            elector = new LeaderElector(clients.view(), clients.requests(), actor + "_" + UUID.randomUUID(), identity,
                    election, clock).start();
        }
        worker = new Thread(this::run, actor + "-worker");
        worker.setDaemon(true);
        worker.start();
        return this;
    }

    private void run() {
        try {
            clients.awaitViewReady(() -> running);
            synced = true;
            while (running) {
                if (elector != null && !elector.isLeader()) {
                    if (leading) {
                        LOG.info("{}: no longer the leader; standing by", actor);
                        leading = false;
                    }
                    elector.awaitLeadership(1000);
                    continue;
                }
                if (!leading) {
                    leading = true;
                    driver.startActing();
                }
                driver.turn();
            }
        } catch (InterruptedException | org.apache.kafka.common.errors.InterruptException e) {
            Thread.currentThread().interrupt(); // closing
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("{}: worker stopped: {}", actor, e.toString(), e);
            }
        }
    }

    /** The view has caught up with the log and the worker is alive (acting, or standing by for the Lease). */
    public boolean isReady() {
        return running && synced && clients.view().isReady() && worker.isAlive();
    }

    /** Whether this instance acts (always, without leader election, once started). */
    public boolean isLeader() {
        return leading && (elector == null || elector.isLeader());
    }

    public ControllerMetrics metrics() {
        ActionSender s = driver.sender();
        return new ControllerMetrics(driver.steps(), s == null ? 0 : s.sent.get(), s == null ? 0 : s.accepted.get(),
                s == null ? 0 : s.rejected.get(), s == null ? 0 : s.noVerdict.get(), driver.queued(), driver.inFlight(),
                isLeader());
    }

    /** The controller's view (for tests and benchmarks that watch what it sees). */
    public ObjectView view() {
        return clients.view();
    }

    /** Keeps a started controller running until the JVM is asked to stop (SIGTERM, Ctrl-C), then closes it. */
    public void runUntilShutdown() throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            close();
            stopped.countDown();
        }, actor + "-shutdown"));
        stopped.await();
    }

    @Override
    public void close() {
        if (!running) {
            return;
        }
        running = false;
        if (elector != null) {
            elector.close(); // releases the Lease: a standby takes over at its next retry
        }
        driver.close();
        if (worker != null) {
            worker.interrupt();
            try {
                worker.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        ControllerMetrics m = metrics();
        if (clients != null) {
            clients.close();
        }
        LOG.info("{}: stopped after {}", actor, m);
    }

    /** What a driver may use of its controller: the clients, and the context a batch reconciler is handed. */
    final class Shell implements ControllerContext {
        ControllerClients clients() {
            return clients;
        }

        boolean running() {
            return running;
        }

        @Override
        public String actor() {
            return actor;
        }

        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public ObjectView view() {
            return clients.view();
        }

        @Override
        public WorkQueue<String> queue() {
            return driver instanceof BatchDriver b ? b.queue() : null;
        }

        @Override
        public CommandSender sender() {
            return clients.sender();
        }

        @Override
        public Commands commands() {
            return clients.commands();
        }

        @Override
        public EventRecorder events() {
            return clients.recorder();
        }

        @Override
        public boolean synced() {
            return synced;
        }
    }
}
