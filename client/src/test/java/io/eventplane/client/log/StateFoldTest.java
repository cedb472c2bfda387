package io.eventplane.client.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StateFoldTest {
    private static ObjectChanged change(String name, long rv, ChangeType type, String label) {
        Namespace ns = Namespace.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name)
                .setResourceVersion(Long.toString(rv)).setLabels(Map.of("v", label)).build()).build();
        return ObjectChanged.newBuilder()
                .setEnvelope(Envelope.newBuilder().setActor("t").setRequestId("r" + rv)
                        .setTime(Instant.parse("2026-11-21T10:00:00Z").plusSeconds(rv)).build())
                .setType(type).setKind("Namespace").setNamespace("").setName(name).setUid("u-" + name)
                .setResourceVersion(rv).setObject(ns).build();
    }

    private static List<ObjectChanged> history() {
        List<ObjectChanged> log = new ArrayList<>();
        log.add(change("a", 1, ChangeType.CREATED, "1"));
        log.add(change("b", 2, ChangeType.CREATED, "1"));
        log.add(change("a", 3, ChangeType.UPDATED, "2"));
        log.add(change("c", 4, ChangeType.CREATED, "1"));
        log.add(change("b", 5, ChangeType.DELETED, "1"));
        log.add(change("c", 6, ChangeType.UPDATED, "3"));
        return log;
    }

    private static final LogCodec CODEC = new LogCodec(new io.eventplane.client.EventplaneConfig("unused:9092",
            "mock://state-fold-test"));

    private static StateFold fold(List<ObjectChanged> log, int from, int to, StateFold into) {
        for (int i = from; i < to; i++) {
            into.apply(CODEC.of(log.get(i)), 0, i);
        }
        return into;
    }

    @Test
    @DisplayName("the same log folded twice gives the same state and digest; a deletion removes the object")
    void deterministic() {
        StateFold one = fold(history(), 0, 6, new StateFold(1));
        StateFold two = fold(history(), 0, 6, new StateFold(1));
        assertEquals(one.digest(), two.digest());
        assertEquals(2, one.size());
        assertEquals("2", one.get("Namespace//a").getObject() instanceof Namespace n ? n.getMetadata().getLabels().get("v") : "");
        assertEquals(6, one.positions()[0]);
        assertEquals(6, one.nextOffsets()[0]);
        assertEquals(Instant.parse("2026-11-21T10:00:06Z"), one.latestTime());
    }

    @Test
    @DisplayName("a fold continued from a snapshot of a prefix equals the fold of the whole log, re-read changes are skipped")
    void continuedFromSnapshot() {
        List<ObjectChanged> log = history();
        StateFold prefix = fold(log, 0, 3, new StateFold(1));
        StateFold resumed = new StateFold(prefix.raw(), prefix.positions(), prefix.nextOffsets(),
                prefix.latestTime());
        fold(log, 1, 6, resumed); // overlaps: changes 1 and 2 again
        assertEquals(fold(log, 0, 6, new StateFold(1)).digest(), resumed.digest());
        assertEquals(3, resumed.applied());
    }

    @Test
    @DisplayName("a fold's digest equals a digest over the decoded objects (the live view's)")
    void rawDigestEqualsDecodedDigest() {
        StateFold fold = fold(history(), 0, 6, new StateFold(1));
        List<ObjectChanged> decoded = new ArrayList<>();
        fold.raw().forEach(r -> decoded.add(r.decode()));
        assertEquals(StateDigest.of(decoded), fold.digest());
        assertEquals(0, CODEC.reencoded());
    }

    @Test
    @DisplayName("the digest does not depend on the order a map was written in (a decoded map iterates in hash order)")
    void digestIgnoresMapOrder() {
        List<String> keys = List.of("provider", "component", "zz", "a", "tier", "app");
        Map<String, String> forward = new LinkedHashMap<>();
        Map<String, String> backward = new LinkedHashMap<>();
        for (int i = 0; i < keys.size(); i++) {
            forward.put(keys.get(i), "v");
            backward.put(keys.get(keys.size() - 1 - i), "v");
        }
        ObjectChanged one = withLabels(change("a", 1, ChangeType.CREATED, "1"), forward);
        ObjectChanged two = withLabels(change("a", 1, ChangeType.CREATED, "1"), backward);
        String digest = fold(List.of(one), 0, 1, new StateFold(1)).digest();
        assertEquals(digest, fold(List.of(two), 0, 1, new StateFold(1)).digest());
        assertEquals(digest, StateDigest.of(List.of(one)));
        assertEquals(digest, StateDigest.of(List.of(two)));
    }

    private static ObjectChanged withLabels(ObjectChanged change, Map<String, String> labels) {
        Namespace ns = (Namespace) change.getObject();
        ns.getMetadata().setLabels(labels);
        return change;
    }

    @Test
    @DisplayName("the digest sees every difference: content, version, presence")
    void digestSeesDifferences() {
        List<ObjectChanged> log = history();
        String all = fold(log, 0, 6, new StateFold(1)).digest();
        assertNotEquals(all, fold(log, 0, 5, new StateFold(1)).digest());
        List<ObjectChanged> other = new ArrayList<>(log);
        other.set(5, change("c", 6, ChangeType.UPDATED, "4"));
        assertNotEquals(all, fold(other, 0, 6, new StateFold(1)).digest());
    }
}
