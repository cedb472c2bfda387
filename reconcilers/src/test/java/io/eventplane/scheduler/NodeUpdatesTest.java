package io.eventplane.scheduler;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeUpdatesTest {
    private static Node node(Instant heartbeat, String ready) {
        return KubeObjects.node("node-1").capacity("2", "8Gi", "110").condition(NodeCondition.newBuilder()
                .setType("Ready").setStatus(ready).setLastHeartbeatTime(heartbeat).build()).build();
    }

    @Test
    @DisplayName("a kubelet's periodic status report (new heartbeat, same statuses) cannot make a pod fit; a changed "
            + "condition status, allocatable, taint or unschedulable can")
    void onlySchedulingPropertiesCount() {
        Instant t = Instant.parse("2026-01-01T00:00:00Z");
        Node before = node(t, "True");
        assertFalse(NodeUpdates.mayMakePodsFit(before, node(t.plusSeconds(300), "True")));
        assertTrue(NodeUpdates.mayMakePodsFit(node(t, "False"), node(t.plusSeconds(10), "True")));
        assertTrue(NodeUpdates.mayMakePodsFit(before, KubeObjects.node("node-1").capacity("4", "8Gi", "110")
                .condition(NodeCondition.newBuilder().setType("Ready").setStatus("True").setLastHeartbeatTime(t)
                        .build()).build()));
        assertTrue(NodeUpdates.mayMakePodsFit(before, KubeObjects.node("node-1").capacity("2", "8Gi", "110")
                .condition(NodeCondition.newBuilder().setType("Ready").setStatus("True").setLastHeartbeatTime(t)
                        .build()).unschedulable().build()));
        assertTrue(NodeUpdates.mayMakePodsFit(null, before));
    }
}
