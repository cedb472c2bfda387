package io.eventplane.core.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eventplane.core.codec.FieldValidation;
import io.eventplane.core.codec.KubeJson;
import io.eventplane.model.Pod;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Simulated container logs: the instance kubectl logs reads and its lines")
class PodLogsTest {
    private static final Instant T0 = Instant.parse("2025-01-01T00:00:00Z");
    private static final String POD = """
            apiVersion: v1
            kind: Pod
            metadata:
              name: web
              namespace: default
              annotations:
                sim.eventplane.io/log: "GET / 200 ({container} #{n}, restart {restart})"
                sim.eventplane.io/log-interval: 5s
                sim.eventplane.io/exit-log: "shutting down\\nbye"
            spec:
              nodeName: node-1
              containers:
              - name: app
                image: nginx
            status:
              containerStatuses:
              - name: app
                restartCount: 1
                state:
                  running:
                    startedAt: "2025-01-01T00:00:00Z"
                lastState:
                  terminated:
                    exitCode: 1
                    startedAt: "2024-12-31T23:59:00Z"
                    finishedAt: "2024-12-31T23:59:12Z"
            """;

    private static Pod pod(String yaml) {
        return KubeJson.get().parseObject(yaml.getBytes(StandardCharsets.UTF_8), Pod.class, FieldValidation.STRICT, null);
    }

    private static List<String> texts(List<ContainerLog.Line> lines) {
        return lines.stream().map(ContainerLog.Line::text).toList();
    }

    @Test
    @DisplayName("a running container: its start, then its declared line every interval up to now; --tail and --since")
    void running() {
        ContainerLog log = PodLogs.of(pod(POD), null, false);
        List<ContainerLog.Line> all = log.lines(null, T0.plusSeconds(12), null);
        assertEquals(List.of("Started container app (image nginx, restart 1)", "GET / 200 (app #1, restart 1)",
                "GET / 200 (app #2, restart 1)"), texts(all));
        assertEquals(T0.plusSeconds(10), all.get(2).time());
        assertEquals(List.of("GET / 200 (app #2, restart 1)"), texts(log.lines(null, T0.plusSeconds(12), 1)));
        assertEquals(List.of("GET / 200 (app #2, restart 1)"), texts(log.lines(T0.plusSeconds(6), T0.plusSeconds(12), null)));
        assertEquals(200_001, log.lines(null, T0.plusSeconds(1_000_000), null).size());
        assertEquals(3, log.lines(null, T0.plusSeconds(1_000_000), 3).size());
        assertEquals(T0.plusSeconds(15), log.nextLineAfter(T0.plusSeconds(12)));
    }

    @Test
    @DisplayName("--previous: the last terminated instance, with the lines its program writes on exit and the exit")
    void previous() {
        ContainerLog log = PodLogs.of(pod(POD), "app", true);
        assertEquals(List.of("Started container app (image nginx, restart 0)", "GET / 200 (app #1, restart 0)",
                "GET / 200 (app #2, restart 0)", "shutting down", "bye", "Container app exited with code 1"),
                texts(log.lines(null, T0, null)));
        assertEquals(List.of("bye", "Container app exited with code 1"), texts(log.lines(null, T0, 2)));
    }

    @Test
    @DisplayName("Kubernetes' refusals: container name required, unknown container, waiting to start, no previous")
    void refusals() {
        Pod two = pod(POD.replace("  - name: app\n    image: nginx\n", "  - name: app\n    image: nginx\n  - name: side\n    image: busybox\n"));
        assertEquals("a container name must be specified for pod web, choose one of: [app side]",
                assertThrows(PodLogs.Unavailable.class, () -> PodLogs.of(two, null, false)).getMessage());
        assertEquals("container nope is not valid for pod web",
                assertThrows(PodLogs.Unavailable.class, () -> PodLogs.of(two, "nope", false)).getMessage());
        assertEquals("container \"side\" in pod \"web\" is waiting to start: ContainerCreating",
                assertThrows(PodLogs.Unavailable.class, () -> PodLogs.of(two, "side", false)).getMessage());
        Pod fresh = pod(POD.substring(0, POD.indexOf("status:")) + """
                status:
                  containerStatuses:
                  - name: app
                    state:
                      waiting:
                        reason: ImagePullBackOff
                """);
        assertEquals("container \"app\" in pod \"web\" is waiting to start: trying and failing to pull image",
                assertThrows(PodLogs.Unavailable.class, () -> PodLogs.of(fresh, null, false)).getMessage());
        assertEquals("previous terminated container \"app\" in pod \"web\" not found",
                assertThrows(PodLogs.Unavailable.class, () -> PodLogs.of(fresh, null, true)).getMessage());
    }
}
