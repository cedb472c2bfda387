package io.eventplane.reconcile;

import io.eventplane.client.ClusterView;
import io.eventplane.client.Commands;
import io.eventplane.client.Requests;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Lease;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shell of {@link LeaderElection}: every retry period it reads the Lease from the view, decides, and sends the
 * create or update through the writer, waiting for the verdict. It leads while its last accepted write is younger
 * than the renew deadline; on close it releases the lease so a standby takes over at its next retry.
 */
public final class LeaderElector implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderElector.class);

    private final LeaderElection.Settings settings;
    private final String identity;
    private final Clock clock;
    private final ClusterView view;
    private final Commands commands;
    private final Requests requests;
    private final Object signal = new Object();
    private Thread thread;
    private volatile boolean running;
    private volatile Instant renewedAt;
    private String observedVersion;
    private Instant observedAt;

    /**
     * @param requests the candidate's clients' requests (its verdicts and view)
     * @param identity who holds the Lease and the actor of its writes: unique per candidate process
     */
    public LeaderElector(ClusterView view, Requests requests, String identity, LeaderElection.Settings settings,
                         Clock clock) {
        this(view, requests, identity, null, settings, clock);
    }

    /**
     * As above, the Lease's writes stamped with the service's Kubernetes identity ({@code stampedAs}; null: with
     * {@code identity}), which its credential covers; {@code identity} stays the Lease's holderIdentity.
     */
    public LeaderElector(ClusterView view, Requests requests, String identity, Commands.Actor stampedAs,
                         LeaderElection.Settings settings, Clock clock) {
        this.settings = settings;
        this.identity = identity;
        this.clock = clock;
        this.view = view;
        this.commands = new Commands(stampedAs == null ? Commands.Actor.of(identity) : stampedAs, clock);
        this.requests = requests;
    }

    public LeaderElector start() {
        running = true;
        thread = new Thread(this::run, identity + "-election");
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    public boolean isLeader() {
        Instant at = renewedAt;
        return at != null && clock.instant().isBefore(at.plus(settings.renewDeadline()));
    }

    /** Waits until this candidate leads or {@code millis} pass; answers whether it leads. */
    public boolean awaitLeadership(long millis) throws InterruptedException {
        synchronized (signal) {
            if (!isLeader()) {
                signal.wait(millis);
            }
        }
        return isLeader();
    }

    private void run() {
        while (running) {
            try {
                tryAcquireOrRenew();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                LOG.warn("{}: leader election round failed: {}", identity, e.toString());
            }
            try {
                Thread.sleep(settings.retryPeriod().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    void tryAcquireOrRenew() throws Exception {
        boolean wasLeader = isLeader();
        Optional<ObjectChanged> current = view.get(settings.key());
        Lease lease = current.map(c -> (Lease) c.getObject()).orElse(null);
        Instant now = clock.instant();
        String version = lease == null ? null : lease.getMetadata().getResourceVersion();
        if (observedAt == null || !java.util.Objects.equals(version, observedVersion)) {
            observedVersion = version;
            observedAt = now;
        }
        Optional<Lease> next = LeaderElection.next(lease, observedAt, identity, now, settings);
        if (next.isEmpty()) {
            if (wasLeader) {
                LOG.info("{}: lost the lease {} to {}", identity, settings.key(), lease.getSpec().getHolderIdentity());
            }
            renewedAt = null;
            return;
        }
        Requests.Result r = requests.submit(lease == null ? commands.create(next.get()) : commands.update(next.get()),
                settings.renewDeadline()).get();
        if (r.accepted()) {
            renewedAt = now;
            if (!wasLeader) {
                LOG.info("{}: acquired the lease {}; leading", identity, settings.key());
                synchronized (signal) {
                    signal.notifyAll();
                }
            }
        } else if (wasLeader && !isLeader()) {
            LOG.info("{}: could not renew the lease {} ({}); standing by", identity, settings.key(),
                    r.outcome().getMessage());
        }
    }

    @Override
    public void close() {
        running = false;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (isLeader()) {
            renewedAt = null;
            view.get(settings.key()).flatMap(c -> LeaderElection.released((Lease) c.getObject(), identity, clock.instant()))
                    .ifPresent(l -> {
                        try {
                            requests.submit(commands.update(l), settings.renewDeadline()).get();
                            LOG.info("{}: released the lease {}", identity, settings.key());
                        } catch (Exception e) {
                            LOG.warn("{}: releasing the lease failed: {}", identity, e.toString());
                        }
                    });
        }
    }
}
