package io.eventplane.core.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.PodCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

@DisplayName("Conditions")
class ConditionsTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant T1 = Instant.parse("2026-01-01T00:05:00Z");

    private static PodCondition pod(String type, String status, String reason, Instant since) {
        return PodCondition.newBuilder().setType(type).setStatus(status).setReason(reason)
                .setLastTransitionTime(since).build();
    }

    static Stream<Arguments> setCases() {
        PodCondition ready = pod("Ready", "True", null, T0);
        PodCondition scheduled = pod("PodScheduled", "True", null, T0);
        return Stream.of(
                Arguments.of("a new type is appended",
                        List.of(scheduled), pod("Ready", "True", null, T1),
                        List.of(scheduled, pod("Ready", "True", null, T1))),
                Arguments.of("the same status keeps lastTransitionTime, takes the new reason",
                        List.of(ready), pod("Ready", "True", "Again", T1),
                        List.of(pod("Ready", "True", "Again", T0))),
                Arguments.of("a changed status takes the new time",
                        List.of(ready), pod("Ready", "False", "ContainersNotReady", T1),
                        List.of(pod("Ready", "False", "ContainersNotReady", T1))),
                Arguments.of("the same status without a time takes the new time",
                        List.of(pod("Ready", "True", null, null)), pod("Ready", "True", null, T1),
                        List.of(pod("Ready", "True", null, T1))),
                Arguments.of("other types are untouched and keep their place",
                        List.of(scheduled, ready, pod("Initialized", "True", null, T0)),
                        pod("Ready", "False", null, T1),
                        List.of(scheduled, pod("Ready", "False", null, T1), pod("Initialized", "True", null, T0))),
                Arguments.of("a null list reads as empty",
                        null, ready, List.of(ready)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setCases")
    @DisplayName("set replaces the condition of its type, moving lastTransitionTime only with the status")
    void set(String name, List<PodCondition> before, PodCondition condition, List<PodCondition> after) {
        List<PodCondition> copy = before == null ? null : new ArrayList<>(before);
        assertEquals(after, Conditions.set(before, condition));
        assertEquals(copy, before, "the list given is not modified");
    }

    @Test
    @DisplayName("set works on any *Condition record: a NodeCondition keeps its transition time, takes the heartbeat")
    void setOtherKinds() {
        NodeCondition old = NodeCondition.newBuilder().setType("Ready").setStatus("True").setLastHeartbeatTime(T0)
                .setLastTransitionTime(T0).build();
        NodeCondition next = NodeCondition.newBuilder(old).setLastHeartbeatTime(T1).setLastTransitionTime(T1).build();
        NodeCondition set = Conditions.set(List.of(old), next).get(0);
        assertEquals(T0, set.getLastTransitionTime());
        assertEquals(T1, set.getLastHeartbeatTime());
    }

    @Test
    @DisplayName("find, status, isTrue and remove look a condition up by type")
    void lookups() {
        List<DeploymentCondition> list = List.of(
                DeploymentCondition.newBuilder().setType("Available").setStatus("True").build(),
                DeploymentCondition.newBuilder().setType("Progressing").setStatus("False").build());
        assertEquals("Progressing", Conditions.find(list, "Progressing").orElseThrow().getType());
        assertTrue(Conditions.find(list, "ReplicaFailure").isEmpty());
        assertTrue(Conditions.find(null, "Available").isEmpty());
        assertEquals("False", Conditions.status(list, "Progressing"));
        assertNull(Conditions.status(list, "ReplicaFailure"));
        assertTrue(Conditions.isTrue(list, "Available"));
        assertFalse(Conditions.isTrue(list, "Progressing"));
        assertEquals(List.of(list.get(1)), Conditions.remove(list, "Available"));
        assertEquals(List.of(), Conditions.remove(null, "Available"));
    }

    @Test
    @DisplayName("transitionTime keeps the previous time only for the same status")
    void transitionTime() {
        PodCondition previous = pod("Ready", "True", null, T0);
        assertEquals(T0, Conditions.transitionTime(previous, "True", T1));
        assertEquals(T1, Conditions.transitionTime(previous, "False", T1));
        assertEquals(T1, Conditions.transitionTime(null, "True", T1));
        assertEquals(T1, Conditions.transitionTime(pod("Ready", "True", null, null), "True", T1));
    }
}
