package io.eventplane.nodesim;

import io.eventplane.client.ServiceIdentities;
import io.eventplane.client.CommandSender;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Outcomes;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.client.events.KafkaEventRecorder;
import io.eventplane.client.usage.UsageSender;
import io.eventplane.reconcile.ControllerClients;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.eventplane.nodesim.SimNodes.leaseKey;
import static io.eventplane.nodesim.SimNodes.nodeKey;

/**
 * N simulated kubelets in one process: registers their Nodes and Leases (adopting those that already exist), renews
 * the Leases every 10 s, reports node status every 5 minutes, and runs the pods bound to them: the sandbox
 * ({@link PodLifecycle}, after {@link NodeAdmission}), then each pod's {@link PodRun}, whose statuses it sends as
 * UPDATE_STATUS and whose end it follows with a DELETE (grace 0) once a deleted pod has stopped.
 *
 * <p>This class is the process around the kubelets: it holds their configuration, creates the Kafka clients (the only
 * place that does), runs the one scheduler thread, hands the view's changes to the part they concern, and answers
 * whether it is ready. The work is in its parts: {@link NodeMembership} (which nodes this instance simulates, among the
 * instances of its group), {@link NodeHeartbeat} (each node's registration, Lease and status) and {@link KubeletLoop}
 * (the pods), sharing the nodes' state in {@link SimNodes}.
 *
 * <p>Level-triggered: a change in the view only names a pod; the simulator re-reads it, advances the pod's run to now
 * and plans the next evaluation for the run's next change. A ConfigMap or Secret that appears or changes names only
 * the pods waiting for it ({@link KubeletLoop#referenceChanged}). Every command carries the resourceVersion it was decided
 * on; a conflict is followed by the next change, and a command that shows no effect is retried after
 * {@link NodeSimSettings#retryAfter()}. All work runs on one scheduler thread, so the simulator's own state needs no
 * locks. A Node annotated {@code sim.eventplane.io/node-state: failed} ({@link NodeFailure}) is left alone (no lease,
 * no status, no pod work) until the annotation goes. Nodes join and leave at run time as {@link NodeRoster} says.
 *
 * <p>Events, as a kubelet records them (source kubelet, host the node): the node's start when it registers
 * ({@link KubeletEvents#nodeStarting}), and what each pod's run records (Pulling, Pulled, Created, Started, BackOff,
 * Unhealthy, Killing, ...). A run rebuilt after a restart of node-sim records nothing of what happened before.
 */
public final class NodeSimulator implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeSimulator.class);
    private static final Duration NODE_STATUS_EVERY = Duration.ofMinutes(5);
    private static final Duration STATIC_PODS_EVERY = Duration.ofSeconds(5);

    private final EventplaneConfig config;
    private final NodeShape shape;
    private final Clock clock;
    private final NodeSimSettings settings;
    private final SimNodes nodes;
    private KubeletConfig kubelet;
    private ShardSettings shard;
    /** How often the kubelet's eviction manager looks for a pod to evict under memory pressure (a kubelet: 10 s). */
    private Duration evictionInterval = Duration.ofSeconds(10);
    /** How often each node's resource usage is sampled and published (metrics-server's resolution: 15 s); 0: never. */
    private Duration usageInterval = usageIntervalFromEnvironment();
    /** Where the nodes' static pod manifests are ({@link StaticPods}); null: none. */
    private java.nio.file.Path staticPodDir = staticPodDirFromEnvironment();
    private volatile boolean active;
    private volatile boolean closed;
    private volatile boolean releaseOnClose = true;
    // from start(): the clients, the thread, and the parts they are passed to
    private ScheduledExecutorService executor;
    private CommandSender sender;
    /** Sends the membership Lease's writes on a producer of its own, not queued behind thousands of node commands. */
    private CommandSender memberSender;
    /** The writer's verdicts on Lease writes (node Leases and this instance's membership Lease). */
    private Outcomes outcomes;
    private ObjectView view;
    private KafkaEventRecorder recorder;
    /** The clients every service builds the same way (view, sender, verdicts, Events); membership adds a producer. */
    private ControllerClients clients;
    private NodeMembership membership;
    private NodeHeartbeat heartbeat;
    private KubeletLoop pods;
    /** Publishes the nodes' usage samples on the usage topic (a producer of its own: no commands, no writer). */
    private UsageSender usageSender;
    private UsageSampler usage;
    /** Each node's event recorder (source kubelet, host the node), by node name. */
    private final Map<String, EventRecorder> kubelets = new java.util.concurrent.ConcurrentHashMap<>();

    public NodeSimulator(EventplaneConfig config, int nodes, NodeShape shape, Clock clock, NodeSimSettings settings) {
        if (nodes < 1) {
            throw new IllegalArgumentException("at least one node");
        }
        this.config = config;
        this.shape = shape;
        this.clock = clock;
        this.settings = settings;
        this.kubelet = KubeletConfig.defaults().withPull(settings.startDelayMin(), settings.startDelayMax())
                .withShutdownDefault(settings.shutdownDelay()).withSeed(settings.seed())
                .withImages(imageRulesFromEnvironment()).withRunDefaults(RunDefaults.fromEnvironment())
                .withStages(Stages.fromEnvironment());
        this.shard = ShardSettings.fromEnvironment();
        Map<String, Set<NodePressure.Kind>> configuredPressure;
        try {
            configuredPressure = NodePressure.parseConfig(EventplaneConfig.setting("EVENTPLANE_NODESIM_PRESSURE", ""));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("EVENTPLANE_NODESIM_PRESSURE: " + e.getMessage());
        }
        this.nodes = new SimNodes(settings.namePrefix(), nodes, clock, configuredPressure);
    }

    public NodeSimulator(EventplaneConfig config, int nodes, NodeShape shape, Clock clock) {
        this(config, nodes, shape, clock, NodeSimSettings.defaults());
    }

    /** How often the eviction manager runs (before {@link #start()}); a kubelet's is 10 s. */
    public NodeSimulator withEvictionInterval(Duration interval) {
        this.evictionInterval = interval;
        return this;
    }

    /** How often each node's resource usage is sampled (before {@link #start()}); zero: never. */
    public NodeSimulator withUsageInterval(Duration interval) {
        this.usageInterval = interval;
        return this;
    }

    /** {@code EVENTPLANE_NODESIM_USAGE_INTERVAL}: a duration (default 15 s), or 0 / never for no samples. */
    static Duration usageIntervalFromEnvironment() {
        String v = EventplaneConfig.setting("EVENTPLANE_NODESIM_USAGE_INTERVAL", "15s").trim();
        if (v.equals("0") || v.equalsIgnoreCase("never")) {
            return Duration.ZERO;
        }
        try {
            return PodBehavior.parseDuration(v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("EVENTPLANE_NODESIM_USAGE_INTERVAL: " + e.getMessage());
        }
    }

    /** The nodes' static pods: manifests in {@code dir/<node>/} and {@code dir/} (before {@link #start()}). */
    public NodeSimulator withStaticPods(java.nio.file.Path dir) {
        this.staticPodDir = dir;
        return this;
    }

    /** {@code EVENTPLANE_NODESIM_STATIC_PODS}: the static pod directory, or none. */
    static java.nio.file.Path staticPodDirFromEnvironment() {
        String v = EventplaneConfig.setting("EVENTPLANE_NODESIM_STATIC_PODS", "");
        return v == null || v.isBlank() ? null : java.nio.file.Path.of(v.trim());
    }

    /** This instance's identity and membership timing among the instances of its group (before {@link #start()}). */
    public NodeSimulator withSharding(ShardSettings sharding) {
        this.shard = sharding;
        return this;
    }

    /** How the kubelets time pulls, restarts and shutdowns (before {@link #start()}). */
    public NodeSimulator withKubelet(KubeletConfig config) {
        this.kubelet = config;
        return this;
    }

    /** {@code EVENTPLANE_NODESIM_IMAGES} ({@link ImageRules#parse}), or the default rules. */
    static ImageRules imageRulesFromEnvironment() {
        String text = EventplaneConfig.setting("EVENTPLANE_NODESIM_IMAGES", "");
        if (text == null || text.isBlank()) {
            return ImageRules.defaults();
        }
        try {
            return ImageRules.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("EVENTPLANE_NODESIM_IMAGES: " + e.getMessage());
        }
    }

    /** Creates the clients (the only place that does) and the parts, and starts following the log. */
    public NodeSimulator start() {
        String name = "node-sim-" + settings.namePrefix();
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        // The process's shared view (the log decoded once per process, whichever services run in it).
        clients = ControllerClients.create(config, name, ServiceIdentities.nodeSim(), clock,
                new EventOrigin("kubelet", null, name), ControllerClients.ViewKind.SHARED);
        sender = clients.sender();
        outcomes = clients.outcomes();
        view = clients.view();
        recorder = clients.recorder();
        memberSender = CommandSender.dedicated(config, name + "-membership");
        view.indexPodsByNode();
        clients.listen(this::onChange);
        for (SimNode n : nodes.all()) {
            kubelets.put(n.name(), recorder.from(EventOrigin.kubelet(n.name())));
        }
        membership = new NodeMembership(nodes, view, memberSender, outcomes, shard, settings.namePrefix(), clock,
                () -> active && !closed, this::startSimulating, this::stopSimulating);
        heartbeat = new NodeHeartbeat(nodes, view, this::send, outcomes, kubelets, shape, clock, settings);
        pods = new KubeletLoop(nodes, view, this::sendAwaitingVerdict, kubelets, executor, kubelet, shape, clock,
                settings);
        if (staticPodDir != null) {
            pods.withStaticPods(staticPodDir);
        }
        if (!usageInterval.isZero()) {
            usageSender = new UsageSender(config, name + "-usage");
            UsageRules rules = kubelet.stages() == null ? UsageRules.NONE : kubelet.stages().usage();
            usage = new UsageSampler(view, pods, usageInterval, rules.systemOrEnvironment());
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
        if (!active || closed || !view.isReady() || !membership.settled()) {
            return false;
        }
        for (String name : nodes.owned()) {
            SimNode n = nodes.get(name);
            if (view.get(nodeKey(n)).isEmpty() || view.get(leaseKey(n)).isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** Pod status updates sent so far (each one a transition the kubelet reported). */
    public long statusTransitions() {
        return pods == null ? 0 : pods.transitions();
    }

    /** The nodes this instance simulates now, by name. */
    public Set<String> ownedNodes() {
        return Set.copyOf(new TreeSet<>(nodes.owned()));
    }

    /** The live members of this instance's group it acts on, itself included. */
    public Set<String> members() {
        return membership == null ? Set.of() : membership.members();
    }

    public String instanceId() {
        return shard.instanceId();
    }

    public List<String> nodeNames() {
        return List.copyOf(nodes.names());
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
            if (node != null && nodes.contains(node)) {
                String key = Keys.of(kind, change.getNamespace(), change.getName());
                if (change.getType() == ChangeType.DELETED) {
                    run(() -> pods.forget(key, change.getUid()));
                    if (StaticPods.isMirror(pod)) {
                        run(() -> pods.syncStaticPods()); // a kubelet recreates its mirror pod
                    }
                } else if (nodes.owns(node)) {
                    run(() -> pods.evaluate(key));
                }
            }
        } else if (kind.equals(Kinds.PERSISTENT_VOLUME_CLAIM.kind()) || kind.equals(Kinds.PERSISTENT_VOLUME.kind())) {
            run(() -> pods.volumesChanged()); // a pod waiting for its claims' volumes may mount them now
        } else if ((kind.equals(Kinds.CONFIG_MAP.kind()) || kind.equals(Kinds.SECRET.kind()))
                && change.getType() != ChangeType.DELETED) {
            String key = Keys.of(kind, change.getNamespace(), change.getName());
            run(() -> pods.referenceChanged(key)); // only the pods waiting for it are looked at
        } else if (kind.equals(Kinds.LEASE.kind()) && ShardSettings.NAMESPACE.equals(change.getNamespace())
                && change.getName().startsWith("node-sim.")) {
            run(() -> membership.rebalance(false)); // a member joined, renewed, acknowledged or left
        } else if (kind.equals(Kinds.NODE.kind()) && change.getType() != ChangeType.DELETED
                && !nodes.contains(change.getName())) {
            Node node = (Node) change.getObject();
            int index = NodeRoster.addedIndex(node, settings.namePrefix());
            if (index > 0 && !NodeRoster.removed(node)) {
                run(() -> join(index));
            }
        } else if (kind.equals(Kinds.NODE.kind()) && change.getType() != ChangeType.DELETED) {
            Node node = (Node) change.getObject();
            if (NodeRoster.removed(node)) {
                run(() -> leave(change.getName()));
                return;
            }
            boolean fail = NodeFailure.FAILED.equals(NodeFailure.requested(node));
            SimNode n = nodes.get(change.getName());
            if (fail && nodes.fail(n.name())) {
                LOG.info("node-sim: {} fails: no more leases, status or pod work until it recovers", n.name());
            } else if (!fail && nodes.recover(n.name())) {
                LOG.info("node-sim: {} recovers", n.name());
                run(() -> {
                    if (nodes.owns(n.name())) {
                        recover(n);
                    }
                });
            } else if (!fail && nodes.owns(n.name()) && !nodes.pressures(node).equals(NodePressure.reported(node))
                    && NodeTemplates.isReady(node)) {
                run(() -> heartbeat.reportPressure(n));
            }
        } else if (change.getType() == ChangeType.DELETED && nodes.contains(change.getName())
                && (kind.equals(Kinds.NODE.kind())
                || (kind.equals(Kinds.LEASE.kind()) && NodeTemplates.LEASE_NAMESPACE.equals(change.getNamespace())))) {
            SimNode n = nodes.get(change.getName());
            if (!nodes.isFailed(n.name())) {
                run(() -> {
                    if (nodes.owns(n.name())) {
                        heartbeat.register(n); // a kubelet registers again when its Node or Lease is removed
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

    /** A node added at run time joins this group ({@link NodeRoster}); the membership says who simulates it. */
    private void join(int index) {
        if (addNode(index)) {
            membership.rebalance(false);
        }
    }

    private boolean addNode(int index) {
        SimNode n = SimNode.of(settings.namePrefix(), index);
        if (!nodes.add(n)) {
            return false;
        }
        kubelets.put(n.name(), recorder.from(EventOrigin.kubelet(n.name())));
        LOG.info("node-sim: {} joins", n.name());
        return true;
    }

    /** A node removed at run time leaves for good: its kubelet stops and will not register it again. */
    private void leave(String name) {
        if (!nodes.contains(name)) {
            return;
        }
        stopSimulating(name);
        nodes.remove(name);
        kubelets.remove(name);
        if (usageSender != null) {
            usageSender.forget(name); // its last sample goes from the metrics API at once
        }
        LOG.info("node-sim: {} leaves: no more leases, status or pod work", name);
        membership.rebalance(false);
    }

    /** Nodes added at run time before this start, and configured ones removed since, as their Nodes say. */
    private void readRoster() {
        for (ObjectChanged c : view.list(Kinds.NODE.kind(), null)) {
            Node node = (Node) c.getObject();
            if (NodeRoster.removed(node)) {
                nodes.remove(c.getName());
            } else {
                int index = NodeRoster.addedIndex(node, settings.namePrefix());
                if (index > 0) {
                    addNode(index);
                }
            }
        }
    }

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
        readRoster();
        active = true;
        membership.rebalance(true);
        long member = shard.renewInterval().toMillis();
        executor.scheduleAtFixedRate(() -> safely(() -> membership.rebalance(false)), member, member, TimeUnit.MILLISECONDS);
        membership.startRenewing();
        long every = settings.leaseRenewInterval().toMillis();
        executor.scheduleAtFixedRate(() -> {
            try {
                heartbeat.renewLeases();
            } catch (RuntimeException e) {
                LOG.warn("node-sim: lease renewal failed: {}", e.toString(), e);
            }
        }, every, every, TimeUnit.MILLISECONDS);
        long eviction = evictionInterval.toMillis();
        executor.scheduleAtFixedRate(() -> safely(pods::evictUnderPressure), eviction, eviction, TimeUnit.MILLISECONDS);
        if (usage != null) {
            long every2 = usageInterval.toMillis();
            executor.scheduleAtFixedRate(() -> safely(this::sampleUsage), every2, every2, TimeUnit.MILLISECONDS);
        }
        if (staticPodDir != null) { // a kubelet looks at its manifests every 20 s
            executor.scheduleWithFixedDelay(() -> safely(pods::syncStaticPods), 1, STATIC_PODS_EVERY.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        long status = NODE_STATUS_EVERY.toMillis();
        executor.scheduleAtFixedRate(() -> safely(heartbeat::reportNodeStatus), status, status, TimeUnit.MILLISECONDS);
        LOG.info("node-sim {}: {} node(s) configured, {} simulated here; leases renewed every {}", shard.instanceId(),
                nodes.size(), nodes.owned().size(), settings.leaseRenewInterval());
    }

    /** One round of the kubelets' resource metrics: each node this instance simulates (and that works) is sampled. */
    private void sampleUsage() {
        java.time.Instant now = clock.instant().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        List<String> live = nodes.owned().stream().filter(n -> !nodes.isFailed(n)).sorted().toList();
        java.util.Map<String, List<Pod>> bound = UsageSampler.podsOf(live,
                n -> view.snapshot(ObjectView.PODS_BY_NODE, n, null, x -> true).items());
        for (io.eventplane.usage.NodeUsage sample : usage.sample(bound, now)) {
            for (io.eventplane.usage.PodUsage p : sample.getPods()) {
                pods.measured(p.getUid(), p.getContainers().stream().mapToLong(c -> c.getMemoryBytes()).sum());
            }
            usageSender.send(sample);
        }
    }

    /** Takes a node over: registers or adopts it, renews its Lease, and picks its pods up from their stored status. */
    private void startSimulating(String name) {
        SimNode n = nodes.get(name);
        nodes.own(name);
        if (heartbeat.takeOver(n)) {
            pods.takeOver(n);
        }
    }

    /** Lets a node go to another instance: forgets its pods' runs without touching the node or its pods. */
    private void stopSimulating(String name) {
        nodes.disown(name);
        pods.letGo(name);
    }

    /** A failed node comes back: it reports Ready, renews its Lease, and picks up its pods where they are. */
    private void recover(SimNode n) {
        if (heartbeat.recover(n)) {
            pods.evaluatePodsOn(n.name());
        }
    }

    private void send(Command command) {
        sender.send(command).whenComplete((md, e) -> {
            if (e != null) {
                LOG.warn("node-sim: sending {} {} failed: {}", command.getVerb(), command.getName(), e.toString());
            }
        });
    }

    /**
     * Sends a pod's command and answers the writer's verdict on it: done once decided, or failed when the send fails
     * or no verdict came within {@link #VERDICT_WAIT} (then it is forgotten). The kubelet loop decides again only once
     * its command was decided: a writer working through a backlog is not sent duplicates to reject.
     */
    private CompletableFuture<?> sendAwaitingVerdict(Command command) {
        String requestId = command.getEnvelope().getRequestId();
        CompletableFuture<?> verdict = outcomes.await(requestId);
        sender.send(command).whenComplete((md, e) -> {
            if (e != null) {
                LOG.warn("node-sim: sending {} {} failed: {}", command.getVerb(), command.getName(), e.toString());
                verdict.completeExceptionally(e);
            }
        });
        return verdict.orTimeout(VERDICT_WAIT.toMillis(), TimeUnit.MILLISECONDS)
                .whenComplete((v, e) -> outcomes.forget(requestId));
    }

    /** How long a pod's command may wait for the writer's verdict before it is taken as lost and decided again. */
    static final Duration VERDICT_WAIT = Duration.ofSeconds(60);

    /** Runs a task of the simulator's threads: a failure is logged, and the next task runs as planned. */
    static void safely(Runnable r) {
        try {
            r.run();
        } catch (RuntimeException e) {
            LOG.warn("node-sim: {}", e.toString(), e);
        }
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
        if (membership != null) {
            membership.stopRenewing();
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
            membership.release(); // the other instances take the nodes over at once
        }
        if (clients != null) {
            clients.close();
        }
        if (usageSender != null) {
            usageSender.close();
        }
        if (memberSender != null) {
            memberSender.close();
        }
        LOG.info("node-sim {}: stopped {} node(s)", shard.instanceId(), nodes.owned().size());
    }
}
