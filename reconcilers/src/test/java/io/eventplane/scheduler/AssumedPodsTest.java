package io.eventplane.scheduler;

import static io.eventplane.scheduler.TestObjects.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class AssumedPodsTest {
    private static final Instant T0 = Instant.parse("2025-06-01T10:00:00Z");
    private final AssumedPods assumed = new AssumedPods(Duration.ofSeconds(30));
    private final Map<String, Pod> view = new HashMap<>();

    private AssumedPods.Assumed assume(String name) {
        Pod p = pod(name, "100m");
        view.put("Pod/default/" + name, p);
        AssumedPods.Assumed a = new AssumedPods.Assumed("Pod/default/" + name, p.getMetadata().getUid(), "node-1",
                PodInfo.of(p), T0);
        assumed.assume(a);
        return a;
    }

    private List<AssumedPods.Assumed> prune(Instant now) {
        return assumed.prune(key -> Optional.ofNullable(view.get(key)), now);
    }

    @Test
    @DisplayName("an assumption stays while the view still shows the pod unbound")
    void staysUntilSeen() {
        AssumedPods.Assumed a = assume("a");

        assertTrue(prune(T0.plusSeconds(1)).isEmpty());
        assertTrue(assumed.isAssumed(a.key(), a.uid()));
    }

    @Test
    @DisplayName("an assumption ends when the view shows the pod bound")
    void endsWhenConfirmed() {
        AssumedPods.Assumed a = assume("a");
        Pod p = view.get(a.key());
        view.put(a.key(), Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setNodeName("node-1").build()).build());
        assumed.changed(a.key());

        assertTrue(prune(T0.plusSeconds(1)).isEmpty());
        assertFalse(assumed.contains(a.key()));
    }

    @Test
    @DisplayName("an assumption ends when the pod is deleted or replaced by one with another uid")
    void endsWhenGoneOrReplaced() {
        AssumedPods.Assumed gone = assume("gone");
        AssumedPods.Assumed replaced = assume("replaced");
        view.remove(gone.key());
        Pod p = view.get(replaced.key());
        view.put(replaced.key(), Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setUid("other").build()).build());
        assumed.changed(gone.key());
        assumed.changed(replaced.key());

        prune(T0.plusSeconds(1));

        assertEquals(0, assumed.size());
    }

    @Test
    @DisplayName("an assumption the view never confirms expires and its pod is handed back")
    void expires() {
        AssumedPods.Assumed a = assume("a");

        assertEquals(List.of(a), prune(T0.plusSeconds(31)));
        assertFalse(assumed.contains(a.key()));
    }

    @Test
    @DisplayName("a binding the view showed before the assumption was made settles it at the next prune")
    void boundBeforeAssumed() {
        Pod p = pod("early", "100m");
        String key = "Pod/default/early";
        view.put(key, Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setNodeName("node-1").build()).build());
        assumed.changed(key);
        assumed.assume(new AssumedPods.Assumed(key, p.getMetadata().getUid(), "node-1", PodInfo.of(p), T0));

        assertTrue(prune(T0.plusSeconds(1)).isEmpty());
        assertFalse(assumed.contains(key));
    }

    @Test
    @DisplayName("an assumption the view settled without saying so is dropped at its expiry, not handed back")
    void settledUnreportedIsNotExpired() {
        AssumedPods.Assumed a = assume("quiet");
        view.remove(a.key());

        assertTrue(prune(T0.plusSeconds(1)).isEmpty());
        assertTrue(assumed.contains(a.key()));
        assertTrue(prune(T0.plusSeconds(31)).isEmpty());
        assertFalse(assumed.contains(a.key()));
    }
}
