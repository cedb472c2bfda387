package io.eventplane.gateway.api;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.gateway.wire.KubeStatus;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * kube-apiserver's max-in-flight filter: at most {@code --max-requests-inflight} read-only and {@code
 * --max-mutating-requests-inflight} mutating requests are served at once; one more is answered 429 TooManyRequests
 * with {@code Retry-After: 1} at once, rather than queueing threads until every answer is late (a gateway without it
 * went from 302 to 691 threads under a 50 creates/s soak on two cores, and answered 504s). Watches and other
 * long-running requests (log follow, exec, attach, port-forward, proxy) hold no slot, nor do health probes.
 * Limits from {@code EVENTPLANE_MAX_REQUESTS_INFLIGHT} (400) and {@code EVENTPLANE_MAX_MUTATING_REQUESTS_INFLIGHT}
 * (200), kube-apiserver's defaults; 0 turns a limit off.
 */
final class InFlightLimit {
    static final String RETRY_AFTER_SECONDS = "1";
    private static final Set<String> READ_ONLY_METHODS = Set.of("GET", "HEAD", "OPTIONS");
    private static final Set<String> LONG_RUNNING_SUBRESOURCES = Set.of("exec", "attach", "portforward", "proxy");
    private static final Set<String> PROBES = Set.of("/healthz", "/livez", "/readyz");

    private final Semaphore readOnly;
    private final Semaphore mutating;
    private final AtomicLong refused = new AtomicLong();

    InFlightLimit(int readOnlyLimit, int mutatingLimit) {
        this.readOnly = readOnlyLimit > 0 ? new Semaphore(readOnlyLimit) : null;
        this.mutating = mutatingLimit > 0 ? new Semaphore(mutatingLimit) : null;
    }

    static InFlightLimit fromEnvironment() {
        return new InFlightLimit(
                Integer.parseInt(EventplaneConfig.setting("EVENTPLANE_MAX_REQUESTS_INFLIGHT", "400")),
                Integer.parseInt(EventplaneConfig.setting("EVENTPLANE_MAX_MUTATING_REQUESTS_INFLIGHT", "200")));
    }

    /** A slot for {@code request} (run the result to give it back once answered); empty when the request must be refused. */
    java.util.Optional<Runnable> acquire(ApiRequest request) {
        if (exempt(request)) {
            return java.util.Optional.of(() -> { });
        }
        Semaphore pool = READ_ONLY_METHODS.contains(request.method()) ? readOnly : mutating;
        if (pool == null) {
            return java.util.Optional.of(() -> { });
        }
        if (!pool.tryAcquire()) {
            refused.incrementAndGet();
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(pool::release);
    }

    /** Requests refused so far. */
    long refused() {
        return refused.get();
    }

    static KubeStatus tooManyRequests() {
        return new KubeStatus(429, "TooManyRequests", "Too many requests, please try again later.", null);
    }

    static boolean exempt(ApiRequest request) {
        String path = request.path();
        if (PROBES.contains(path) || path.startsWith("/readyz/") || path.startsWith("/livez/")) {
            return true;
        }
        if (request.flag("watch") || path.contains("/watch/")) {
            return true;
        }
        int last = path.lastIndexOf('/');
        String tail = last < 0 ? path : path.substring(last + 1);
        if (LONG_RUNNING_SUBRESOURCES.contains(tail) || path.contains("/proxy/")) {
            return true;
        }
        return tail.equals("log") && request.flag("follow");
    }
}
