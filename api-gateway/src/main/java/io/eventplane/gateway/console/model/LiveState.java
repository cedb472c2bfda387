package io.eventplane.gateway.console.model;

import io.eventplane.client.ObjectView;
import io.eventplane.core.ResourceVersions;
import io.eventplane.log.ObjectChanged;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live cluster: rows kept up to date by a listener on the gateway's view. The listener is added on first use (a
 * gateway nobody opens the console on pays nothing), on a thread of its own, since adding it to a running view replays
 * every object through it.
 */
public final class LiveState implements ClusterState {
    private static final Logger LOG = LoggerFactory.getLogger(LiveState.class);
    private final ObjectView view;
    private final Clock clock;
    private final Consumer<String> changedKind;
    private final ClusterRows rows = new ClusterRows();
    private final CountDownLatch filled = new CountDownLatch(1);
    private volatile boolean started;

    /**
     * @param changedKind told the kind of every change after the first fill, on the view's thread (must not block)
     */
    public LiveState(ObjectView view, Clock clock, Consumer<String> changedKind) {
        this.view = view;
        this.clock = clock;
        this.changedKind = changedKind;
    }

    /** Starts following the view (once); returns at once. */
    public void start() {
        if (started) {
            return;
        }
        synchronized (this) {
            if (started) {
                return;
            }
            started = true;
        }
        Thread t = new Thread(() -> {
            long t0 = System.nanoTime();
            view.addListener(change -> {
                rows.apply(change);
                if (filled.getCount() == 0) {
                    changedKind.accept(change.getKind());
                }
            });
            filled.countDown();
            LOG.info("console: rows for {} objects built in {} ms", rows.countsByKind().values().stream()
                    .mapToInt(Integer::intValue).sum(), (System.nanoTime() - t0) / 1_000_000);
        }, "console-rows");
        t.setDaemon(true);
        t.start();
    }

    /** Starts if needed and waits until every current object has its row. */
    public LiveState ready() throws InterruptedException {
        start();
        if (!filled.await(2, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the console's rows were not built within 2 minutes");
        }
        return this;
    }

    /** The rows once every current object has one, else null (for a past state to share unchanged objects' rows). */
    public ClusterRows filledRows() {
        return filled.getCount() == 0 ? rows : null;
    }

    @Override
    public ClusterRows rows() {
        return rows;
    }

    @Override
    public boolean live() {
        return true;
    }

    @Override
    public Instant time() {
        return clock.instant();
    }

    @Override
    public String resourceVersion() {
        return ResourceVersions.encode(view.positions());
    }

    @Override
    public Optional<ObjectChanged> object(String key) {
        return view.get(key);
    }
}
