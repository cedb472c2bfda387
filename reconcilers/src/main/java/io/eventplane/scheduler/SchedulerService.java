package io.eventplane.scheduler;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.events.EventOrigin;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.client.events.KafkaEventRecorder;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.WorkQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler's shell: an {@link ObjectView} of the cluster, a queue of pending pod keys fed by the view (an event
 * only names the key; the worker reads the pod's current state), one worker that decides with
 * {@link SchedulerDecider} and sends BIND or PodScheduled=False commands to the writer.
 *
 * <p>Unschedulable pods are parked and come back when the cluster changes (a node added or updated, a bound pod
 * deleted or finished), not on a timer. The worker counts its own bindings ({@link AssumedPods}) until the view shows
 * them, so a burst of decisions does not overcommit a node the view has not caught up on; the writer accepts a BIND
 * only while the pod with that uid is unbound, so a stale decision cannot bind a pod twice.
 *
 * <p>Events, as kube-scheduler records them: {@code FailedScheduling} (Warning) with the PodScheduled condition's
 * message on every unschedulable decision (repeats aggregate into one Event whose count grows), and {@code Scheduled}
 * once the writer has accepted the binding: when the view shows the BOUND change made by this scheduler's own request,
 * so a rejected or lost binding records nothing.
 */
public final class SchedulerService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerService.class);
    private static final int BATCH = 512;

    private final EventplaneConfig config;
    private final String actor;
    private final String schedulerName;
    private final Clock clock;
    private final Commands commands;
    private final SchedulerDecider decider = new SchedulerDecider();
    private final AssumedPods assumed;
    private final WorkQueue<String> queue;
    private final Set<String> parked = ConcurrentHashMap.newKeySet();
    private final Map<String, PodDemand> demands = new ConcurrentHashMap<>();
    /** Bindings sent and not yet seen in the view, by request id: their Scheduled event is due when they show up. */
    private final Map<String, Instant> bindingsSent = new ConcurrentHashMap<>();
    private final Duration assumeTimeout;
    /** Bumped on every change that could make a parked pod fit; a pod parked after a bump is retried at once. */
    private final AtomicLong clusterGeneration = new AtomicLong();
    private final AtomicLong bound = new AtomicLong();
    private final AtomicLong unschedulable = new AtomicLong();
    private ObjectView view;
    private CommandSender sender;
    private KafkaEventRecorder recorder;
    private EventRecorder events = EventRecorder.discarding();
    private Thread worker;
    private volatile boolean running;
    private volatile boolean synced;

    /**
     * @param actor         who the commands come from (the envelope's actor) and the clients' id
     * @param assumeTimeout how long a binding may stay invisible in the view before the pod is decided again
     */
    public SchedulerService(EventplaneConfig config, String actor, String schedulerName, Clock clock, Duration assumeTimeout) {
        this.config = config;
        this.actor = actor;
        this.schedulerName = schedulerName;
        this.clock = clock;
        this.commands = new Commands(actor, clock);
        this.assumed = new AssumedPods(assumeTimeout);
        this.assumeTimeout = assumeTimeout;
        this.queue = new WorkQueue<>(actor + "-queue");
    }

    public SchedulerService(EventplaneConfig config, String actor) {
        this(config, actor, SchedulerDecider.DEFAULT_SCHEDULER, Clock.systemUTC(), Duration.ofSeconds(30));
    }

    public SchedulerService start() {
        running = true;
        sender = new CommandSender(config, actor);
        view = new ObjectView(config, actor + "-view");
        view.addListener(this::onChange);
        // kube-scheduler reports as <schedulerName>, one instance per host.
        recorder = KafkaEventRecorder.start(config, sender, view, actor, clock, new EventOrigin(schedulerName, null,
                schedulerName + "-" + EventplaneConfig.setting("HOSTNAME", actor)));
        events = recorder;
        view.start();
        worker = new Thread(this::run, actor + "-worker");
        worker.setDaemon(true);
        worker.start();
        return this;
    }

    /** The view has caught up with the log and the worker is deciding. */
    public boolean isReady() {
        return running && synced && view.isReady() && worker.isAlive();
    }

    // ---- the view's thread: only note which keys to look at

    private void onChange(ObjectChanged change) {
        if (change.getKind().equals(Kinds.NODE.kind())) {
            clusterChanged();
        } else if (change.getKind().equals(Kinds.POD.kind())) {
            Pod pod = (Pod) change.getObject();
            String key = Keys.of(change.getKind(), change.getNamespace(), change.getName());
            boolean gone = change.getType() == ChangeType.DELETED;
            if (gone) {
                demands.remove(change.getUid());
            }
            if (change.getType() == ChangeType.BOUND && bindingsSent.remove(change.getEnvelope().getRequestId()) != null) {
                events.record(SchedulingEvents.scheduled(pod, pod.getSpec().getNodeName()));
            }
            if (AssumedPods.isBound(pod) && (gone || SchedulerDecider.isTerminal(pod))) {
                clusterChanged(); // resources freed
            }
            if (!gone && synced && SchedulerDecider.isPending(pod, schedulerName)) {
                queue.add(key);
            } else if (gone) {
                parked.remove(key);
            }
        }
    }

    private void clusterChanged() {
        clusterGeneration.incrementAndGet();
        if (!parked.isEmpty()) {
            for (String key : List.copyOf(parked)) {
                if (parked.remove(key)) {
                    queue.add(key);
                }
            }
        }
    }

    // ---- the worker

    private void run() {
        try {
            while (running && !awaitView()) {
                LOG.info("{}: waiting for the view to catch up with the log", actor);
            }
            synced = true;
            int pending = 0;
            for (ObjectChanged c : view.list(Kinds.POD.kind(), null)) {
                if (SchedulerDecider.isPending((Pod) c.getObject(), schedulerName)) {
                    queue.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
                    pending++;
                }
            }
            LOG.info("{}: ready; {} node(s), {} pending pod(s) queued", actor,
                    view.list(Kinds.NODE.kind(), null).size(), pending);
            while (running) {
                List<String> batch = queue.take(BATCH, Duration.ofSeconds(1));
                expireAssumptions();
                if (!batch.isEmpty()) {
                    scheduleBatch(batch);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("{}: scheduler worker stopped: {}", actor, e.toString(), e);
        }
    }

    private boolean awaitView() throws InterruptedException {
        try {
            view.awaitReady(Duration.ofSeconds(30));
            return true;
        } catch (TimeoutException e) {
            return false;
        }
    }

    private void expireAssumptions() {
        if (!bindingsSent.isEmpty()) {
            Instant oldest = clock.instant().minus(assumeTimeout);
            bindingsSent.values().removeIf(sentAt -> sentAt.isBefore(oldest));
        }
        if (assumed.size() == 0) {
            return;
        }
        for (AssumedPods.Assumed a : assumed.prune(this::pod, clock.instant())) {
            LOG.info("{}: binding of {} to {} not seen within the timeout; deciding again", actor, a.key(), a.node());
            queue.add(a.key());
        }
    }

    private void scheduleBatch(List<String> keys) {
        long generation = clusterGeneration.get();
        Instant now = clock.instant();
        assumed.prune(this::pod, now);
        ClusterSnapshot snapshot = snapshot();
        long boundBefore = bound.get();
        long unschedulableBefore = unschedulable.get();
        for (String key : keys) {
            try {
                scheduleOne(key, snapshot, generation, now);
            } catch (RuntimeException e) {
                LOG.warn("{}: scheduling {} failed: {}", actor, key, e.toString(), e);
                queue.addRateLimited(key);
            } finally {
                queue.done(key);
            }
        }
        long b = bound.get() - boundBefore;
        long u = unschedulable.get() - unschedulableBefore;
        if (b + u > 0) {
            LOG.info("{}: cycle of {} pod(s): {} bound, {} unschedulable; {} parked, {} awaiting the view", actor,
                    keys.size(), b, u, parked.size(), assumed.size());
        }
    }

    private void scheduleOne(String key, ClusterSnapshot snapshot, long generation, Instant now) {
        Optional<Pod> current = pod(key).filter(p -> SchedulerDecider.isPending(p, schedulerName));
        if (current.isEmpty()) {
            parked.remove(key);
            return;
        }
        Pod pod = current.get();
        String uid = pod.getMetadata().getUid();
        if (assumed.isAssumed(key, uid)) {
            return; // our binding is on its way
        }
        PodDemand demand = demand(pod);
        Placement placement = decider.decide(pod, demand, snapshot.nodes());
        if (placement instanceof Placement.Bind bind) {
            LOG.debug("{}: bind {} to {} (score {}, {} feasible node(s))", actor, key, bind.node(),
                    String.format("%.2f", bind.score()), bind.feasible());
            assumed.assume(new AssumedPods.Assumed(key, uid, bind.node(), demand, now));
            snapshot.add(bind.node(), demand);
            parked.remove(key);
            bound.incrementAndGet();
            String ns = pod.getMetadata().getNamespace();
            String name = pod.getMetadata().getName();
            Command binding = commands.bind(ns, name, uid, bind.node());
            String requestId = binding.getEnvelope().getRequestId();
            bindingsSent.put(requestId, now);
            sender.send(binding).whenComplete((md, e) -> {
                if (e != null) {
                    LOG.warn("{}: sending the binding of {} failed: {}", actor, key, e.toString());
                    bindingsSent.remove(requestId);
                    assumed.forget(key, uid);
                    queue.addRateLimited(key);
                } else {
                    queue.forget(key);
                }
            });
        } else if (placement instanceof Placement.Unschedulable why) {
            LOG.debug("{}: {} unschedulable: {}", actor, key, why.message());
            unschedulable.incrementAndGet();
            SchedulingEvents.failed(pod, why).ifPresent(events::record);
            SchedulingStatus.unschedulable(pod, why, now).ifPresent(update ->
                    sender.send(commands.updateStatus(update)).whenComplete((md, e) -> {
                        if (e != null) {
                            LOG.warn("{}: sending the status of {} failed: {}", actor, key, e.toString());
                            queue.addRateLimited(key);
                        }
                    }));
            park(key, generation);
        }
    }

    /** Waits for a cluster change; if one came since this cycle's snapshot, the pod is retried at once instead. */
    private void park(String key, long generation) {
        parked.add(key);
        if (clusterGeneration.get() != generation && parked.remove(key)) {
            queue.add(key);
        }
    }

    private ClusterSnapshot snapshot() {
        List<Node> nodes = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.NODE.kind(), null)) {
            nodes.add((Node) c.getObject());
        }
        ClusterSnapshot snapshot = ClusterSnapshot.of(nodes);
        Set<String> confirmed = new HashSet<>();
        for (ObjectChanged c : view.list(Kinds.POD.kind(), null)) {
            Pod p = (Pod) c.getObject();
            if (AssumedPods.isBound(p) && !SchedulerDecider.isTerminal(p)) {
                snapshot.add(p.getSpec().getNodeName(), demand(p));
                String key = Keys.of(c.getKind(), c.getNamespace(), c.getName());
                if (assumed.contains(key)) {
                    confirmed.add(key);
                }
            }
        }
        for (AssumedPods.Assumed a : assumed.all()) {
            if (!confirmed.contains(a.key())) {
                snapshot.add(a.node(), a.demand());
            }
        }
        return snapshot;
    }

    private PodDemand demand(Pod pod) {
        String uid = pod.getMetadata().getUid();
        return uid == null ? PodDemand.of(pod.getSpec()) : demands.computeIfAbsent(uid, u -> PodDemand.of(pod.getSpec()));
    }

    private Optional<Pod> pod(String key) {
        return view.get(key).map(c -> (Pod) c.getObject());
    }

    @Override
    public void close() {
        running = false;
        queue.close();
        if (worker != null) {
            worker.interrupt();
            try {
                worker.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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
        LOG.info("{}: stopped after {} binding(s), {} unschedulable decision(s)", actor, bound.get(), unschedulable.get());
    }
}
