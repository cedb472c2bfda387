package io.eventplane.nodesim;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.client.events.KafkaEventRecorder;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Lease;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodStatus;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * N simulated kubelets in one process: registers their Nodes and Leases (adopting those that already exist), renews
 * the Leases every 10 s, reports node status every 5 minutes, and runs the pods bound to them: the sandbox
 * ({@link PodLifecycle}, after {@link NodeAdmission}), then each pod's {@link PodRun}, whose statuses it sends as
 * UPDATE_STATUS and whose end it follows with a DELETE (grace 0) once a deleted pod has stopped.
 *
 * <p>Level-triggered: a change in the view only names a pod; the simulator re-reads it, advances the pod's run to now
 * and plans the next evaluation for the run's next change. Every command carries the resourceVersion it was decided
 * on; a conflict is followed by the next change, and a command that shows no effect is retried after
 * {@link NodeSimSettings#retryAfter()}. All work runs on one scheduler thread, so the simulator's own state needs no
 * locks. A Node annotated {@code sim.eventplane.io/node-state: failed} ({@link NodeFailure}) is left alone (no lease,
 * no status, no pod work) until the annotation goes.
 *
 * <p>Events, as a kubelet records them (source kubelet, host the node): the node's start when it registers
 * ({@link KubeletEvents#nodeStarting}), and what each pod's run records (Pulling, Pulled, Created, Started, BackOff,
 * Unhealthy, Killing, ...). A run rebuilt after a restart of node-sim records nothing of what happened before.
 */
public final class NodeSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSimulator.class);
    private static final int MAX_ATTEMPTS = 5;
    private static final Duration NODE_STATUS_EVERY = Duration.ofMinutes(5);

    private record Planned(Instant at, ScheduledFuture<?> task) {
    }

    /** When this instance first saw a membership Lease at this resourceVersion (its expiry is judged from then). */
    private record Observed(String resourceVersion, Instant at) {
    }

    /** A command sent for a pod at this resourceVersion, not yet visible in the view. */
    private record Sent(String resourceVersion, int attempts) {
    }

    private final EventplaneConfig config;
    private final NodeShape shape;
    private final Clock clock;
    private final NodeSimSettings settings;
    private final Map<String, SimNode> nodes = new LinkedHashMap<>();
    private final Map<String, Commands> commands = new HashMap<>();
    private KubeletConfig kubelet;
    /** What runs in each pod's containers, by pod uid. */
    private final Map<String, PodRun> runs = new HashMap<>();
    /** Pods whose sandbox this process created: their history is recorded from the start. */
    private final Set<String> started = new HashSet<>();
    /** Nodes told to fail: no lease renewal, no status, no pod work. */
    private final Set<String> failed = ConcurrentHashMap.newKeySet();
    private final AtomicLong transitions = new AtomicLong();
    private final PodIpAllocator addresses = new PodIpAllocator();
    private final Map<String, Planned> planned = new HashMap<>();
    private final Map<String, Sent> sent = new HashMap<>();
    private final Map<String, EventRecorder> kubelets = new HashMap<>();
    /** Normalized images on each node. */
    private final Map<String, Set<String>> images = new HashMap<>();
    private KafkaEventRecorder recorder;
    private ScheduledExecutorService executor;
    private ObjectView view;
    private CommandSender sender;
    private volatile boolean active;
    private volatile boolean closed;
    private ShardSettings shard;
    /** The nodes this instance simulates now ({@link NodeSharding}); the others belong to other instances. */
    private final Set<String> owned = ConcurrentHashMap.newKeySet();
    private final Map<String, Observed> membersSeen = new HashMap<>();
    /** The membership last written on this instance's Lease (also renewed from the membership thread). */
    private volatile Set<String> acknowledged = Set.of();
    /** Renews the membership Lease on its own thread, so a busy simulator thread does not make it look gone. */
    private ScheduledExecutorService membershipRenewer;
    /** Sends the membership Lease's writes on a producer of its own, not queued behind thousands of node commands. */
    private CommandSender memberSender;
    /**
     * The writer's verdicts on Lease writes: a rejected or late membership renewal is logged, and a node renews its
     * Lease again only once its last renewal is decided.
     */
    private io.eventplane.client.Outcomes outcomes;
    /** Nodes whose last Lease renewal has no verdict yet (each waits at most the Lease's duration). */
    private final Set<String> renewalsInFlight = ConcurrentHashMap.newKeySet();
    private volatile Set<String> membership = Set.of();
    /** This instance's Lease shows the membership it acts on, and no owned node waits for another to let go. */
    private volatile boolean settled;
    private volatile boolean releaseOnClose = true;
    /** Pressures node-sim's configuration puts nodes under ({@code EVENTPLANE_NODESIM_PRESSURE}), by node name. */
    private final Map<String, Set<NodePressure.Kind>> configuredPressure;
    /** How often the kubelet's eviction manager looks for a pod to evict under memory pressure (a kubelet: 10 s). */
    private Duration evictionInterval = Duration.ofSeconds(10);

    public NodeSimulator(EventplaneConfig config, int nodes, NodeShape shape, Clock clock, NodeSimSettings settings) {
        if (nodes < 1) {
            throw new IllegalArgumentException("at least one node");
        }
        this.config = config;
        this.shape = shape;
        this.clock = clock;
        this.settings = settings;
        for (int i = 1; i <= nodes; i++) {
            SimNode n = SimNode.of(settings.namePrefix(), i);
            this.nodes.put(n.name(), n);
            this.commands.put(n.name(), new Commands("node-sim/" + n.name(), clock));
        }
        this.kubelet = KubeletConfig.defaults().withPull(settings.startDelayMin(), settings.startDelayMax())
                .withShutdownDefault(settings.shutdownDelay()).withSeed(settings.seed())
                .withImages(imageRulesFromEnvironment()).withStages(Stages.fromEnvironment());
        this.shard = ShardSettings.fromEnvironment();
        try {
            this.configuredPressure = NodePressure.parseConfig(EventplaneConfig.setting("EVENTPLANE_NODESIM_PRESSURE", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("EVENTPLANE_NODESIM_PRESSURE: " + e.getMessage());
        }
    }

    /** How often the eviction manager runs (before {@link #start()}); a kubelet's is 10 s. */
    public NodeSimulator withEvictionInterval(Duration interval) {
        this.evictionInterval = interval;
        return this;
    }

    /**
     * One round of the eviction manager on every node under memory pressure: the first candidate of
     * {@link PressureEviction#next} is killed at once (a hard eviction) and reported Failed, reason Evicted.
     */
    private void evictUnderPressure() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        for (String name : owned) {
            SimNode n = nodes.get(name);
            Optional<Node> node = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
            if (failed.contains(name) || node.isEmpty() || !pressures(node.get()).contains(NodePressure.Kind.MEMORY)) {
                continue;
            }
            List<Pod> running = new ArrayList<>();
            for (ObjectChanged c : podsBoundTo(name)) {
                Pod p = (Pod) c.getObject();
                String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
                if (PodLifecycle.hasSandbox(p) && p.getMetadata().getDeletionTimestamp() == null
                        && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                    running.add(p);
                }
            }
            PressureEviction.next(running).ifPresent(victim -> {
                String key = Keys.of(Kinds.POD.kind(), victim.getMetadata().getNamespace(), victim.getMetadata().getName());
                EventRecorder events = kubelets.get(name);
                events.record(EventNotice.warning(io.eventplane.client.events.ObjectReferences.node(name),
                        "EvictionThresholdMet", "Attempting to reclaim memory"));
                Pod evicted = PressureEviction.evicted(victim, now);
                events.record(EventNotice.warning(io.eventplane.client.events.ObjectReferences.of(victim), "Evicted",
                        evicted.getStatus().getMessage()));
                LOG.info("node-sim: {} evicts {} under memory pressure", name, key);
                cancel(key);
                runs.remove(victim.getMetadata().getUid()); // its containers are killed: nothing more to run
                act(key, victim, n, cmdFor(n).updateStatus(evicted));
                transitions.incrementAndGet();
            });
        }
    }

    /** The pressures the node's kubelet is under: the Node's annotations and node-sim's configuration. */
    private Set<NodePressure.Kind> pressures(Node node) {
        return NodePressure.requested(node, configuredPressure.getOrDefault(node.getMetadata().getName(), Set.of()));
    }

    /** A pressure was turned on or off: the kubelet reports its node's conditions and records the change. */
    private void reportPressure(SimNode n) {
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        if (existing.isEmpty() || !owned.contains(n.name()) || failed.contains(n.name())) {
            return;
        }
        Set<NodePressure.Kind> wanted = pressures(existing.get());
        Set<NodePressure.Kind> reported = NodePressure.reported(existing.get());
        if (wanted.equals(reported)) {
            return;
        }
        for (NodePressure.Kind k : NodePressure.Kind.values()) {
            if (wanted.contains(k) != reported.contains(k)) {
                String reason = k.event(wanted.contains(k));
                kubelets.get(n.name()).record(EventNotice.normal(io.eventplane.client.events.ObjectReferences.node(n.name()),
                        reason, "Node " + n.name() + " status is now: " + reason));
            }
        }
        LOG.info("node-sim: {} reports pressure {}", n.name(), wanted);
        send(commands.get(n.name()).updateStatus(NodeTemplates.withFreshStatus(existing.get(), n, shape, wanted, clock.instant())));
    }

    /** This instance's identity and membership timing among the instances of its group (before {@link #start()}). */
    public NodeSimulator withSharding(ShardSettings sharding) {
        this.shard = sharding;
        return this;
    }

    /** {@code EVENTPLANE_NODESIM_IMAGES} ({@link ImageRules#parse}), or the default rules. */
    static ImageRules imageRulesFromEnvironment() {
        String text = io.eventplane.client.EventplaneConfig.setting("EVENTPLANE_NODESIM_IMAGES", "");
        if (text == null || text.isBlank()) {
            return ImageRules.defaults();
        }
        try {
            return ImageRules.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("EVENTPLANE_NODESIM_IMAGES: " + e.getMessage());
        }
    }

    /** How the kubelets time pulls, restarts and shutdowns (before {@link #start()}). */
    public NodeSimulator withKubelet(KubeletConfig config) {
        this.kubelet = config;
        return this;
    }

    /** Pod status updates sent so far (each one a transition the kubelet reported). */
    public long statusTransitions() {
        return transitions.get();
    }

    public NodeSimulator(EventplaneConfig config, int nodes, NodeShape shape, Clock clock) {
        this(config, nodes, shape, clock, NodeSimSettings.defaults());
    }

    public NodeSimulator start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "node-sim-" + settings.namePrefix());
            t.setDaemon(true);
            return t;
        });
        sender = new CommandSender(config, "node-sim-" + settings.namePrefix());
        memberSender = CommandSender.dedicated(config, "node-sim-" + settings.namePrefix() + "-membership");
        outcomes = new io.eventplane.client.Outcomes(config, "node-sim-" + settings.namePrefix() + "-outcomes");
        view = new ObjectView(config, "node-sim-" + settings.namePrefix() + "-view");
        view.indexPodsByNode();
        view.addListener(this::onChange);
        recorder = KafkaEventRecorder.start(config, sender, view, "node-sim-" + settings.namePrefix(), clock,
                new EventOrigin("kubelet", null, "node-sim-" + settings.namePrefix()));
        for (SimNode n : nodes.values()) {
            kubelets.put(n.name(), recorder.from(EventOrigin.kubelet(n.name())));
            images.put(n.name(), new HashSet<>());
        }
        view.start();
        executor.execute(() -> {
            try {
                bootstrap();
            } catch (RuntimeException | Error e) {
                LOG.error("node-sim {}: could not start: {}", shard.instanceId(), e.toString(), e);
                throw e;
            }
        });
        return this;
    }

    /**
     * The membership is settled (this instance's Lease shows it, no node waits for another instance to let go), every
     * node this instance owns and its Lease is in the view, and the simulator is following their pods.
     */
    public boolean isReady() {
        if (!active || closed || !view.isReady() || !settled) {
            return false;
        }
        for (String name : owned) {
            SimNode n = nodes.get(name);
            if (view.get(nodeKey(n)).isEmpty() || view.get(leaseKey(n)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** The nodes this instance simulates now, by name. */
    public Set<String> ownedNodes() {
        return Set.copyOf(new java.util.TreeSet<>(owned));
    }

    /** The live members of this instance's group it acts on, itself included. */
    public Set<String> members() {
        return membership;
    }

    public String instanceId() {
        return shard.instanceId();
    }

    public List<String> nodeNames() {
        return List.copyOf(nodes.keySet());
    }

    // ---- the view's thread: only hand keys over

    private void onChange(ObjectChanged change) {
        if (!active) {
            return;
        }
        String kind = change.getKind();
        if (kind.equals(Kinds.POD.kind())) {
            Pod pod = (Pod) change.getObject();
            String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            if (node != null && nodes.containsKey(node)) {
                String key = Keys.of(kind, change.getNamespace(), change.getName());
                if (change.getType() == ChangeType.DELETED) {
                    run(() -> forget(key, change.getUid()));
                } else if (owned.contains(node)) {
                    run(() -> evaluate(key));
                }
            }
        } else if (kind.equals(Kinds.LEASE.kind()) && ShardSettings.NAMESPACE.equals(change.getNamespace())
                && change.getName().startsWith("node-sim.")) {
            run(() -> rebalance(false)); // a member joined, renewed, acknowledged or left
        } else if (kind.equals(Kinds.NODE.kind()) && change.getType() != ChangeType.DELETED
                && nodes.containsKey(change.getName())) {
            Node node = (Node) change.getObject();
            boolean fail = NodeFailure.FAILED.equals(NodeFailure.requested(node));
            SimNode n = nodes.get(change.getName());
            if (fail && failed.add(n.name())) {
                LOG.info("node-sim: {} fails: no more leases, status or pod work until it recovers", n.name());
            } else if (!fail && failed.remove(n.name())) {
                LOG.info("node-sim: {} recovers", n.name());
                run(() -> {
                    if (owned.contains(n.name())) {
                        recover(n);
                    }
                });
            } else if (!fail && owned.contains(n.name()) && !pressures(node).equals(NodePressure.reported(node))
                    && NodeTemplates.isReady(node)) {
                run(() -> reportPressure(n));
            }
        } else if (change.getType() == ChangeType.DELETED && nodes.containsKey(change.getName())
                && (kind.equals(Kinds.NODE.kind())
                || (kind.equals(Kinds.LEASE.kind()) && NodeTemplates.LEASE_NAMESPACE.equals(change.getNamespace())))) {
            SimNode n = nodes.get(change.getName());
            if (!failed.contains(n.name())) {
                run(() -> {
                    if (owned.contains(n.name())) {
                        register(n); // a kubelet registers again when its Node or Lease is removed
                    }
                });
            }
        }
    }

    private void run(Runnable task) {
        if (!closed) {
            executor.execute(() -> {
                try {
                    task.run();
                } catch (RuntimeException e) {
                    LOG.warn("node-sim: {}", e.toString(), e);
                }
            });
        }
    }

    // ---- the simulator's thread

    private void bootstrap() {
        try {
            while (!closed) {
                try {
                    view.awaitReady(Duration.ofSeconds(30));
                    break;
                } catch (TimeoutException e) {
                    LOG.info("node-sim: waiting for the view to catch up with the log");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        active = true;
        rebalance(true);
        long member = shard.renewInterval().toMillis();
        executor.scheduleAtFixedRate(() -> safely(() -> rebalance(false)), member, member, TimeUnit.MILLISECONDS);
        membershipRenewer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "node-sim-" + settings.namePrefix() + "-membership");
            t.setDaemon(true);
            return t;
        });
        membershipRenewer.scheduleAtFixedRate(() -> safely(this::renewMembership), member, member, TimeUnit.MILLISECONDS);
        long every = settings.leaseRenewInterval().toMillis();
        executor.scheduleAtFixedRate(() -> {
            try {
                renewLeases();
            } catch (RuntimeException e) {
                LOG.warn("node-sim: lease renewal failed: {}", e.toString(), e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        long eviction = evictionInterval.toMillis();
        executor.scheduleAtFixedRate(() -> safely(this::evictUnderPressure), eviction, eviction, TimeUnit.MILLISECONDS);
        long status = NODE_STATUS_EVERY.toMillis();
        executor.scheduleAtFixedRate(() -> safely(this::reportNodeStatus), status, status, TimeUnit.MILLISECONDS);
        LOG.info("node-sim {}: {} node(s) configured, {} simulated here; leases renewed every {}", shard.instanceId(),
                nodes.size(), owned.size(), settings.leaseRenewInterval());
    }

    /**
     * Reads the group's membership Leases, decides ({@link NodeSharding#decide}), stops the nodes lost, writes this
     * instance's Lease (when {@code renew}, or when the membership it acts on changed) and starts the nodes gained.
     */
    private void rebalance(boolean renew) {
        if (closed || !active) {
            return;
        }
        Instant now = clock.instant();
        String me = shard.instanceId();
        String ownName = MemberLeases.name(settings.namePrefix(), me);
        List<NodeSharding.Member> others = new ArrayList<>();
        Lease own = null;
        Set<String> seen = new HashSet<>();
        for (ObjectChanged c : view.list(Kinds.LEASE.kind(), ShardSettings.NAMESPACE)) {
            Lease lease = (Lease) c.getObject();
            if (!MemberLeases.inGroup(lease, settings.namePrefix())) {
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
        NodeSharding.Decision d = NodeSharding.decide(me, others, now, ownRenewal, nodes.keySet(), Set.copyOf(owned));
        for (NodeSharding.Member m : others) {
            if (membership.contains(m.id()) && !d.live().contains(m.id())) {
                LOG.info("node-sim {}: {} is gone: its Lease has not changed since {} (seen then), and this instance's "
                        + "renewal of {} is through the log", me, m.id(), m.observedAt(), ownRenewal);
            }
        }
        d.stop().forEach(this::stopSimulating);
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
            d.start().forEach(this::startSimulating);
        }
        membership = d.live();
        settled = own != null && d.waiting().isEmpty() && MemberLeases.member(own, now)
                .map(m -> m.acknowledged().equals(d.live())).orElse(false);
        if ((starting && !d.start().isEmpty()) || !d.stop().isEmpty()) {
            LOG.info("node-sim {}: simulating {} node(s): started {}, stopped {}, waiting for {}", me, owned.size(),
                    d.start().size(), d.stop().size(), d.waiting().size());
        }
    }

    /** The periodic renewal of this instance's membership Lease, with the membership it acts on. */
    private void renewMembership() {
        if (closed || !active || acknowledged.isEmpty()) {
            return;
        }
        Lease own = view.get(Keys.of(Kinds.LEASE.kind(), ShardSettings.NAMESPACE,
                MemberLeases.name(settings.namePrefix(), shard.instanceId()))).map(c -> (Lease) c.getObject()).orElse(null);
        writeMembership(own, clock.instant());
    }

    /**
     * Writes this instance's Lease with the membership it acts on: always an unconditional UPDATE, which creates the
     * Lease when it is missing (as kube-apiserver allows for Leases). Whether this instance's view shows its Lease yet
     * does not matter: a renewal sent while its first write is still behind a backlog renews instead of failing as a
     * second CREATE would. Serialized, so the last write carries the latest membership.
     */
    private synchronized void writeMembership(Lease own, Instant now) {
        Commands cmd = new Commands("node-sim/" + shard.instanceId(), clock);
        Lease next = MemberLeases.next(own, settings.namePrefix(), shard, acknowledged, now);
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

    /** Takes a node over: registers or adopts it, renews its Lease, and picks its pods up from their stored status. */
    private void startSimulating(String name) {
        SimNode n = nodes.get(name);
        owned.add(name);
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        if (existing.isPresent() && NodeFailure.FAILED.equals(NodeFailure.requested(existing.get()))) {
            failed.add(name);
            return;
        }
        boolean hadLease = view.get(leaseKey(n)).isPresent();
        register(n);
        if (hadLease) {
            renewLease(n); // at once: the previous owner may have stopped renewing a while ago
        }
        for (ObjectChanged c : podsBoundTo(name)) {
            Pod pod = (Pod) c.getObject();
            String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
            if (ip != null && !Boolean.TRUE.equals(pod.getSpec().getHostNetwork())) {
                addresses.addressFor(c.getUid(), n.podSubnet(), ip); // new pods get other addresses
            }
        }
        for (ObjectChanged c : podsBoundTo(name)) {
            evaluate(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
        }
    }

    /** Lets a node go to another instance: forgets its pods' runs without touching the node or its pods. */
    private void stopSimulating(String name) {
        owned.remove(name);
        for (ObjectChanged c : podsBoundTo(name)) {
            String key = Keys.of(c.getKind(), c.getNamespace(), c.getName());
            cancel(key);
            sent.remove(key);
            runs.remove(c.getUid());
            started.remove(c.getUid());
            addresses.release(c.getUid());
        }
    }

    private List<ObjectChanged> podsBoundTo(String nodeName) {
        List<ObjectChanged> out = new ArrayList<>();
        for (ObjectChanged c : view.snapshot(ObjectView.PODS_BY_NODE, nodeName, null, x -> true).items()) {
            Pod p = (Pod) c.getObject();
            if (p.getSpec() != null && nodeName.equals(p.getSpec().getNodeName())) {
                out.add(c);
            }
        }
        return out;
    }

    /** A failed node comes back: it reports Ready, renews its Lease, and picks up its pods where they are. */
    private void recover(SimNode n) {
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        if (existing.isEmpty()) {
            register(n);
            return;
        }
        send(commands.get(n.name()).updateStatus(NodeTemplates.withFreshStatus(existing.get(), n, shape,
                pressures(existing.get()), clock.instant())));
        renewLease(n);
        for (ObjectChanged c : podsBoundTo(n.name())) {
            evaluate(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
        }
    }

    /** Every 5 minutes a kubelet reports its node's status even when nothing changed (the conditions' heartbeats). */
    private void reportNodeStatus() {
        for (SimNode n : nodes.values()) {
            if (owned.contains(n.name()) && !failed.contains(n.name())) {
                view.get(nodeKey(n)).ifPresent(c -> send(commands.get(n.name()).updateStatus(
                        NodeTemplates.withFreshStatus((Node) c.getObject(), n, shape, pressures((Node) c.getObject()),
                                clock.instant()))));
            }
        }
    }

    private void renewLease(SimNode n) {
        Optional<ObjectChanged> lease = view.get(leaseKey(n));
        Commands cmd = commands.get(n.name());
        if (lease.isEmpty()) {
            String uid = view.get(nodeKey(n)).map(c -> c.getUid()).orElse(null);
            send(cmd.create(NodeTemplates.lease(n.name(), uid, settings.leaseDurationSeconds(), clock.instant())));
        } else {
            send(cmd.update(NodeTemplates.renewed((Lease) lease.get().getObject(), n.name(),
                    settings.leaseDurationSeconds(), clock.instant())));
        }
    }

    /** Creates the node and its Lease, or adopts them when they exist. Answers whether the node existed. */
    private boolean register(SimNode n) {
        Commands cmd = commands.get(n.name());
        Optional<Node> existing = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
        boolean reportsStatus = existing.isEmpty() || !NodeTemplates.isReady(existing.get())
                || !pressures(existing.get()).equals(NodePressure.reported(existing.get()));
        KubeletEvents.nodeStarting(n.name(), reportsStatus).forEach(kubelets.get(n.name())::record);
        if (existing.isEmpty()) {
            send(cmd.create(NodeTemplates.node(n, shape, configuredPressure.getOrDefault(n.name(), Set.of()), clock.instant())));
            LOG.debug("node-sim: {} registering", n.name());
        } else if (reportsStatus) {
            send(cmd.updateStatus(NodeTemplates.withFreshStatus(existing.get(), n, shape, pressures(existing.get()),
                    clock.instant())));
            LOG.debug("node-sim: {} adopted, reporting Ready again", n.name());
        }
        if (view.get(leaseKey(n)).isEmpty()) {
            String uid = existing.map(node -> node.getMetadata().getUid()).orElse(null);
            send(cmd.create(NodeTemplates.lease(n.name(), uid, settings.leaseDurationSeconds(), clock.instant())));
        }
        return existing.isPresent();
    }

    /**
     * One UPDATE per node with the Lease's current resourceVersion, all handed to the producer in one burst. As the
     * kubelet's lease controller (one request at a time), a node whose previous renewal has no verdict yet skips this
     * round, up to the Lease's duration: under a writer backlog a renewal queued behind another one would only be
     * rejected as a conflict once the first one is decided, and thousands of them deepen the backlog they wait in.
     */
    private void renewLeases() {
        int renewed = 0;
        int waiting = 0;
        for (SimNode n : nodes.values()) {
            if (!owned.contains(n.name()) || failed.contains(n.name())) {
                continue;
            }
            if (renewalsInFlight.contains(n.name())) {
                waiting++;
                continue;
            }
            Optional<ObjectChanged> lease = view.get(leaseKey(n));
            Commands cmd = commands.get(n.name());
            if (lease.isEmpty()) {
                String uid = view.get(nodeKey(n)).map(c -> c.getUid()).orElse(null);
                send(cmd.create(NodeTemplates.lease(n.name(), uid, settings.leaseDurationSeconds(), clock.instant())));
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
                send(renewal);
                renewed++;
            }
        }
        LOG.debug("node-sim: renewed {} lease(s); {} still waiting for the verdict on their last renewal", renewed, waiting);
    }

    /**
     * Reads the pod and moves it on: the sandbox (after admission) when it has none, else its {@link PodRun} advanced to
     * now, whose status is sent when it differs from the stored one, and whose next change is planned. A deleted pod
     * whose containers all stopped and whose terminal phase is stored is removed (grace 0).
     */
    private void evaluate(String key) {
        Optional<ObjectChanged> change = view.get(key);
        if (change.isEmpty()) {
            cancel(key);
            sent.remove(key);
            return;
        }
        Pod pod = (Pod) change.get().getObject();
        SimNode node = pod.getSpec() == null ? null : nodes.get(pod.getSpec().getNodeName());
        if (node == null || failed.contains(node.name()) || !owned.contains(node.name())) {
            cancel(key);
            return;
        }
        String rv = pod.getMetadata().getResourceVersion();
        Sent pending = sent.get(key);
        if (pending != null) {
            if (pending.resourceVersion().equals(rv)) {
                return; // our command for this version is on its way; its change brings us back
            }
            sent.remove(key);
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS); // what the log keeps: a status compares equal
        String uid = pod.getMetadata().getUid();
        boolean deleting = pod.getMetadata().getDeletionTimestamp() != null;
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        boolean terminal = "Succeeded".equals(phase) || "Failed".equals(phase);
        PodRun run = runs.get(uid);
        if (run == null && !PodLifecycle.hasSandbox(pod)) {
            if (deleting) {
                removeIfAllowed(key, pod, node);
            } else if (!terminal) {
                Optional<Pod> rejected = view.get(nodeKey(node)).map(c -> pressures((Node) c.getObject()))
                        .flatMap(p -> NodePressure.reject(pod, p, now))
                        .or(() -> NodeAdmission.reject(pod, podsOn(node.name(), uid), shape, now));
                if (rejected.isPresent()) {
                    kubelets.get(node.name()).record(EventNotice.warning(io.eventplane.client.events.ObjectReferences.of(pod),
                            rejected.get().getStatus().getReason(), rejected.get().getStatus().getMessage()));
                    act(key, pod, node, cmdFor(node).updateStatus(rejected.get()));
                } else {
                    PodLifecycle.PodHost host = host(pod, node);
                    if (host.podIP() != null) { // no address left on the node: stays Pending, as with a failing CNI
                        started.add(uid);
                        act(key, pod, node, cmdFor(node).updateStatus(PodLifecycle.creating(pod, host, now)));
                        transitions.incrementAndGet();
                    }
                }
            }
            return;
        }
        if (run == null) {
            if (terminal && !deleting) {
                return; // finished before this node-sim started, or evicted
            }
            if (terminal && deleting && "Evicted".equals(pod.getStatus().getReason())) {
                removeIfAllowed(key, pod, node); // its containers were killed when it was evicted
                return;
            }
            Instant since = pod.getStatus().getStartTime() == null ? now : pod.getStatus().getStartTime();
            run = PodRun.start(pod, kubelet, images.get(node.name()), since);
            runs.put(uid, run);
            if (!started.remove(uid)) {
                run.resume(pod, now); // POD-12.12: a termination in progress starts over with its full grace period
                run.takeEvents(); // a restarted kubelet does not record again what happened before it came back
            }
        }
        run.advanceTo(pod, now);
        EventRecorder recorder = kubelets.get(node.name());
        run.takeEvents().forEach(recorder::record);
        PodStatus next = run.status(pod);
        if (!next.equals(pod.getStatus())) {
            act(key, pod, node, cmdFor(node).updateStatus(Pod.newBuilder(pod).setStatus(next).build()));
            transitions.incrementAndGet();
        } else if (deleting && run.finished()) {
            removeIfAllowed(key, pod, node);
        }
        plan(key, run.nextChangeAt().orElse(null), now);
    }

    /** The kubelet's DELETE with grace 0 once it has stopped the pod; nothing while finalizers hold a force-deleted pod. */
    private void removeIfAllowed(String key, Pod pod, SimNode node) {
        ObjectMeta meta = pod.getMetadata();
        boolean forced = meta.getDeletionGracePeriodSeconds() != null && meta.getDeletionGracePeriodSeconds() == 0;
        if (forced && meta.getFinalizers() != null && !meta.getFinalizers().isEmpty()) {
            return;
        }
        act(key, pod, node, cmdFor(node).delete(Kinds.POD, meta.getNamespace(), meta.getName(), 0L, meta.getUid()));
    }

    private void plan(String key, Instant at, Instant now) {
        Planned p = planned.get(key);
        if (p != null && p.at().equals(at)) {
            return;
        }
        cancel(key);
        if (at == null) {
            return;
        }
        long delay = Math.max(0, Duration.between(now, at).toMillis());
        planned.put(key, new Planned(at, executor.schedule(() -> {
            planned.remove(key);
            safely(() -> evaluate(key));
        }, delay, TimeUnit.MILLISECONDS)));
    }

    /** Pods on the node that hold resources (admitted, not finished), except {@code uid}. */
    private List<Pod> podsOn(String nodeName, String uid) {
        List<Pod> out = new ArrayList<>();
        for (ObjectChanged c : view.snapshot(ObjectView.PODS_BY_NODE, nodeName, null, x -> true).items()) {
            Pod p = (Pod) c.getObject();
            if (p.getSpec() != null && nodeName.equals(p.getSpec().getNodeName()) && !uid.equals(c.getUid())
                    && PodLifecycle.hasSandbox(p)) {
                String ph = p.getStatus().getPhase();
                if (!"Succeeded".equals(ph) && !"Failed".equals(ph)) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    private Commands cmdFor(SimNode node) {
        return commands.get(node.name());
    }

    private void act(String key, Pod pod, SimNode node, Command command) {
        String rv = pod.getMetadata().getResourceVersion();
        LOG.debug("node-sim: {} {} {} at resourceVersion {}", node.name(), command.getVerb(), key, rv);
        Sent before = sent.get(key);
        int attempt = before != null && (before.resourceVersion().equals(rv) || before.resourceVersion().equals("retry:" + rv))
                ? before.attempts() + 1 : 1;
        sent.put(key, new Sent(rv, attempt));
        send(command);
        executor.schedule(() -> safely(() -> recheck(key, rv)), settings.retryAfter().toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The view still shows the version our command was decided on: it was lost or rejected; decide again. */
    private void recheck(String key, String rv) {
        Sent s = sent.get(key);
        if (s == null || !s.resourceVersion().equals(rv)) {
            return;
        }
        if (s.attempts() >= MAX_ATTEMPTS) {
            LOG.warn("node-sim: {} shows no effect of {} commands at resourceVersion {}; waiting for its next change",
                    key, s.attempts(), rv);
            return;
        }
        sent.put(key, new Sent("retry:" + rv, s.attempts()));
        evaluate(key);
    }

    private PodLifecycle.PodHost host(Pod pod, SimNode node) {
        String existing = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        String ip = Boolean.TRUE.equals(pod.getSpec().getHostNetwork()) ? node.internalIP()
                : addresses.addressFor(pod.getMetadata().getUid(), node.podSubnet(), existing).orElse(null);
        return new PodLifecycle.PodHost(node.name(), node.internalIP(), ip);
    }

    private void forget(String key, String uid) {
        cancel(key);
        sent.remove(key);
        addresses.release(uid);
        runs.remove(uid);
        started.remove(uid);
        LOG.debug("node-sim: {} gone", key);
    }

    private void cancel(String key) {
        Planned p = planned.remove(key);
        if (p != null) {
            p.task().cancel(false);
        }
    }

    private void send(Command command) {
        sender.send(command).whenComplete((md, e) -> {
            if (e != null) {
                LOG.warn("node-sim: sending {} {} failed: {}", command.getVerb(), command.getName(), e.toString());
            }
        });
    }

    private static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("node-sim: {}", e.toString(), e);
        }
    }

    private static String nodeKey(SimNode n) {
        return Keys.of(Kinds.NODE.kind(), "", n.name());
    }

    private static String leaseKey(SimNode n) {
        return Keys.of(Kinds.LEASE.kind(), NodeTemplates.LEASE_NAMESPACE, n.name());
    }

    /**
     * Stops as a crashed process would: no more renewals, and the membership Lease left to expire, so the other
     * instances take its nodes over only then (tests and benchmarks).
     */
    public void crash() {
        releaseOnClose = false;
        close();
    }

    @Override
    public void close() {
        boolean wasActive = active;
        closed = true;
        active = false;
        if (membershipRenewer != null) {
            membershipRenewer.shutdownNow();
        }
        if (executor != null) {
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (wasActive && releaseOnClose && view != null && memberSender != null) {
            // a clean stop deletes the membership Lease, so the other instances take the nodes over at once
            view.get(Keys.of(Kinds.LEASE.kind(), ShardSettings.NAMESPACE, MemberLeases.name(settings.namePrefix(), shard.instanceId())))
                    .ifPresent(c -> memberSender.send(new Commands("node-sim/" + shard.instanceId(), clock)
                            .delete(Kinds.LEASE, ShardSettings.NAMESPACE, c.getName(), null, c.getUid())));
            memberSender.flush();
        }
        if (recorder != null) {
            recorder.close();
        }
        if (view != null) {
            view.close();
        }
        if (sender != null) {
            sender.close();
        }
        if (outcomes != null) {
            outcomes.close();
        }
        if (memberSender != null) {
            memberSender.close();
        }
        LOG.info("node-sim {}: stopped {} node(s)", shard.instanceId(), owned.size());
    }
}
