package io.eventplane.nodesim;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which node-sim instance simulates which node, as a pure decision. Every instance of a group is configured with the
 * same nodes and holds a membership Lease; the live members are those whose Lease this instance has seen renewed
 * within its duration (judged from when it observed the Lease's current version, by its own clock, as the node
 * lifecycle controller and leader election do, so clock skew does not matter). A member is declared gone only once
 * one of this instance's own renewals, written after the member's deadline, has come through the log: under a
 * backlog (thousands of nodes registering) every renewal is late, and nobody is declared gone for that.
 *
 * <p>Assignment: rendezvous (highest-random-weight) hashing with a load bound. Each node ranks the members by a hash
 * of (node, member); taking the nodes in name order, each goes to its highest-ranked member that holds fewer than
 * ceil(nodes / members). So two members split six nodes three and three, every member computes the same answer from
 * the same membership, and a member joining or leaving moves mostly its own share (the bound may move a few more).
 *
 * <p>Handover: an instance stops a node as soon as its membership says it lost it. It starts a node it gained only
 * once no other live member still claims it: each member writes on its Lease the membership it acts on
 * ({@link Member#acknowledged()}), after it has stopped the nodes that membership takes from it. A member whose
 * Lease expired claims nothing. So two instances do not heartbeat the same node, except while their views of the log
 * differ by a moment.
 */
public final class NodeSharding {

    /**
     * A member as this instance observes it.
     *
     * @param id              the instance's identity
     * @param observedAt      when this instance first saw the current version of the member's Lease
     * @param durationSeconds the Lease's duration
     * @param acknowledged    the live members the member last wrote it acts on (empty: unknown, it may claim anything)
     */
    public record Member(String id, Instant observedAt, int durationSeconds, Set<String> acknowledged) {
        public Member {
            acknowledged = Set.copyOf(acknowledged);
        }

        /**
         * Live unless its duration has passed since it was observed and one of {@code me}'s own renewals, written
         * after that deadline, has come through the log: when the log lags, everyone's renewals are late alike.
         */
        boolean liveAt(Instant now, Instant ownVisibleRenewal) {
            Instant deadline = observedAt.plusSeconds(durationSeconds);
            return deadline.isAfter(now) || ownVisibleRenewal == null || !ownVisibleRenewal.isAfter(deadline);
        }
    }

    /** What this instance does now: the membership it acts on, the nodes to start and to stop. */
    public record Decision(Set<String> live, Set<String> start, Set<String> stop, Set<String> waiting) {
    }

    private NodeSharding() {
    }

    /**
     * The live members: {@code me} and every member whose Lease has not expired at {@code now}. Sorted.
     *
     * @param ownVisibleRenewal the renewTime of {@code me}'s own Lease as the log shows it (written by its own clock),
     *                          null if not visible yet
     */
    public static Set<String> live(String me, Collection<Member> members, Instant now, Instant ownVisibleRenewal) {
        Set<String> live = new TreeSet<>();
        live.add(me);
        for (Member m : members) {
            if (m.liveAt(now, ownVisibleRenewal)) {
                live.add(m.id());
            }
        }
        return live;
    }

    /** Node name to member, for the given members (at least one). The same inputs in any order give the same answer. */
    public static Map<String, String> assign(Collection<String> members, Collection<String> nodes) {
        List<String> ms = new ArrayList<>(new TreeSet<>(members));
        if (ms.isEmpty()) {
            throw new IllegalArgumentException("no members to assign nodes to");
        }
        List<String> ordered = new ArrayList<>(new TreeSet<>(nodes));
        int bound = (ordered.size() + ms.size() - 1) / ms.size();
        Map<String, Integer> load = new HashMap<>();
        Map<String, String> out = new TreeMap<>();
        for (String node : ordered) {
            List<String> ranked = new ArrayList<>(ms);
            ranked.sort(Comparator.comparingLong((String m) -> weight(node, m)).reversed()
                    .thenComparing(Comparator.naturalOrder()));
            for (String m : ranked) {
                if (load.getOrDefault(m, 0) < bound) {
                    load.merge(m, 1, Integer::sum);
                    out.put(node, m);
                    break;
                }
            }
        }
        return out;
    }

    /** The nodes {@code me} owns among {@code nodes} when {@code members} are live. */
    public static Set<String> owned(String me, Collection<String> members, Collection<String> nodes) {
        Set<String> out = new TreeSet<>();
        assign(members, nodes).forEach((node, m) -> {
            if (m.equals(me)) {
                out.add(node);
            }
        });
        return out;
    }

    /**
     * The step for {@code me}: stop the running nodes it no longer owns, start the owned ones no other live member
     * still claims (by the membership that member acknowledged), and wait for the rest.
     *
     * @param members the other members' Leases as observed (an entry for {@code me} is ignored)
     * @param ownVisibleRenewal the renewTime of {@code me}'s Lease as the log shows it, null if not visible yet
     * @param running the nodes {@code me} simulates now
     */
    public static Decision decide(String me, Collection<Member> members, Instant now, Instant ownVisibleRenewal,
                                  Collection<String> nodes, Set<String> running) {
        Set<String> live = live(me, members, now, ownVisibleRenewal);
        Set<String> mine = owned(me, live, nodes);
        Set<String> stop = new TreeSet<>(running);
        stop.removeAll(mine);
        Map<String, Set<String>> claimed = new HashMap<>();
        for (Member m : members) {
            if (!m.id().equals(me) && live.contains(m.id())) {
                claimed.put(m.id(), m.acknowledged().isEmpty() ? new LinkedHashSet<>(nodes)
                        : owned(m.id(), union(m.acknowledged(), m.id()), nodes));
            }
        }
        Set<String> start = new TreeSet<>();
        Set<String> waiting = new TreeSet<>();
        for (String node : mine) {
            if (running.contains(node)) {
                continue;
            }
            boolean claimedByOther = claimed.values().stream().anyMatch(s -> s.contains(node));
            (claimedByOther ? waiting : start).add(node);
        }
        return new Decision(live, start, stop, waiting);
    }

    private static Set<String> union(Set<String> set, String one) {
        Set<String> out = new TreeSet<>(set);
        out.add(one);
        return out;
    }

    /** A stable 64-bit hash of (node, member): FNV-1a over both names, then the SplitMix64 finalizer. */
    static long weight(String node, String member) {
        long h = 0xcbf29ce484222325L;
        for (byte b : (node + "\u0000" + member).getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        h ^= h >>> 30;
        h *= 0xbf58476d1ce4e5b9L;
        h ^= h >>> 27;
        h *= 0x94d049bb133111ebL;
        h ^= h >>> 31;
        return h;
    }
}
