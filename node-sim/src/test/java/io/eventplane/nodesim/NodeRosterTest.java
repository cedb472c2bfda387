package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Node;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NodeRosterTest {

    @ParameterizedTest(name = "\"{0}\" in the group node- has index {1}")
    @CsvSource({"node-4, 4", "node-12, 12", "node-, -1", "node-04, -1", "node-x, -1", "other-4, -1", "node-1234567890, -1"})
    void index(String name, int index) {
        assertEquals(index, NodeRoster.index(name, "node-"));
    }

    @Test
    @DisplayName("the Node `node add` creates: as its kubelet registers it, without a status, annotated for its group, "
            + "with the extra labels; removal is the node-state annotation")
    void addedNode() {
        Node n = NodeRoster.added("node-", 7, Map.of("disk", "ssd"), NodeShape.defaults(), Instant.EPOCH);
        assertEquals("node-7", n.getMetadata().getName());
        assertNull(n.getStatus());
        assertEquals("ssd", n.getMetadata().getLabels().get("disk"));
        assertEquals("node-7", n.getMetadata().getLabels().get("kubernetes.io/hostname"));
        assertEquals("zone-a", n.getMetadata().getLabels().get("topology.kubernetes.io/zone"));
        assertEquals(SimNode.of("node-", 7).podCIDR(), n.getSpec().getPodCIDR());
        assertEquals(7, NodeRoster.addedIndex(n, "node-"));
        assertEquals(-1, NodeRoster.addedIndex(n, "edge-"), "another group's");
        assertEquals(-1, NodeRoster.addedIndex(NodeTemplates.node(SimNode.of("node-", 7), NodeShape.defaults(),
                Instant.EPOCH), "node-"), "not added at run time");
        assertTrue(!NodeRoster.removed(NodeFailure.marked(n, true)), "failed is not removed");
    }
}
