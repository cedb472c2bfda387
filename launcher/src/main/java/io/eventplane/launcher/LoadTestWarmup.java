package io.eventplane.launcher;

import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.LongSupplier;

/**
 * The load test's warm-up ({@code --warmup N}): before the measured phase, the same kind of objects for N pods are
 * created in their own namespace, run, and are deleted with the namespace, so that the measured phase sees a process
 * whose code paths are compiled (a long-running control plane's state) rather than one still interpreting and
 * compiling them. The measured phase starts once the namespace is gone and the writer has caught up. Without it
 * ({@code --warmup 0}, the default) the run measures a cold process, JIT compilation included.
 */
final class LoadTestWarmup {
    static final String NAMESPACE = "loadtest-warmup";

    private final String api;
    private final HttpClient http;
    private final LoadTestRun.Plan plan;
    private final PrintStream out;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private volatile String firstFailure;
    private volatile boolean stop;

    LoadTestWarmup(String api, HttpClient http, LoadTestRun.Plan plan, PrintStream out) {
        this.api = api;
        this.http = http;
        this.plan = plan;
        this.out = out;
    }

    /** Creates, runs and deletes the warm-up objects; returns when they are gone and the writer has no lag. */
    void run(LongSupplier writerLag) throws Exception {
        long t0 = System.nanoTime();
        int pods = plan.warmup();
        out.printf("loadtest: warm-up: %,d pods as %s in namespace %s, then deleted; the measured phase follows%n",
                pods, plan.objects(), NAMESPACE);
        send("POST", "/api/v1/namespaces",
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + NAMESPACE + "\"}}");
        Thread watcher = new Thread(this::watch, "loadtest-warmup-watch");
        watcher.setDaemon(true);
        watcher.start();
        try {
            create(pods);
            long deadline = System.nanoTime() + plan.timeout().toNanos();
            while (running.size() < pods && System.nanoTime() < deadline) {
                Thread.sleep(500);
            }
            if (running.size() < pods) {
                throw new IllegalStateException("warm-up: only " + running.size() + " of " + pods
                        + " pods running within " + plan.timeout().toSeconds() + " s"
                        + (firstFailure == null ? "" : "; first failed call: " + firstFailure));
            }
            out.printf("loadtest: warm-up: %,d pods running after %.1f s; deleting namespace %s%n", pods, since(t0),
                    NAMESPACE);
            send("DELETE", "/api/v1/namespaces/" + NAMESPACE, null);
            while (System.nanoTime() < deadline && status("/api/v1/namespaces/" + NAMESPACE) != 404) {
                Thread.sleep(500);
            }
            while (System.nanoTime() < deadline && writerLag.getAsLong() != 0) {
                Thread.sleep(200);
            }
            if (System.nanoTime() >= deadline) {
                throw new IllegalStateException("warm-up: namespace " + NAMESPACE + " not gone within "
                        + plan.timeout().toSeconds() + " s");
            }
            out.printf("loadtest: warm-up done after %.1f s (namespace deleted, writer caught up)%n", since(t0));
        } finally {
            stop = true;
        }
    }

    private void create(int pods) {
        Semaphore inFlight = new Semaphore(128);
        String path = plan.objectPath(NAMESPACE);
        for (int i = 0; i < plan.objectCount(pods); i++) {
            inFlight.acquireUninterruptibly();
            http.sendAsync(LoadTestRun.request(api, "POST", path, plan.objectBody(String.format("warm-%06d", i), i, pods)),
                    HttpResponse.BodyHandlers.ofString()).whenComplete((r, e) -> {
                        inFlight.release();
                        if ((e != null || r.statusCode() >= 300) && firstFailure == null) {
                            firstFailure = "POST " + path + ": " + (e != null ? e.toString() : r.statusCode() + " " + r.body());
                        }
                    });
        }
        inFlight.acquireUninterruptibly(128);
    }

    /** Counts the warm-up pods seen Running through a watch (the same path the measured phase's watch takes). */
    private void watch() {
        LoadTestRun.followPods(http, api, NAMESPACE, "0", () -> stop, (e, seen) -> {
            if (e.phase().equals("Running")) {
                running.add(e.name());
            }
        });
    }

    private void send(String method, String path, String body) throws Exception {
        HttpResponse<String> r = http.send(LoadTestRun.request(api, method, path, body), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300 && r.statusCode() != 409) {
            throw new IllegalStateException("warm-up: " + method + " " + path + " answered " + r.statusCode() + ": "
                    + r.body());
        }
    }

    private int status(String path) throws Exception {
        return http.send(LoadTestRun.request(api, "GET", path, null), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static double since(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
