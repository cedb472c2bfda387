package io.eventplane.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A view's secondary index")
class ObjectStoreIndexTest {
    private long position;

    @Test
    @DisplayName("follows an object's indexed value through creates, status updates, moves and deletes")
    void followsTheIndexedValue() {
        ObjectStore store = new ObjectStore().addIndex("byNode", "Pod", c -> ((Pod) c.getObject()).getSpec().getNodeName());
        store.apply(change(ChangeType.CREATED, "a", null, null));
        assertEquals(List.of(), store.indexed("byNode", "n1"));
        store.apply(change(ChangeType.BOUND, "a", "n1", null));
        store.apply(change(ChangeType.CREATED, "b", "n1", null));
        assertEquals(List.of("a", "b"), names(store.indexed("byNode", "n1")));
        store.apply(change(ChangeType.STATUS_UPDATED, "a", "n1", "Running"));
        assertEquals(List.of("a", "b"), names(store.indexed("byNode", "n1")));
        assertEquals("Running", ((Pod) store.indexed("byNode", "n1").get(0).getObject()).getStatus().getPhase());
        store.apply(change(ChangeType.UPDATED, "b", "n2", null));
        assertEquals(List.of("a"), names(store.indexed("byNode", "n1")));
        assertEquals(List.of("b"), names(store.indexed("byNode", "n2")));
        store.apply(change(ChangeType.DELETED, "a", "n1", "Running"));
        assertEquals(List.of(), store.indexed("byNode", "n1"));
        store.addIndex("byNodeLate", "Pod", c -> ((Pod) c.getObject()).getSpec().getNodeName());
        assertEquals(List.of("b"), names(store.indexed("byNodeLate", "n2")));
    }

    private static List<String> names(List<ObjectChanged> changes) {
        return changes.stream().map(ObjectChanged::getName).toList();
    }

    private ObjectChanged change(ChangeType type, String name, String node, String phase) {
        position++;
        Pod pod = Pod.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("default").setUid("uid-" + name).build())
                .setSpec(PodSpec.newBuilder().setNodeName(node).build())
                .setStatus(phase == null ? null : PodStatus.newBuilder().setPhase(phase).build())
                .build();
        return ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("test").setRequestId("r" + position).setTime(Instant.EPOCH)
                        .build())
                .setType(type).setKind("Pod").setNamespace("default").setName(name).setUid("uid-" + name)
                .setResourceVersion(position).setObject(pod).build();
    }
}
