package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectView;
import io.eventplane.model.Event;
import io.eventplane.model.Pod;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 (soak finding): an idle cluster's log stops moving, except what kubelets write on a timer (Lease renewals,
 * the 5-minute node status). The scheduler tries an unschedulable pod again when the cluster changes in a way that
 * could make it fit, after a backoff, or every 5 minutes; each failure is a FailedScheduling Event update.
 */
@ExtendWith(SharedClusterExtension.class)
class IdleClusterEndToEndTest {
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Duration QUIET = Duration.ofSeconds(40);

    @Test
    @DisplayName("issue 20: with unschedulable pods and running pods, an idle cluster writes no Event and no Pod "
            + "change for 40 s (only Lease renewals)")
    void idleClusterLogStopsMoving(@TempDir Path dir) throws Exception {
        try (ControlLoop loop = new ControlLoop().start(dir)) {
            Commands user = new Commands("test-user");
            for (int i = 0; i < 3; i++) {
                loop.sender().send(user.create(KubeObjects.pod("huge-" + i)
                        .containers(KubeObjects.container("nginx").requests("64", null)).build()));
                loop.sender().send(user.create(KubeObjects.pod("small-" + i)
                        .containers(KubeObjects.container("nginx").requests("100m", null)).build()));
            }
            loop.sender().flush();
            ObjectView view = loop.view();
            loop.waiter().awaitTrue(DEADLINE, () -> {
                for (int i = 0; i < 3; i++) {
                    String name = "huge-" + i;
                    boolean failedEvent = view.list("Event", "default").stream().map(c -> (Event) c.getObject())
                            .anyMatch(e -> "FailedScheduling".equals(e.getReason())
                                    && name.equals(e.getInvolvedObject().getName()));
                    boolean running = view.get("Pod", "default", "small-" + i).map(c -> (Pod) c.getObject())
                            .map(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
                            .orElse(false);
                    if (!failedEvent || !running) {
                        return false;
                    }
                }
                return true;
            }, () -> "pods: " + view.list("Pod", "default").size() + ", events: " + view.list("Event", "default").size());

            // the first retries (backoff 1 s doubling to 10 s) are allowed to settle before the quiet window
            Map<String, AtomicLong> changes = new ConcurrentHashMap<>();
            long settleUntil = System.nanoTime() + Duration.ofSeconds(15).toNanos();
            loop.waiter().awaitTrue(Duration.ofSeconds(20), () -> System.nanoTime() > settleUntil, () -> "settling");
            // (a listener added to a running view first gets every current object: count only what comes after)
            long[] from = view.positions();
            ObjectView.Listener counter = c -> {
                if (io.eventplane.core.ResourceVersions.after(from, c.getResourceVersion())) {
                    changes.computeIfAbsent(c.getKind(), k -> new AtomicLong()).incrementAndGet();
                }
            };
            view.addListener(counter);
            long quietUntil = System.nanoTime() + QUIET.toNanos();
            loop.waiter().awaitTrue(QUIET.plusSeconds(5), () -> System.nanoTime() > quietUntil, () -> "waiting");
            view.removeListener(counter);
            Map<String, Long> moved = new java.util.TreeMap<>();
            changes.forEach((kind, n) -> moved.put(kind, n.get()));
            System.out.println("[idle] changes in " + QUIET.toSeconds() + " s by kind: " + moved);
            assertEquals(0, moved.getOrDefault("Event", 0L), "Event changes while idle: " + moved);
            assertEquals(0, moved.getOrDefault("Pod", 0L), "Pod changes while idle: " + moved);
        }
    }
}
