package io.eventplane.faults;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Open-loop writes through the API at a fixed rate: each second {@code rate} ConfigMap creates are sent whatever
 * the previous ones are doing (as independent clients would), each with {@code ?timeout=} and a client deadline a
 * little past it. Every answer is kept: a 201 is an acknowledged write, which must be in the log exactly once.
 */
final class LoadGenerator implements AutoCloseable {
    /** One request's fate. {@code status} 0: no answer within the client deadline (a hang) or a connection error. */
    record Answer(String name, long sentAtNanos, int status, String retryAfter, long latencyMillis, String uid,
                  String error) {
    }

    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    /** Past the request timeout by this much, an answer that has not come is a hang. */
    static final Duration HANG_MARGIN = Duration.ofSeconds(5);

    private final Api api;
    private final int rate;
    private final String prefix;
    private final HttpClient client;
    private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final Map<String, CompletableFuture<?>> pending = new ConcurrentHashMap<>();
    private final AtomicInteger sent = new AtomicInteger();
    private volatile boolean running = true;
    private final Thread pacer;

    LoadGenerator(Api api, int rate, String prefix) {
        this.api = api;
        this.rate = rate;
        this.prefix = prefix;
        this.client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        this.pacer = new Thread(this::pace, "load-" + prefix);
        pacer.setDaemon(true);
        pacer.start();
    }

    private void pace() {
        long interval = 1_000_000_000L / rate;
        long next = System.nanoTime();
        while (running) {
            long now = System.nanoTime();
            if (now < next) {
                try {
                    Thread.sleep((next - now) / 1_000_000, (int) ((next - now) % 1_000_000));
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            send(prefix + "-" + sent.incrementAndGet());
            next += interval;
        }
    }

    private void send(String name) {
        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\"},\"data\":{\"k\":\"v\"}}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(api.base + "/api/v1/namespaces/default/configmaps"
                        + "?timeout=" + REQUEST_TIMEOUT.toSeconds() + "s"))
                .timeout(REQUEST_TIMEOUT.plus(HANG_MARGIN))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
        long t0 = System.nanoTime();
        CompletableFuture<?> f = client.sendAsync(request, HttpResponse.BodyHandlers.ofString())
                .handle((r, e) -> {
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    if (e != null) {
                        Throwable cause = e.getCause() == null ? e : e.getCause();
                        answers.add(new Answer(name, t0, 0, null, ms, null,
                                (cause instanceof HttpTimeoutException ? "hang: " : "") + cause));
                    } else {
                        String uid = null;
                        if (r.statusCode() == 201) {
                            try {
                                uid = Api.JSON.readTree(r.body()).path("metadata").path("uid").asText();
                            } catch (java.io.IOException ex) {
                                uid = "";
                            }
                        }
                        answers.add(new Answer(name, t0, r.statusCode(),
                                r.headers().firstValue("Retry-After").orElse(null), ms, uid,
                                r.statusCode() >= 500 ? Api.abbreviate(r.body()) : null));
                    }
                    pending.remove(name);
                    return null;
                });
        pending.put(name, f);
    }

    int sent() {
        return sent.get();
    }

    /** Answers so far. */
    List<Answer> answers() {
        return List.copyOf(answers);
    }

    /** Stops sending and waits for every request sent to be answered (or to reach its client deadline). */
    List<Answer> stop() throws InterruptedException {
        running = false;
        pacer.join();
        long deadline = System.nanoTime() + REQUEST_TIMEOUT.plus(HANG_MARGIN).plusSeconds(10).toNanos();
        while (!pending.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        return answers();
    }

    @Override
    public void close() throws InterruptedException {
        if (running) {
            stop();
        }
    }
}
