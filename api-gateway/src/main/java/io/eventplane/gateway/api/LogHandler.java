package io.eventplane.gateway.api;

import io.eventplane.core.logs.ContainerLog;
import io.eventplane.core.logs.PodLogs;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.Statuses;
import io.eventplane.gateway.wire.WatchStream;
import io.eventplane.model.Pod;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * GET pods/{name}/log: the simulated container logs ({@link PodLogs}), computed from the pod as the view holds it;
 * no line is stored anywhere. {@code container}, {@code previous}, {@code tailLines}, {@code sinceSeconds} /
 * {@code sinceTime}, {@code timestamps}, {@code limitBytes}, and {@code follow}, which streams new lines as their
 * time comes and ends when the container instance ends or the pod goes, as the kubelet's log stream does.
 */
final class LogHandler {
    /** How often a follower looks at the pod between two lines, to see its container end. */
    private static final Duration POLL = Duration.ofMillis(250);
    /**
     * How far behind the clock a follower writes: the kubelet's status reaches the view a moment after the container
     * ended, and a line due in that moment must not be sent as if the program had still written it.
     */
    private static final Duration LAG = Duration.ofSeconds(1);
    private final Backend backend;

    LogHandler(Backend backend) {
        this.backend = backend;
    }

    ApiResponse log(ApiRequest request, ResourcePath path) {
        Pod pod = pod(path).orElseThrow(() -> new ApiException(Statuses.notFound(path.kind(), path.name())));
        String container = request.param("container");
        boolean previous = request.flag("previous");
        boolean timestamps = request.flag("timestamps");
        Integer tail = integer(request, "tailLines");
        Instant now = backend.clock().instant();
        Instant since = since(request, now);
        ContainerLog log;
        try {
            log = PodLogs.of(pod, container, previous);
        } catch (PodLogs.Unavailable e) {
            throw new ApiException(Statuses.badRequest(e.getMessage()));
        }
        List<ContainerLog.Line> lines = log.lines(since, now, tail != null && tail < 0 ? null : tail);
        if (request.flag("follow") && !previous && log.finished() == null) {
            String name = log.who().container();
            return ApiResponse.stream("text/plain", new Follower(path, name, log, lines, timestamps, now));
        }
        StringBuilder out = new StringBuilder();
        lines.forEach(l -> append(out, l, timestamps));
        String body = out.toString();
        Integer limit = integer(request, "limitBytes");
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        if (limit != null && limit > 0 && bytes.length > limit) {
            bytes = java.util.Arrays.copyOf(bytes, limit);
        }
        return new ApiResponse(200, "text/plain", bytes, new java.util.ArrayList<>(), null);
    }

    private Optional<Pod> pod(ResourcePath path) {
        return backend.view().get(path.kind().kind(), path.storedNamespace(), path.name())
                .map(c -> (Pod) c.getObject());
    }

    private static Instant since(ApiRequest request, Instant now) {
        Integer seconds = integer(request, "sinceSeconds");
        String time = request.param("sinceTime");
        if (seconds != null && time != null) {
            throw new ApiException(Statuses.badRequest("at most one of `sinceTime` or `sinceSeconds` may be specified"));
        }
        if (seconds != null) {
            if (seconds < 1) {
                throw new ApiException(Statuses.badRequest("sinceSeconds: Invalid value: " + seconds
                        + ": must be greater than 0"));
            }
            return now.minusSeconds(seconds);
        }
        try {
            return time == null ? null : Instant.parse(time);
        } catch (DateTimeParseException e) {
            throw new ApiException(Statuses.badRequest("sinceTime: invalid time \"" + time + "\""));
        }
    }

    private static Integer integer(ApiRequest request, String name) {
        String v = request.param(name);
        if (v == null || v.isEmpty()) {
            return null;
        }
        try {
            return Integer.valueOf(v);
        } catch (NumberFormatException e) {
            throw new ApiException(Statuses.badRequest(name + ": invalid value \"" + v + "\""));
        }
    }

    private static void append(StringBuilder out, ContainerLog.Line line, boolean timestamps) {
        if (timestamps) {
            out.append(rfc3339Nano(line.time())).append(' ');
        }
        out.append(line.text()).append('\n');
    }

    /** Go's RFC3339Nano, as the kubelet stamps lines: UTC, trailing zeros of the fraction dropped. */
    static String rfc3339Nano(Instant t) {
        String s = Instant.ofEpochSecond(t.getEpochSecond()).toString(); // ...:05Z
        if (t.getNano() == 0) {
            return s;
        }
        String fraction = String.format("%09d", t.getNano()).replaceAll("0+$", "");
        return s.substring(0, s.length() - 1) + "." + fraction + "Z";
    }

    /** {@code follow=true}: the lines so far, then each new one when its time comes, until the instance ends. */
    private final class Follower implements WatchStream {
        private final ResourcePath path;
        private final String container;
        private final boolean timestamps;
        private final Deque<byte[]> pending = new ArrayDeque<>();
        private ContainerLog log;
        private Instant cursor;
        private volatile boolean closed;

        Follower(ResourcePath path, String container, ContainerLog log, List<ContainerLog.Line> first,
                 boolean timestamps, Instant now) {
            this.path = path;
            this.container = container;
            this.log = log;
            this.timestamps = timestamps;
            this.cursor = now.plusMillis(1);
            queue(first);
        }

        @Override
        public byte[] next() throws InterruptedException {
            while (!closed) {
                if (!pending.isEmpty()) {
                    return pending.poll();
                }
                if (log.finished() != null) {
                    return null; // the instance has ended and everything it wrote was sent
                }
                if (!refresh()) {
                    return null;
                }
                if (log.finished() != null) {
                    // its last lines and exit, even those before a line the view's lag let through already
                    Instant from = cursor.isAfter(log.finished()) ? log.finished() : cursor;
                    queue(log.lines(from, log.finished(), null));
                    continue;
                }
                Instant upTo = backend.clock().instant().minus(LAG);
                if (!upTo.isBefore(cursor)) {
                    queue(log.lines(cursor, upTo, null));
                    cursor = upTo.plusMillis(1);
                }
                if (pending.isEmpty()) {
                    Instant due = log.nextLineAfter(cursor.minusMillis(1));
                    long wait = due == null ? POLL.toMillis() : Math.min(POLL.toMillis(),
                            Math.max(1, Duration.between(upTo, due).toMillis() + 1));
                    Thread.sleep(wait);
                }
            }
            return null;
        }

        /** The followed instance as the pod now shows it (finished once it ended); false when the pod is gone. */
        private boolean refresh() {
            Optional<Pod> pod = pod(path);
            if (pod.isEmpty()) {
                return false;
            }
            for (boolean previous : new boolean[] {false, true}) {
                try {
                    ContainerLog now = PodLogs.of(pod.get(), container, previous);
                    if (now.started().equals(log.started())) {
                        log = now;
                        return true;
                    }
                } catch (PodLogs.Unavailable e) {
                    // not this one
                }
            }
            return false; // restarted twice since: the followed instance is gone
        }

        private void queue(List<ContainerLog.Line> lines) {
            for (ContainerLog.Line l : lines) {
                StringBuilder b = new StringBuilder();
                append(b, l, timestamps);
                pending.add(b.toString().getBytes(StandardCharsets.UTF_8));
            }
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
