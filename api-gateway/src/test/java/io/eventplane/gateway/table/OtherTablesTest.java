package io.eventplane.gateway.table;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.model.Event;
import io.eventplane.model.Lease;
import io.eventplane.model.LeaseSpec;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OtherTablesTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");

    private static ObjectMeta meta(String name) {
        return ObjectMeta.newBuilder().setName(name).setNamespace("default").setCreationTimestamp(NOW.minusSeconds(300))
                .build();
    }

    private static List<String> cells(JsonNode table) {
        List<String> out = new java.util.ArrayList<>();
        table.path("rows").get(0).path("cells").forEach(c -> out.add(c.asText()));
        return out;
    }

    @Test
    @DisplayName("events: LAST SEEN (with repeats), TYPE, REASON, OBJECT, MESSAGE")
    void events() {
        Event e = Event.newBuilder().setMetadata(meta("nginx.1")).setType("Normal").setReason("Scheduled")
                .setMessage("Successfully assigned default/nginx to node-1").setCount(3)
                .setFirstTimestamp(NOW.minusSeconds(600)).setLastTimestamp(NOW.minusSeconds(60))
                .setInvolvedObject(ObjectReference.newBuilder().setKind("Pod").setName("nginx").build()).build();
        JsonNode t = TableRenderer.render(Kinds.EVENT, List.of(e), TableRenderer.Include.NONE, "v1", null, NOW);
        assertEquals(List.of("60s (x3 over 10m)", "Normal", "Scheduled", "pod/nginx", "", "",
                "Successfully assigned default/nginx to node-1", "10m", "3", "nginx.1"), cells(t));
        assertEquals(true, t.path("rows").get(0).path("object").isMissingNode());
    }

    @Test
    @DisplayName("leases show their holder; cordoned nodes show Ready,SchedulingDisabled; others NAME and AGE")
    void leasesNodesAndDefault() {
        Lease l = Lease.newBuilder().setMetadata(meta("node-1"))
                .setSpec(LeaseSpec.newBuilder().setHolderIdentity("node-1").build()).build();
        assertEquals(List.of("node-1", "node-1", "5m"),
                cells(TableRenderer.render(Kinds.LEASE, List.of(l), TableRenderer.Include.METADATA, "v1", null, NOW)));
        Node n = Node.newBuilder().setMetadata(meta("node-2")).setSpec(NodeSpec.newBuilder().setUnschedulable(true).build())
                .setStatus(NodeStatus.newBuilder().setConditions(List.of(NodeCondition.newBuilder().setType("Ready")
                        .setStatus("True").build())).build()).build();
        assertEquals(List.of("node-2", "Ready,SchedulingDisabled", "<none>", "5m"),
                cells(TableRenderer.render(Kinds.NODE, List.of(n), TableRenderer.Include.METADATA, "v1", null, NOW))
                        .subList(0, 4));
        assertEquals(List.of("Name", "Age"), List.of(SimpleColumns.DEFAULT.columns().get(0).name(),
                SimpleColumns.DEFAULT.columns().get(1).name()));
    }
}
