package io.eventplane.reconcile;

import io.eventplane.client.EventplaneConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controllers of one process, started together, ready together, stopped together in reverse order, with a
 * progress line per controller every {@code EVENTPLANE_PROGRESS_SECONDS} (30) while it is doing something.
 */
public final class ControllerRuntime implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ControllerRuntime.class);

    private final List<Controller> controllers;
    private final Thread progress;
    private volatile boolean closed;

    private ControllerRuntime(List<Controller> controllers) {
        this.controllers = List.copyOf(controllers);
        this.progress = new Thread(this::logProgress, "controller-progress");
        this.progress.setDaemon(true);
    }

    /** Starts {@code controllers} (not started yet), in order. */
    public static ControllerRuntime start(List<Controller> controllers) {
        ControllerRuntime runtime = new ControllerRuntime(controllers);
        controllers.forEach(Controller::start);
        runtime.progress.start();
        return runtime;
    }

    public List<Controller> controllers() {
        return controllers;
    }

    public boolean isReady() {
        return controllers.stream().allMatch(Controller::isReady);
    }

    private void logProgress() {
        Duration every = Duration.ofSeconds(Long.parseLong(EventplaneConfig.setting("EVENTPLANE_PROGRESS_SECONDS", "30")));
        Map<String, ControllerMetrics> last = new HashMap<>();
        try {
            while (!closed) {
                Thread.sleep(every.toMillis());
                for (Controller c : controllers) {
                    ControllerMetrics m = c.metrics();
                    if (m.movedSince(last.get(c.actor()))) {
                        LOG.info("{}: {}", c.actor(), m);
                    }
                    last.put(c.actor(), m);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Keeps the controllers running until the JVM is asked to stop (SIGTERM, Ctrl-C), then closes them. */
    public void runUntilShutdown() throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            close();
            stopped.countDown();
        }, "controllers-shutdown"));
        stopped.await();
    }

    @Override
    public void close() {
        closed = true;
        progress.interrupt();
        List<Controller> reversed = new ArrayList<>(controllers);
        java.util.Collections.reverse(reversed);
        reversed.forEach(Controller::close);
    }
}
