package io.eventplane.nodesim;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Lease;
import io.eventplane.model.Node;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.eventplane.nodesim.SimNodes.leaseKey;
import static io.eventplane.nodesim.SimNodes.nodeKey;

/**
 * What each simulated kubelet says about its node, as a kubelet's registration, node lease controller and node status
 * manager do: registers the Node and its Lease (or adopts them when they exist, reporting Ready again), renews the Lease
 * every {@link NodeSimSettings#leaseRenewInterval()} (one renewal in flight per node), reports the node's status every 5
 * minutes and whenever a pressure is turned on or off ({@link NodePressure}), and brings a failed node back. Only for
 * the nodes this instance simulates and that are not failed; runs on the simulator's thread.
 */
final class NodeHeartbeat {
    private static final Logger LOG = LoggerFactory.getLogger(NodeHeartbeat.class);

    private final SimNodes nodes;
    private final ObjectView view;
    private final Consumer<Command> send;
    /**
     * The writer's verdicts on Lease writes: a node renews its Lease again only once its last renewal is decided.
     */
    private final Outcomes outcomes;
    private final Map<String, EventRecorder> kubelets;
    private final NodeShape shape;
    private final Clock clock;
    private final NodeSimSettings settings;
    /** Nodes whose last Lease renewal has no verdict yet (each waits at most the Lease's duration). */
    private final Set<String> renewalsInFlight = ConcurrentHashMap.newKeySet();

    /**
     * @param send     sends a command (a failure is logged)
     * @param kubelets each node's event recorder (source kubelet, host the node), by node name
     */
    NodeHeartbeat(SimNodes nodes, ObjectView view, Consumer<Command> send, Outcomes outcomes,
                  Map<String, EventRecorder> kubelets, NodeShape shape, Clock clock, NodeSimSettings settings) {
        this.nodes = nodes;
        this.view = view;
        this.send = send;
        this.outcomes = outcomes;
        this.kubelets = kubelets;
        this.shape = shape;
        this.clock = clock;
        this.settings = settings;
    }

    /**
     * This instance takes the node over: registers or adopts it and renews its Lease at once. Answers false, and marks
     * the node failed, when its Node asks it to fail: then it is left alone.
     */
    boolean takeOver(SimNode n) {
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        if (existing.isPresent() && NodeFailure.FAILED.equals(NodeFailure.requested(existing.get()))) {
            nodes.fail(n.name());
            return false;
        }
        boolean hadLease = view.get(leaseKey(n)).isPresent();
        register(n);
        if (hadLease) {
            renewLease(n); // at once: the previous owner may have stopped renewing a while ago
        }
        return true;
    }

    /** Creates the node and its Lease, or adopts them when they exist. */
    void register(SimNode n) {
        Commands cmd = nodes.commands(n);
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        boolean reportsStatus = existing.isEmpty() || !NodeTemplates.isReady(existing.get())
                || !nodes.pressures(existing.get()).equals(NodePressure.reported(existing.get()));
        KubeletEvents.nodeStarting(n.name(), reportsStatus).forEach(kubelets.get(n.name())::record);
        if (existing.isEmpty()) {
            Node node = NodeTemplates.node(n, shape, nodes.configured(n.name()), clock.instant());
            // a node added at run time registers again as one: a restarted node-sim still finds it
            send.accept(cmd.create(nodes.isConfigured(n) ? node : NodeRoster.annotated(node, settings.namePrefix())));
            LOG.debug("node-sim: {} registering", n.name());
        } else if (reportsStatus) {
            send.accept(cmd.updateStatus(NodeTemplates.withFreshStatus(existing.get(), n, shape,
                    nodes.pressures(existing.get()), clock.instant())));
            LOG.debug("node-sim: {} adopted, reporting Ready again", n.name());
        }
        if (view.get(leaseKey(n)).isEmpty()) {
            String uid = existing.map(node -> node.getMetadata().getUid()).orElse(null);
            send.accept(cmd.create(NodeTemplates.lease(n.name(), uid, settings.leaseDurationSeconds(), clock.instant())));
        }
    }

    /**
     * A failed node comes back: it reports Ready and renews its Lease. Answers false when its Node is gone, and it was
     * registered again instead.
     */
    boolean recover(SimNode n) {
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        if (existing.isEmpty()) {
            register(n);
            return false;
        }
        send.accept(nodes.commands(n).updateStatus(NodeTemplates.withFreshStatus(existing.get(), n, shape,
                nodes.pressures(existing.get()), clock.instant())));
        renewLease(n);
        return true;
    }

    // ---- the node's Lease

    /**
     * One UPDATE per node with the Lease's current resourceVersion, all handed to the producer in one burst. As the
     * kubelet's lease controller (one request at a time), a node whose previous renewal has no verdict yet skips this
     * round, up to the Lease's duration: under a writer backlog a renewal queued behind another one would only be
     * rejected as a conflict once the first one is decided, and thousands of them deepen the backlog they wait in.
     */
    void renewLeases() {
        int renewed = 0;
        int waiting = 0;
        for (SimNode n : nodes.all()) {
            if (!nodes.owns(n.name()) || nodes.isFailed(n.name())) {
                continue;
            }
            if (renewalsInFlight.contains(n.name())) {
                waiting++;
                continue;
            }
            Optional<ObjectChanged> lease = view.get(leaseKey(n));
            Commands cmd = nodes.commands(n);
            if (lease.isEmpty()) {
                String uid = view.get(nodeKey(n)).map(c -> c.getUid()).orElse(null);
                send.accept(cmd.create(NodeTemplates.lease(n.name(), uid, settings.leaseDurationSeconds(), clock.instant())));
            } else {
                Command renewal = cmd.update(NodeTemplates.renewed((Lease) lease.get().getObject(), n.name(),
                        settings.leaseDurationSeconds(), clock.instant()));
                String id = renewal.getEnvelope().getRequestId();
                renewalsInFlight.add(n.name());
                outcomes.await(id).orTimeout(settings.leaseDurationSeconds(), TimeUnit.SECONDS)
                        .whenComplete((o, e) -> {
                            if (e != null) {
                                outcomes.forget(id);
                            }
                            renewalsInFlight.remove(n.name());
                        });
                send.accept(renewal);
                renewed++;
            }
        }
        LOG.debug("node-sim: renewed {} lease(s); {} still waiting for the verdict on their last renewal", renewed, waiting);
    }

    private void renewLease(SimNode n) {
        Optional<ObjectChanged> lease = view.get(leaseKey(n));
        Commands cmd = nodes.commands(n);
        if (lease.isEmpty()) {
            String uid = view.get(nodeKey(n)).map(c -> c.getUid()).orElse(null);
            send.accept(cmd.create(NodeTemplates.lease(n.name(), uid, settings.leaseDurationSeconds(), clock.instant())));
        } else {
            send.accept(cmd.update(NodeTemplates.renewed((Lease) lease.get().getObject(), n.name(),
                    settings.leaseDurationSeconds(), clock.instant())));
        }
    }

    // ---- the node's status

    /** Every 5 minutes a kubelet reports its node's status even when nothing changed (the conditions' heartbeats). */
    void reportNodeStatus() {
        for (SimNode n : nodes.all()) {
            if (nodes.owns(n.name()) && !nodes.isFailed(n.name())) {
                view.get(nodeKey(n)).ifPresent(c -> send.accept(nodes.commands(n).updateStatus(
                        NodeTemplates.withFreshStatus((Node) c.getObject(), n, shape, nodes.pressures((Node) c.getObject()),
                                clock.instant()))));
            }
        }
    }

    /** A pressure was turned on or off: the kubelet reports its node's conditions and records the change. */
    void reportPressure(SimNode n) {
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        if (existing.isEmpty() || !nodes.owns(n.name()) || nodes.isFailed(n.name())) {
            return;
        }
        Set<NodePressure.Kind> wanted = nodes.pressures(existing.get());
        Set<NodePressure.Kind> reported = NodePressure.reported(existing.get());
        if (wanted.equals(reported)) {
            return;
        }
        for (NodePressure.Kind k : NodePressure.Kind.values()) {
            if (wanted.contains(k) != reported.contains(k)) {
                String reason = k.event(wanted.contains(k));
                kubelets.get(n.name()).record(EventNotice.normal(ObjectReferences.node(n.name()),
                        reason, "Node " + n.name() + " status is now: " + reason));
            }
        }
        LOG.info("node-sim: {} reports pressure {}", n.name(), wanted);
        send.accept(nodes.commands(n).updateStatus(NodeTemplates.withFreshStatus(existing.get(), n, shape, wanted,
                clock.instant())));
    }
}
