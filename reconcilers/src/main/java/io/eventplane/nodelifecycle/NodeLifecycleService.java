package io.eventplane.nodelifecycle;

import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Requests;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.DeleteOptions;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.model.Lease;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.podgc.PodGcDecider;
import io.eventplane.reconcile.ControllerClients;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node lifecycle controller and the pod garbage collector in one shell: every tick it catches up with the log
 * (so a missing node is really gone), decides with {@link NodeLifecycleDecider} and {@link PodGcDecider}, and sends
 * the commands, each with the resourceVersion (updates) or uid (deletes) it was decided on. Time comes from the
 * injected clock; the tick itself is real time.
 */
public final class NodeLifecycleService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLifecycleService.class);
    public static final String LEASE_NAMESPACE = "kube-node-lease";
    private static final Duration VERDICT_TIMEOUT = Duration.ofSeconds(30);

    private final EventplaneConfig config;
    private final String actor;
    private final Clock clock;
    private final Duration tick;
    private final List<String> probes;
    private final NodeLifecycleConfig settings;
    private final Commands commands;
    private final NodeLifecycleDecider decider;
    private final PodGcDecider podGc = new PodGcDecider();
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicLong evicted = new AtomicLong();
    private final AtomicLong collected = new AtomicLong();
    private final AtomicLong ticks = new AtomicLong();
    private NodeLifecycleDecider.State state = NodeLifecycleDecider.State.empty();
    private ControllerClients clients;
    private ObjectView view;
    private Thread worker;
    private volatile boolean running;
    private volatile boolean synced;

    public NodeLifecycleService(EventplaneConfig config, String actor, Clock clock, Duration tick, NodeLifecycleConfig settings) {
        this.config = config;
        this.actor = actor;
        this.clock = clock;
        this.tick = tick;
        this.probes = probeNames(config.partitions());
        this.settings = settings;
        this.commands = new Commands(actor, clock);
        this.decider = new NodeLifecycleDecider(settings);
    }

    public NodeLifecycleService(EventplaneConfig config, String actor) {
        this(config, actor, Clock.systemUTC(), Duration.ofSeconds(1), fromEnvironment());
    }

    /** {@code EVENTPLANE_NODE_MONITOR_GRACE_PERIOD} (seconds, 40) and {@code EVENTPLANE_TERMINATED_POD_GC_THRESHOLD} (12500). */
    public static NodeLifecycleConfig fromEnvironment() {
        NodeLifecycleConfig d = NodeLifecycleConfig.defaults();
        return d.withMonitorGracePeriod(Duration.ofSeconds(Long.parseLong(EventplaneConfig.setting(
                        "EVENTPLANE_NODE_MONITOR_GRACE_PERIOD", Long.toString(d.monitorGracePeriod().toSeconds())))))
                .withTerminatedPodGcThreshold(Integer.parseInt(EventplaneConfig.setting(
                        "EVENTPLANE_TERMINATED_POD_GC_THRESHOLD", Integer.toString(d.terminatedPodGcThreshold()))));
    }

    public NodeLifecycleService start() {
        running = true;
        clients = ControllerClients.create(config, actor, clock,
                new EventOrigin("node-controller", null, "node-controller")).start();
        view = clients.view();
        worker = new Thread(this::run, actor + "-worker");
        worker.setDaemon(true);
        worker.start();
        return this;
    }

    public boolean isReady() {
        return running && synced && view.isReady() && worker.isAlive();
    }

    /** Ticks completed: each one decided on a view caught up with the log. */
    public long ticks() {
        return ticks.get();
    }

    public long evictions() {
        return evicted.get();
    }

    public long podsCollected() {
        return collected.get();
    }

    private void run() {
        try {
            clients.awaitViewReady(() -> running);
            synced = true;
            LOG.info("{}: ready; node monitor grace period {} s, terminated-pod-gc-threshold {}", actor,
                    settings.monitorGracePeriod().toSeconds(), settings.terminatedPodGcThreshold());
            while (running) {
                try {
                    once(barrier());
                    ticks.incrementAndGet();
                } catch (TimeoutException e) {
                    LOG.warn("{}: node health not judged this tick: {}", actor, e.getMessage());
                } catch (org.apache.kafka.common.errors.InterruptException e) {
                    return; // closing: the interrupt ended a read of the log
                } catch (RuntimeException e) {
                    if (!running) {
                        return;
                    }
                    LOG.warn("{}: tick failed: {}", actor, e.toString(), e);
                }
                Thread.sleep(tick.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The time up to which the view is complete: every command sent before it (a kubelet's Lease renewal above all)
     * has been decided by the writer and is in the view. A probe per command partition (a DELETE of a Lease that
     * never exists, answered NotFound) is sent and its verdict awaited, then the view catches up with the log. A writer
     * with a backlog thus delays the judgement instead of making every node look dead: renewals stuck behind the
     * backlog are not missed renewals.
     */
    private Instant barrier() throws InterruptedException, TimeoutException {
        Instant sent = clock.instant();
        List<CompletableFuture<Requests.Result>> answers = new ArrayList<>();
        for (String name : probes) {
            answers.add(clients.requests().submit(commands.delete(Kinds.LEASE, LEASE_NAMESPACE, name, null, null),
                    VERDICT_TIMEOUT));
        }
        try {
            CompletableFuture.allOf(answers.toArray(new CompletableFuture[0])).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new TimeoutException("the writer did not decide a probe within " + VERDICT_TIMEOUT.toSeconds()
                    + " s (a backlog of commands)");
        }
        clients.catchUp(VERDICT_TIMEOUT);
        return sent;
    }

    /** Names of Leases that never exist, one whose key falls on each command partition (Kafka's default partitioner). */
    static List<String> probeNames(int partitions) {
        String[] names = new String[partitions];
        int found = 0;
        for (int i = 0; found < partitions; i++) {
            String name = "node-controller-probe-" + i;
            byte[] key = Keys.of(Kinds.LEASE.kind(), LEASE_NAMESPACE, name).getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int p = org.apache.kafka.common.utils.Utils.toPositive(org.apache.kafka.common.utils.Utils.murmur2(key))
                    % partitions;
            if (names[p] == null) {
                names[p] = name;
                found++;
            }
        }
        return List.of(names);
    }

    private void once(Instant now) {
        List<Node> nodes = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.NODE.kind(), null)) {
            nodes.add((Node) c.getObject());
        }
        Map<String, Instant> leases = new HashMap<>();
        for (ObjectChanged c : view.list(Kinds.LEASE.kind(), LEASE_NAMESPACE)) {
            Lease l = (Lease) c.getObject();
            if (l.getSpec() != null && l.getSpec().getRenewTime() != null) {
                leases.put(c.getName(), l.getSpec().getRenewTime());
            }
        }
        List<Pod> pods = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.POD.kind(), null)) {
            pods.add((Pod) c.getObject());
        }
        NodeLifecycleDecider.Decision d = decider.decide(now, nodes, leases, pods, state);
        state = d.state();
        for (Node n : d.statusUpdates()) {
            LOG.info("{}: node {} stopped renewing its lease: Ready=Unknown", actor, n.getMetadata().getName());
            submit(n, commands.updateStatus(n), null);
        }
        for (Node n : d.taintUpdates()) {
            LOG.info("{}: node {} taints now {}", actor, n.getMetadata().getName(), n.getSpec().getTaints());
            submit(n, commands.update(n), null);
        }
        for (NodeLifecycleDecider.Eviction e : d.evictions()) {
            Pod pod = e.pod();
            LOG.info("{}: evicting {}/{} from node {} (NoExecute taint)", actor, pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), pod.getSpec().getNodeName());
            submit(pod, commands.updateStatus(e.withCondition()), () -> {
                evicted.incrementAndGet();
                return delete(pod, null);
            });
        }
        for (PodGcDecider.Removal r : podGc.decide(now, pods, nodes, settings.terminatedPodGcThreshold())) {
            Pod pod = r.pod();
            LOG.info("{}: PodGC deletes {}/{}: {}", actor, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), r.why());
            if (r.failFirst() != null) {
                submit(pod, commands.updateStatus(r.failFirst()), () -> {
                    collected.incrementAndGet();
                    return delete(pod, 0L);
                });
            } else {
                submit(pod, delete(pod, 0L), () -> {
                    collected.incrementAndGet();
                    return null;
                });
            }
        }
    }

    private Command delete(Pod pod, Long grace) {
        return commands.deleteWith(Kinds.POD, pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                Preconditions.newBuilder().setUid(pod.getMetadata().getUid()).build(),
                DeleteOptions.newBuilder().setGracePeriodSeconds(grace).build());
    }

    /** Sends {@code command} about {@code object} unless one about the same version is on its way; then {@code next}. */
    private void submit(SpecificRecord object, Command command, java.util.function.Supplier<Command> next) {
        var meta = io.eventplane.core.meta.ObjectAccess.meta(object);
        String flight = Keys.of(command.getKind(), command.getNamespace(), command.getName()) + "@" + meta.getResourceVersion();
        if (!inFlight.add(flight)) {
            return;
        }
        Requests requests = clients.requests();
        requests.submit(command, VERDICT_TIMEOUT).thenCompose(r -> {
            if (!r.accepted()) {
                LOG.debug("{}: {} {} rejected: {}", actor, command.getVerb(), command.getName(), r.outcome().getMessage());
                return CompletableFuture.completedFuture(null);
            }
            Command then = next == null ? null : next.get();
            return then == null ? CompletableFuture.completedFuture(null) : requests.submit(then, VERDICT_TIMEOUT);
        }).whenComplete((r, e) -> {
            inFlight.remove(flight);
            if (e != null) {
                LOG.warn("{}: {} {} got no verdict: {}", actor, command.getVerb(), command.getName(), e.toString());
            }
        });
    }

    @Override
    public void close() {
        running = false;
        if (worker != null) {
            worker.interrupt();
            try {
                worker.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (clients != null) {
            clients.close();
        }
        LOG.info("{}: stopped after {} eviction(s), {} pod(s) collected", actor, evicted.get(), collected.get());
    }
}
