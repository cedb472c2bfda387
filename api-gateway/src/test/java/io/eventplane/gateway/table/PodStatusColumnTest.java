package io.eventplane.gateway.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateRunning;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PodStatusColumnTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    private static Pod pod(String phase, ContainerState state, boolean ready, int restarts, Instant deletion) {
        ContainerStatus cs = ContainerStatus.newBuilder().setName("c").setState(state).setReady(ready)
                .setRestartCount(restarts).build();
        return Pod.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("p").setCreationTimestamp(NOW.minusSeconds(190))
                        .setDeletionTimestamp(deletion).build())
                .setSpec(PodSpec.newBuilder().setContainers(List.of(Container.newBuilder().setName("c").build())).build())
                .setStatus(PodStatus.newBuilder().setPhase(phase).setContainerStatuses(state == null ? null : List.of(cs))
                        .build())
                .build();
    }

    private static ContainerState waiting(String reason) {
        return ContainerState.newBuilder().setWaiting(ContainerStateWaiting.newBuilder().setReason(reason).build()).build();
    }

    @Test
    @DisplayName("STATUS as kubectl shows it: Pending, ContainerCreating, Running, CrashLoopBackOff, Completed, Terminating")
    void status() {
        PodColumns columns = new PodColumns();
        assertEquals(List.of("p", "0/1", "Pending", "0", "3m10s", "<none>", "<none>", "<none>", "<none>"),
                columns.cells(pod("Pending", null, false, 0, null), NOW));
        assertEquals("ContainerCreating", columns.cells(pod("Pending", waiting("ContainerCreating"), false, 0, null), NOW).get(2));
        ContainerState running = ContainerState.newBuilder().setRunning(ContainerStateRunning.newBuilder()
                .setStartedAt(NOW).build()).build();
        assertEquals(List.of("1/1", "Running"), columns.cells(pod("Running", running, true, 0, null), NOW).subList(1, 3));
        assertEquals(List.of("CrashLoopBackOff", "4"),
                columns.cells(pod("Running", waiting("CrashLoopBackOff"), false, 4, null), NOW).subList(2, 4));
        ContainerState done = ContainerState.newBuilder().setTerminated(ContainerStateTerminated.newBuilder()
                .setExitCode(0).setReason("Completed").build()).build();
        assertEquals("Completed", columns.cells(pod("Succeeded", done, false, 0, null), NOW).get(2));
        assertEquals("Terminating", columns.cells(pod("Running", running, true, 0, NOW), NOW).get(2));
    }

    @Test
    @DisplayName("ages read like kubectl's: 59s, 3m10s, 15m, 5h3m, 30h, 3d2h, 20d, 2y30d")
    void ages() {
        assertEquals("59s", Ages.human(Duration.ofSeconds(59)));
        assertEquals("119s", Ages.human(Duration.ofSeconds(119)));
        assertEquals("3m10s", Ages.human(Duration.ofSeconds(190)));
        assertEquals("15m", Ages.human(Duration.ofMinutes(15)));
        assertEquals("5h3m", Ages.human(Duration.ofMinutes(303)));
        assertEquals("30h", Ages.human(Duration.ofHours(30)));
        assertEquals("3d2h", Ages.human(Duration.ofHours(74)));
        assertEquals("20d", Ages.human(Duration.ofDays(20)));
        assertEquals("2y30d", Ages.human(Duration.ofDays(760)));
        assertEquals("0s", Ages.human(Duration.ofMillis(-500)));
    }
}
