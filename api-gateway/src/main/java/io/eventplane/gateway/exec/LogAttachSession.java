package io.eventplane.gateway.exec;

import io.eventplane.core.logs.ContainerLog;
import io.eventplane.core.logs.PodLogs;
import io.eventplane.model.Pod;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Attach to a container whose process is not interactive: its output from now on, which is its simulated log
 * ({@link PodLogs}), until the instance ends or the pod goes; stdin is read and dropped, as a process that never
 * reads it would.
 */
final class LogAttachSession implements StreamSession {
    private static final Duration POLL = Duration.ofMillis(250);
    /** Lines are sent a moment late: the kubelet's exit reaches the view after the container ended. */
    private static final Duration LAG = Duration.ofSeconds(1);
    private final Future<?> running;

    LogAttachSession(Supplier<Optional<Pod>> pod, String container, Clock clock, StreamSink sink,
                     ExecutorService threads) {
        running = threads.submit(() -> {
            Instant cursor = clock.instant();
            try {
                while (true) {
                    Optional<Pod> now = pod.get();
                    if (now.isEmpty()) {
                        break;
                    }
                    ContainerLog log = PodLogs.of(now.get(), container, false);
                    Instant upTo = log.finished() != null ? log.finished() : clock.instant().minus(LAG);
                    if (!upTo.isBefore(cursor)) {
                        send(sink, log.lines(cursor, upTo, null));
                        cursor = upTo.plusMillis(1);
                    }
                    if (log.finished() != null) {
                        break;
                    }
                    Thread.sleep(POLL.toMillis());
                }
                sink.send(Channels.frame(Channels.ERROR, Channels.exitStatus(List.of(), 0)));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException | RuntimeException e) {
                // the client went away, or the container cannot be read any more
            } finally {
                sink.close();
            }
        });
    }

    private static void send(StreamSink sink, List<ContainerLog.Line> lines) throws IOException {
        for (ContainerLog.Line line : lines) {
            sink.send(Channels.frame(Channels.STDOUT, (line.text() + "\n").getBytes(StandardCharsets.UTF_8)));
        }
    }

    @Override
    public void receive(byte[] message) {
    }

    @Override
    public void closed() {
        running.cancel(true);
    }
}
