package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class NodeShardingTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static List<String> nodes(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            out.add("node-" + i);
        }
        return out;
    }

    private static Map<String, Integer> loads(Map<String, String> assignment) {
        Map<String, Integer> out = new HashMap<>();
        assignment.values().forEach(m -> out.merge(m, 1, Integer::sum));
        return out;
    }

    private static NodeSharding.Member member(String id, Instant seen, String... ack) {
        return new NodeSharding.Member(id, seen, 15, Set.of(ack));
    }

    @Test
    @DisplayName("two members split six nodes three and three; one member takes all")
    void twoMembersSplitEvenly() {
        Map<String, String> a = NodeSharding.assign(Set.of("sim-a", "sim-b"), nodes(6));
        assertEquals(6, a.size());
        assertEquals(Map.of("sim-a", 3, "sim-b", 3), loads(a));
        assertEquals(new TreeSet<>(nodes(6)), NodeSharding.owned("solo", Set.of("solo"), nodes(6)));
    }

    @Test
    @DisplayName("every member computes the same assignment, whatever the order of members and nodes")
    void deterministic() {
        List<String> ns = nodes(50);
        List<String> shuffled = new ArrayList<>(ns);
        Collections.reverse(shuffled);
        assertEquals(NodeSharding.assign(List.of("a", "b", "c"), ns), NodeSharding.assign(List.of("c", "a", "b"), shuffled));
    }

    @Test
    @DisplayName("no member holds more than ceil(nodes / members)")
    void loadBound() {
        for (int members = 1; members <= 7; members++) {
            List<String> ms = new ArrayList<>();
            for (int i = 0; i < members; i++) {
                ms.add("m" + i);
            }
            for (int n : new int[] {1, 5, 6, 100, 1000}) {
                Map<String, String> a = NodeSharding.assign(ms, nodes(n));
                assertEquals(n, a.size());
                int bound = (n + members - 1) / members;
                for (int load : loads(a).values()) {
                    assertTrue(load <= bound, members + " members, " + n + " nodes: a load of " + load);
                }
            }
        }
    }

    @Test
    @DisplayName("a member leaving moves its own nodes and only a few of the others'")
    void leavingMovesMostlyItsShare() {
        List<String> ns = nodes(1000);
        Map<String, String> before = NodeSharding.assign(List.of("a", "b", "c", "d"), ns);
        Map<String, String> after = NodeSharding.assign(List.of("a", "b", "c"), ns);
        int movedOthers = 0;
        for (String n : ns) {
            if (!before.get(n).equals("d") && !before.get(n).equals(after.get(n))) {
                movedOthers++;
            }
            if (before.get(n).equals("d")) {
                assertTrue(Set.of("a", "b", "c").contains(after.get(n)));
            }
        }
        assertTrue(movedOthers < 100, movedOthers + " of the survivors' 750 nodes moved");
    }

    @Test
    @DisplayName("alone, an instance starts every node at once")
    void aloneStartsAll() {
        NodeSharding.Decision d = NodeSharding.decide("a", List.of(), T0, T0, nodes(4), Set.of());
        assertEquals(Set.of("a"), d.live());
        assertEquals(new TreeSet<>(nodes(4)), d.start());
        assertTrue(d.stop().isEmpty() && d.waiting().isEmpty());
    }

    @Test
    @DisplayName("a joining instance waits until the holder acknowledged the new membership, which stops the holder's share")
    void joinWaitsForAcknowledgement() {
        Set<String> all = new TreeSet<>(nodes(6));
        Set<String> bShare = NodeSharding.owned("b", Set.of("a", "b"), all);

        // b joins while a still acts on {a}: b waits for all of its share
        NodeSharding.Decision joining = NodeSharding.decide("b", List.of(member("a", T0, "a")), T0, null, all, Set.of());
        assertEquals(Set.of("a", "b"), joining.live());
        assertTrue(joining.start().isEmpty());
        assertEquals(bShare, joining.waiting());

        // a sees b's Lease: it stops b's share (and then writes {a, b} on its Lease)
        NodeSharding.Decision holder = NodeSharding.decide("a", List.of(member("b", T0, "a", "b")), T0, T0, all, all);
        assertEquals(bShare, holder.stop());
        assertTrue(holder.start().isEmpty());

        // b sees a's acknowledgement: it starts its share
        NodeSharding.Decision after = NodeSharding.decide("b", List.of(member("a", T0.plusSeconds(1), "a", "b")),
                T0.plusSeconds(1), T0.plusSeconds(1), all, Set.of());
        assertEquals(bShare, after.start());
        assertTrue(after.waiting().isEmpty());
    }

    @Test
    @DisplayName("a member whose Lease expired claims nothing: the survivor takes its nodes over at once")
    void expiredMemberIsTakenOver() {
        Set<String> all = new TreeSet<>(nodes(6));
        Set<String> aShare = NodeSharding.owned("a", Set.of("a", "b"), all);
        NodeSharding.Member b = member("b", T0, "a", "b");

        NodeSharding.Decision before = NodeSharding.decide("a", List.of(b), T0.plusSeconds(14), T0.plusSeconds(14), all, aShare);
        assertTrue(before.start().isEmpty(), "b's Lease is valid for 15 s from when a saw it");

        NodeSharding.Decision lagging = NodeSharding.decide("a", List.of(b), T0.plusSeconds(20), T0.plusSeconds(15), all, aShare);
        assertTrue(lagging.start().isEmpty() && lagging.live().contains("b"),
                "a's own renewals written after b's deadline are not through the log yet: the log lags, b is not judged");

        NodeSharding.Decision after = NodeSharding.decide("a", List.of(b), T0.plusSeconds(16), T0.plusSeconds(16), all, aShare);
        assertEquals(Set.of("a"), after.live());
        Set<String> bShare = new TreeSet<>(all);
        bShare.removeAll(aShare);
        assertEquals(bShare, after.start());
        assertTrue(after.stop().isEmpty());
    }

    @Test
    @DisplayName("a member that has not said what it acts on may claim anything: its Lease holds the others back")
    void unknownAcknowledgementClaimsAll() {
        NodeSharding.Decision d = NodeSharding.decide("a", List.of(member("b", T0)), T0, T0, nodes(4), Set.of());
        assertTrue(d.start().isEmpty());
        assertEquals(NodeSharding.owned("a", Set.of("a", "b"), nodes(4)), d.waiting());
    }

    @Test
    @DisplayName("membership Leases: named per group, annotated with the prefix and the members, read back as members")
    void memberLeases() {
        ShardSettings s = ShardSettings.of("sim-a");
        Lease created = MemberLeases.next(null, "node-", s, Set.of("sim-b", "sim-a"), T0);
        assertEquals("node-sim.node.sim-a", created.getMetadata().getName());
        assertEquals(ShardSettings.NAMESPACE, created.getMetadata().getNamespace());
        assertEquals("sim-a,sim-b", created.getMetadata().getAnnotations().get(MemberLeases.MEMBERS_ANNOTATION));
        assertTrue(MemberLeases.inGroup(created, "node-"));
        assertTrue(!MemberLeases.inGroup(created, "bench-"));
        NodeSharding.Member m = MemberLeases.member(created, T0).orElseThrow();
        assertEquals(new NodeSharding.Member("sim-a", T0, 15, Set.of("sim-a", "sim-b")), m);

        Lease renewed = MemberLeases.next(created, "node-", s, Set.of("sim-a"), T0.plusSeconds(5));
        assertEquals(T0.plusSeconds(5), renewed.getSpec().getRenewTime());
        assertEquals(T0, renewed.getSpec().getAcquireTime());
        assertEquals("sim-a", renewed.getMetadata().getAnnotations().get(MemberLeases.MEMBERS_ANNOTATION));
    }

    @Test
    @DisplayName("bad shard settings are refused with a precise message; a host name becomes a DNS label")
    void settings() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ShardSettings.of("Sim_A"));
        assertTrue(e.getMessage().contains("DNS label"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ShardSettings("a", 5, Duration.ofSeconds(5)));
        assertEquals("node-sim-7d9f-x2", ShardSettings.hostLabel("Node-Sim-7d9f-x2.cluster.local"));
        assertEquals("node-sim", ShardSettings.hostLabel(""));
    }
}
