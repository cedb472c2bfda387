package io.eventplane.scheduler;

import static io.eventplane.testkit.objects.KubeObjects.persistentVolume;
import static io.eventplane.testkit.objects.KubeObjects.persistentVolumeClaim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.ObjectStore;
import io.eventplane.log.ObjectChanged;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The scheduler's bookkeeping of pods waiting on claims: who a change wakes, and which writes are sent again. */
class VolumeWaitsTest {
    private static ObjectChanged changeOf(SpecificRecord object) {
        return ObjectStore.of(List.of(object)).all().iterator().next();
    }

    @Test
    @DisplayName("a claim's change wakes the pods that name it; a volume's or a class's wakes every waiting pod; a "
            + "forgotten pod is not woken")
    void wakes() {
        VolumeWaits waits = new VolumeWaits();
        waits.watch("Pod/default/a", "default", List.of("data"));
        waits.bind("Pod/default/b", "uid-b", "node-1", "default", List.of("logs"));
        long before = waits.generation();

        assertEquals(List.of("Pod/default/a"), waits.woken(changeOf(persistentVolumeClaim("data").build())));
        assertEquals(List.of(), waits.woken(changeOf(persistentVolumeClaim("data").namespace("other").build())));
        assertEquals(2, waits.woken(changeOf(persistentVolume("pv-1").build())).size());
        assertTrue(waits.generation() > before);
        assertTrue(waits.isBinding("Pod/default/b"));
        assertNull(waits.binding("Pod/default/b", "another-uid"));

        waits.forget("Pod/default/a");
        assertEquals(List.of(), waits.woken(changeOf(persistentVolumeClaim("data").build())));
    }

    @Test
    @DisplayName("a Reserve write is sent once per version of its object: again only on a newer one")
    void writesOncePerVersion() {
        VolumeWaits.Binding b = new VolumeWaits().bind("Pod/default/a", "uid-a", "node-1", "default", List.of("data"));
        assertTrue(b.firstWriteAt(persistentVolumeClaim("data").resourceVersion("4").build()));
        assertFalse(b.firstWriteAt(persistentVolumeClaim("data").resourceVersion("4").build()));
        assertTrue(b.firstWriteAt(persistentVolumeClaim("data").resourceVersion("6").build()));
        assertTrue(b.firstWriteAt(persistentVolume("pv-1").resourceVersion("4").build()), "another object");
    }
}
