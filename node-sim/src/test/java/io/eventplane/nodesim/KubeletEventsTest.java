package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.client.events.EventNotice;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Events a simulated kubelet records about its node, and how it prints durations. (Pod events: PodRunTest.) */
class KubeletEventsTest {
    @Test
    @DisplayName("a kubelet registering its node records Starting, the node's conditions and NodeReady, about Node node-1 (uid = name)")
    void nodeStarting() {
        List<EventNotice> events = KubeletEvents.nodeStarting("node-1", true);

        assertEquals(List.of("Starting: Starting kubelet.",
                "NodeHasSufficientMemory: Node node-1 status is now: NodeHasSufficientMemory",
                "NodeHasNoDiskPressure: Node node-1 status is now: NodeHasNoDiskPressure",
                "NodeHasSufficientPID: Node node-1 status is now: NodeHasSufficientPID",
                "NodeAllocatableEnforced: Updated Node Allocatable limit across pods",
                "NodeReady: Node node-1 status is now: NodeReady"),
                events.stream().map(e -> e.reason() + ": " + e.message()).toList());
        for (EventNotice e : events) {
            assertEquals("Node", e.involvedObject().getKind());
            assertEquals("node-1", e.involvedObject().getName());
            assertEquals("node-1", e.involvedObject().getUid());
            assertEquals(null, e.involvedObject().getNamespace());
        }
        assertEquals(List.of("Starting"), KubeletEvents.nodeStarting("node-1", false).stream()
                .map(EventNotice::reason).toList(), "a restart that finds its node Ready reports no status change");
    }

    @ParameterizedTest(name = "{0} ms prints as {1}")
    @CsvSource({"0, 0s", "7, 7ms", "512, 512ms", "1000, 1s", "1500, 1.5s", "2466, 2.466s", "123250, 2m3.25s",
            "3723000, 1h2m3s"})
    void goDurations(long millis, String printed) {
        assertEquals(printed, KubeletEvents.go(Duration.ofMillis(millis)));
    }
}
