package io.eventplane.nodesim;

import io.eventplane.client.ServiceIdentities;
import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Lease;
import io.eventplane.model.ObjectMeta;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's place in its group of node-sim instances (the same node prefix), and so which nodes it simulates:
 * reads the group's membership Leases ({@link MemberLeases}), decides with {@link NodeSharding#decide}, stops the nodes
 * it lost and starts the nodes it gained, and writes its own Lease with the membership it acts on. The Lease is renewed
 * on a thread of its own and sent on a producer of its own, so a busy simulator thread or a backlog of node commands
 * does not make this instance look gone. A clean stop deletes the Lease ({@link #release}), so the others take the
 * nodes over at once.
 */
final class NodeMembership {
    private static final Logger LOG = LoggerFactory.getLogger(NodeMembership.class);

    /** When this instance first saw a membership Lease at this resourceVersion (its expiry is judged from then). */
    private record Observed(String resourceVersion, Instant at) {
    }

    private final SimNodes nodes;
    private final ObjectView view;
    /** Sends the membership Lease's writes on a producer of its own, not queued behind thousands of node commands. */
    private final CommandSender memberSender;
    /** The writer's verdicts on membership writes: a rejected or late renewal is logged. */
    private final Outcomes outcomes;
    private final ShardSettings shard;
    private final String prefix;
    private final Clock clock;
    /** Whether the simulator runs (started and not closed): nothing is decided or written otherwise. */
    private final BooleanSupplier running;
    private final Consumer<String> startSimulating;
    private final Consumer<String> stopSimulating;
    private final Map<String, Observed> membersSeen = new HashMap<>();
    /** The membership last written on this instance's Lease (also renewed from the membership thread). */
    private volatile Set<String> acknowledged = Set.of();
    private volatile Set<String> membership = Set.of();
    /** This instance's Lease shows the membership it acts on, and no owned node waits for another to let go. */
    private volatile boolean settled;
    /** Renews the membership Lease on its own thread, so a busy simulator thread does not make it look gone. */
    private ScheduledExecutorService renewer;

    /**
     * @param prefix          the node prefix: the group
     * @param startSimulating takes a node over (on the simulator's thread)
     * @param stopSimulating  lets a node go to another instance (on the simulator's thread)
     */
    NodeMembership(SimNodes nodes, ObjectView view, CommandSender memberSender, Outcomes outcomes, ShardSettings shard,
                   String prefix, Clock clock, BooleanSupplier running, Consumer<String> startSimulating,
                   Consumer<String> stopSimulating) {
        this.nodes = nodes;
        this.view = view;
        this.memberSender = memberSender;
        this.outcomes = outcomes;
        this.shard = shard;
        this.prefix = prefix;
        this.clock = clock;
        this.running = running;
        this.startSimulating = startSimulating;
        this.stopSimulating = stopSimulating;
    }

    /** The live members of the group this instance acts on, itself included. */
    Set<String> members() {
        return membership;
    }

    /** This instance's Lease shows the membership it acts on, and no owned node waits for another instance to let go. */
    boolean settled() {
        return settled;
    }

    /**
     * Reads the group's membership Leases, decides ({@link NodeSharding#decide}), stops the nodes lost, writes this
     * instance's Lease (when {@code renew}, or when the membership it acts on changed) and starts the nodes gained.
     * On the simulator's thread.
     */
    void rebalance(boolean renew) {
        if (!running.getAsBoolean()) {
            return;
        }
        Instant now = clock.instant();
        String me = shard.instanceId();
        String ownName = MemberLeases.name(prefix, me);
        List<NodeSharding.Member> others = new ArrayList<>();
        Lease own = null;
        Set<String> seen = new HashSet<>();
        for (ObjectChanged c : view.list(Kinds.LEASE.kind(), ShardSettings.NAMESPACE)) {
            Lease lease = (Lease) c.getObject();
            if (!MemberLeases.inGroup(lease, prefix)) {
                continue;
            }
            String key = Keys.of(c.getKind(), c.getNamespace(), c.getName());
            seen.add(key);
            if (ownName.equals(c.getName())) {
                own = lease;
                continue;
            }
            String rv = lease.getMetadata().getResourceVersion();
            Observed o = membersSeen.get(key);
            if (o == null || !o.resourceVersion().equals(rv)) {
                o = new Observed(rv, now);
                membersSeen.put(key, o);
            }
            MemberLeases.member(lease, o.at()).filter(m -> !m.id().equals(me)).ifPresent(others::add);
        }
        membersSeen.keySet().retainAll(seen);
        Instant ownRenewal = own == null || own.getSpec() == null ? null : own.getSpec().getRenewTime();
        NodeSharding.Decision d = NodeSharding.decide(me, others, now, ownRenewal, nodes.names(), Set.copyOf(nodes.owned()));
        for (NodeSharding.Member m : others) {
            if (membership.contains(m.id()) && !d.live().contains(m.id())) {
                LOG.info("node-sim {}: {} is gone: its Lease has not changed since {} (seen then), and this instance's "
                        + "renewal of {} is through the log", me, m.id(), m.observedAt(), ownRenewal);
            }
        }
        d.stop().forEach(stopSimulating);
        if (renew || !d.live().equals(acknowledged)) {
            if (!d.live().equals(acknowledged)) {
                LOG.info("node-sim {}: members {}", me, d.live());
            }
            acknowledged = d.live();
            writeMembership(own, now);
        }
        boolean starting = own != null;
        if (starting) {
            // not before this instance's own Lease is through the log: of two instances starting together, the later
            // one then sees the earlier one and waits for it, instead of both taking every node
            d.start().forEach(startSimulating);
        }
        membership = d.live();
        settled = own != null && d.waiting().isEmpty() && MemberLeases.member(own, now)
                .map(m -> m.acknowledged().equals(d.live())).orElse(false);
        if ((starting && !d.start().isEmpty()) || !d.stop().isEmpty()) {
            LOG.info("node-sim {}: simulating {} node(s): started {}, stopped {}, waiting for {}", me, nodes.owned().size(),
                    d.start().size(), d.stop().size(), d.waiting().size());
        }
    }

    /** Renews this instance's Lease every {@link ShardSettings#renewInterval()} from a thread of its own. */
    void startRenewing() {
        long every = shard.renewInterval().toMillis();
        renewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "node-sim-" + prefix + "-membership");
            t.setDaemon(true);
            return t;
        });
        renewer.scheduleAtFixedRate(() -> NodeSimulator.safely(this::renewMembership), every, every, TimeUnit.MILLISECONDS);
    }

    void stopRenewing() {
        if (renewer != null) {
            renewer.shutdownNow();
        }
    }

    /** The periodic renewal of this instance's membership Lease, with the membership it acts on. */
    private void renewMembership() {
        if (!running.getAsBoolean() || acknowledged.isEmpty()) {
            return;
        }
        Lease own = view.get(ownLeaseKey()).map(c -> (Lease) c.getObject()).orElse(null);
        writeMembership(own, clock.instant());
    }

    /**
     * Writes this instance's Lease with the membership it acts on: always an unconditional UPDATE, which creates the
     * Lease when it is missing (as kube-apiserver allows for Leases). Whether this instance's view shows its Lease yet
     * does not matter: a renewal sent while its first write is still behind a backlog renews instead of failing as a
     * second CREATE would. Serialized, so the last write carries the latest membership.
     */
    private synchronized void writeMembership(Lease own, Instant now) {
        Commands cmd = new Commands(ServiceIdentities.nodeSim(), clock);
        Lease next = MemberLeases.next(own, prefix, shard, acknowledged, now);
        next = Lease.newBuilder(next).setMetadata(ObjectMeta.newBuilder(next.getMetadata()).setResourceVersion(null)
                .build()).build();
        Command command = cmd.update(next);
        String id = command.getEnvelope().getRequestId();
        // a failure is logged and the next renewal tries again (a send failure once ended node-sim's start)
        CompletableFuture<CommandOutcome> verdict = outcomes.await(id);
        verdict.orTimeout(shard.leaseDurationSeconds(), TimeUnit.SECONDS).whenComplete((o, e) -> {
            if (e != null) {
                outcomes.forget(id);
                LOG.warn("node-sim {}: no verdict on membership {} {} within the lease duration: {}", shard.instanceId(),
                        command.getVerb(), command.getName(), e.toString());
            } else if (!o.getAccepted()) {
                LOG.warn("node-sim {}: membership {} {} rejected: {} {}", shard.instanceId(), command.getVerb(),
                        command.getName(), o.getReason(), o.getMessage());
            }
        });
        memberSender.send(command).whenComplete((md, e) -> {
            if (e != null) {
                verdict.completeExceptionally(e);
            }
        });
    }

    /** A clean stop deletes this instance's Lease, so the other instances take its nodes over at once. */
    void release() {
        view.get(ownLeaseKey()).ifPresent(c -> memberSender.send(new Commands(ServiceIdentities.nodeSim(), clock)
                .delete(Kinds.LEASE, ShardSettings.NAMESPACE, c.getName(), null, c.getUid())));
        memberSender.flush();
    }

    private String ownLeaseKey() {
        return Keys.of(Kinds.LEASE.kind(), ShardSettings.NAMESPACE, MemberLeases.name(prefix, shard.instanceId()));
    }
}
