package io.eventplane.scheduler;

import io.eventplane.client.ClusterView;
import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.BatchReconciler;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.ControllerContext;
import io.eventplane.reconcile.WorkQueue;
import java.util.Collection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.specific.SpecificRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scheduler as a {@link BatchReconciler} on the controller runtime: a queue of pending pod keys fed by the view
 * (an event only names the key; the worker reads the pod's current state), batches decided with
 * {@link SchedulerDecider} against one snapshot of the cluster, BIND or PodScheduled=False commands sent to the writer
 * without waiting for verdicts (the view shows the effect). The runtime owns the clients, the view, the queue, leader
 * election (the Lease kube-system/kube-scheduler), readiness and shutdown.
 *
 * <p>Unschedulable pods are parked and come back when the cluster changes (a node added or updated, a bound pod
 * deleted or finished), not on a timer. The worker counts its own bindings ({@link AssumedPods}) until the view shows
 * them, so a burst of decisions does not overcommit a node the view has not caught up on; the writer accepts a BIND
 * only while the pod with that uid is unbound, so a stale decision cannot bind a pod twice.
 *
 * <p>Pods with persistentVolumeClaim volumes go through {@link VolumeBinding} (pods without cost nothing more): a
 * claim that is missing, Lost, being deleted or unbound under an Immediate class makes the pod unschedulable; claims
 * of WaitForFirstConsumer classes are bound for the chosen node (its name in their selected-node annotation, or a
 * matching volume pre-bound to them) and the pod, counted on its node, is bound only once the binder and the
 * provisioner have bound them all. Claim, volume and StorageClass changes wake the pods that wait on them.
 *
 * <p>Events, as kube-scheduler records them: {@code FailedScheduling} (Warning) with the PodScheduled condition's
 * message on every unschedulable decision (repeats aggregate into one Event whose count grows), and {@code Scheduled}
 * once the writer has accepted the binding: when the view shows the BOUND change made by this scheduler's own request,
 * so a rejected or lost binding records nothing.
 */
public final class Scheduler implements BatchReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    private static final int BATCH = 512;

    private final String schedulerName;
    private final SchedulerDecider decider;
    private final AssumedPods assumed;
    private final NominatedPods nominated = new NominatedPods();
    /** Bindings sent and not yet seen in the view, by request id: their Scheduled event is due when they show up. */
    private final Map<String, Sent> bindingsSent = new ConcurrentHashMap<>();
    private volatile SchedulerObserver observer = SchedulerObserver.NONE;
    private final Duration assumeTimeout;
    /** Pods with claims: binding in progress, or parked until a claim, volume or class changes. */
    private final VolumeWaits volumeWaits = new VolumeWaits();
    private final AtomicLong bound = new AtomicLong();
    private final AtomicLong unschedulable = new AtomicLong();
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(30);
    // the progress line's counts (the worker thread's own; the first cycle logs at once)
    private long progressLoggedAt = System.nanoTime() - PROGRESS_EVERY.toNanos();
    private long progressCycles;
    private long progressBound;
    private long progressUnschedulable;
    private ControllerContext context;
    private String actor;
    private Clock clock;
    private ObjectView view;
    private WorkQueue<String> queue;
    private CommandSender sender;
    private Commands commands;
    private EventRecorder events = EventRecorder.discarding();
    /** The worker's picture of the cluster (see {@link SchedulerCache}). */
    private SchedulerCache cache;
    /** Unschedulable pods waiting for a change that could make them fit. */
    private ParkedPods parked;

    /**
     * @param assumeTimeout how long a binding may stay invisible in the view before the pod is decided again
     */
    public Scheduler(String schedulerName, Duration assumeTimeout, SchedulerDecider.Profile profile) {
        this.decider = new SchedulerDecider(profile);
        this.schedulerName = schedulerName;
        this.assumed = new AssumedPods(assumeTimeout);
        this.assumeTimeout = assumeTimeout;
    }

    public Scheduler() {
        this(SchedulerDecider.DEFAULT_SCHEDULER, Duration.ofSeconds(30), SchedulerDecider.Profile.defaults());
    }

    /**
     * The default scheduler on the runtime, not started: on the process's shared view (its bookkeeping runs on the
     * view's thread; in one process with the API and node-sim the log is then decoded once, not once each), and events
     * reported as {@code default-scheduler} as kube-scheduler does.
     *
     * @param actor who the commands come from (the envelope's actor) and the clients' id
     */
    public static Controller controller(EventplaneConfig config, String actor, Clock clock, Scheduler scheduler) {
        return Controller.batch(config, actor, scheduler.schedulerName, clock, scheduler);
    }

    public static Controller controller(EventplaneConfig config, String actor) {
        return controller(config, actor, Clock.systemUTC(), new Scheduler());
    }

    @Override
    public void init(ControllerContext context) {
        this.context = context;
        this.actor = context.actor();
        this.clock = context.clock();
        this.view = context.view();
        this.queue = context.queue();
        this.sender = context.sender();
        this.commands = context.commands();
        this.events = context.events();
        this.cache = new SchedulerCache(view, assumed);
        this.parked = new ParkedPods(clock, queue);
    }

    @Override
    public int batch() {
        return BATCH;
    }

    // ---- the view's thread: only note which keys to look at

    @Override
    public void observe(ObjectChanged change, ObjectChanged previous) {
        String kind = change.getKind();
        if (kind.equals(Kinds.NODE.kind())) {
            cache.nodeChanged(change.getName());
            if (change.getType() == ChangeType.CREATED || change.getType() == ChangeType.DELETED || previous == null
                    || NodeUpdates.mayMakePodsFit((Node) previous.getObject(),
                            (Node) change.getObject())) {
                parked.clusterChanged();
            }
        } else if ((kind.equals(Kinds.NAMESPACE.kind()) || kind.equals(Kinds.REPLICA_SET.kind())
                || kind.equals(Kinds.STATEFUL_SET.kind()) || kind.equals(Kinds.REPLICATION_CONTROLLER.kind())
                || kind.equals(Kinds.SERVICE.kind()))
                && change.getType() != ChangeType.STATUS_UPDATED) {
            // labels and selectors are not status: a workload's status updates (thousands in a rollout) change nothing here
            cache.metadataChanged();
        } else if (kind.equals(Kinds.POD.kind())) {
            Pod pod = (Pod) change.getObject();
            String key = Keys.of(change.getKind(), change.getNamespace(), change.getName());
            if (change.getType() != ChangeType.CREATED || AssumedPods.isBound(pod)) {
                cache.podChanged(key); // a new unbound pod takes nothing yet
            }
            boolean gone = change.getType() == ChangeType.DELETED;
            if (gone) {
                cache.podDeleted(change.getUid());
            }
            if (change.getType() == ChangeType.BOUND || assumed.contains(key)) {
                assumed.changed(key); // may settle an assumption
            }
            nominated.observe(key, gone ? null : pod, schedulerName);
            if (change.getType() == ChangeType.BOUND) {
                Sent sent = bindingsSent.remove(change.getEnvelope().getRequestId());
                if (sent != null) {
                    observer.bindingVisible(key, System.nanoTime() - sent.nanos());
                    events.record(SchedulingEvents.scheduled(pod, pod.getSpec().getNodeName()));
                }
            }
            if (AssumedPods.isBound(pod) && (gone || SchedulerDecider.isTerminal(pod))) {
                parked.clusterChanged(); // resources freed
            }
            if (!gone && context.synced() && SchedulerDecider.isPending(pod, schedulerName)) {
                queue.add(key);
            } else if (gone) {
                parked.forget(key);
                volumeWaits.forget(key);
            }
        } else if (VolumeWaits.concerns(kind)) {
            for (String key : volumeWaits.woken(change)) {
                if (!parked.wake(key, clock.instant()) && volumeWaits.isBinding(key)) {
                    queue.add(key); // its claims may be bound now
                }
            }
        }
    }

    private record Sent(Instant at, long nanos) {
    }

    /** Reports cycles, decisions and visible bindings to {@code observer} (benchmarks); set before {@link #start}. */
    public Scheduler observe(SchedulerObserver observer) {
        this.observer = observer;
        return this;
    }

    // ---- the worker

    @Override
    public Collection<String> initialKeys(ClusterView view) {
        List<String> pending = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.POD.kind(), null)) {
            if (SchedulerDecider.isPending((Pod) c.getObject(), schedulerName)) {
                pending.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
            }
        }
        LOG.info("{}: active; {} node(s), {} pending pod(s) queued", actor, view.list(Kinds.NODE.kind(), null).size(),
                pending.size());
        return pending;
    }

    @Override
    public void idle() {
        expireAssumptions();
        parked.flushLongParked();
    }

    private void expireAssumptions() {
        if (!bindingsSent.isEmpty()) {
            Instant oldest = clock.instant().minus(assumeTimeout);
            bindingsSent.values().removeIf(sent -> sent.at().isBefore(oldest));
        }
        for (AssumedPods.Assumed a : assumed.prune(this::pod, clock.instant())) {
            LOG.info("{}: binding of {} to {} not seen within the timeout; deciding again", actor, a.key(), a.node());
            volumeWaits.forget(a.key());
            cache.podChanged(a.key());
            queue.add(a.key());
        }
    }

    @Override
    public void process(List<String> keys) {
        long generation = parked.generation();
        long volumeGeneration = volumeWaits.generation();
        Instant now = clock.instant();
        long t0 = System.nanoTime();
        assumed.prune(this::pod, now);
        ClusterSnapshot snapshot = cache.refresh();
        long t1 = System.nanoTime();
        long boundBefore = bound.get();
        long unschedulableBefore = unschedulable.get();
        Preemption.Inputs inputs = nominated.inputs(view, schedulerName, now);
        for (String key : keys) {
            try {
                scheduleOne(key, snapshot, inputs, generation, volumeGeneration, now);
            } catch (RuntimeException e) {
                LOG.warn("{}: scheduling {} failed: {}", actor, key, e.toString(), e);
                queue.addRateLimited(key);
            }
        }
        observer.cycle(keys.size(), t1 - t0, System.nanoTime() - t1);
        long b = bound.get() - boundBefore;
        long u = unschedulable.get() - unschedulableBefore;
        if (b + u > 0) {
            LOG.debug("{}: cycle of {} pod(s): {} bound, {} unschedulable; {} parked, {} awaiting the view", actor,
                    keys.size(), b, u, parked.size(), assumed.size());
            logProgress(b, u);
        }
    }

    /**
     * One INFO line per {@link #PROGRESS_EVERY} with what the cycles since did: a line per cycle was 73 lines a second
     * (19 MB in the soak's 30 minutes of churn at 50 pods/s), as kube-scheduler logs each pod only at -v=2.
     */
    private void logProgress(long bound, long unschedulable) {
        progressCycles++;
        progressBound += bound;
        progressUnschedulable += unschedulable;
        long now = System.nanoTime();
        if (now - progressLoggedAt >= PROGRESS_EVERY.toNanos()) {
            LOG.info("{}: {} cycle(s): {} bound, {} unschedulable; {} parked, {} awaiting the view", actor,
                    progressCycles, progressBound, progressUnschedulable, parked.size(), assumed.size());
            progressLoggedAt = now;
            progressCycles = 0;
            progressBound = 0;
            progressUnschedulable = 0;
        }
    }

    private void scheduleOne(String key, ClusterSnapshot snapshot, Preemption.Inputs inputs, long generation,
                             long volumeGeneration, Instant now) {
        Optional<Pod> current = pod(key).filter(p -> SchedulerDecider.isPending(p, schedulerName));
        if (current.isEmpty()) {
            parked.forget(key);
            volumeWaits.forget(key);
            return;
        }
        Pod pod = current.get();
        String uid = pod.getMetadata().getUid();
        if (assumed.isAssumed(key, uid)) {
            VolumeWaits.Binding b = volumeWaits.binding(key, uid);
            if (b != null) {
                finishVolumeBinding(key, pod, b, snapshot, now);
            }
            return; // our binding is on its way
        }
        long start = System.nanoTime();
        PodInfo info = cache.info(pod);
        VolumeBinding.PodVolumes volumes = info.claims().isEmpty() ? null
                : VolumeBinding.preFilter(pod.getMetadata().getNamespace(), info.claims(), view);
        SchedulingAttempt attempt = SchedulingAttempt.of(decider, pod, info, snapshot, volumes, inputs, cache::info);
        Placement placement = attempt.placement();
        observer.decided(key, placement instanceof Placement.Bind, System.nanoTime() - start);
        if (placement instanceof Placement.Bind bind) {
            LOG.debug("{}: bind {} to {} (score {}, {} feasible node(s))", actor, key, bind.node(), bind.score(),
                    bind.feasible());
            assumed.assume(new AssumedPods.Assumed(key, uid, bind.node(), info, now));
            cache.assume(key, bind.node(), info);
            parked.forget(key);
            bound.incrementAndGet();
            if (volumes != null && !volumes.allBound()) {
                VolumeWaits.Binding b = volumeWaits.bind(key, uid, bind.node(), pod.getMetadata().getNamespace(),
                        info.claims());
                sendVolumeWrites(key, b, volumes.reserve(snapshot.node(bind.node())));
                return; // bound once its claims are (PreBind)
            }
            sendBinding(key, pod, bind.node(), now);
        } else if (placement instanceof Placement.Unschedulable why) {
            LOG.debug("{}: {} unschedulable: {}", actor, key, why.message());
            unschedulable.incrementAndGet();
            SchedulingEvents.failed(pod, why).ifPresent(events::record);
            if (attempt.preemption() instanceof Preemption.Nominated n) {
                preempt(pod, n, now);
            }
            SchedulingStatus.unschedulable(pod, why, attempt.nominatedNodeName(), now).ifPresent(update ->
                    sender.send(commands.updateStatus(update)).whenComplete((md, e) -> {
                        if (e != null) {
                            LOG.warn("{}: sending the status of {} failed: {}", actor, key, e.toString());
                            queue.addRateLimited(key);
                        }
                    }));
            if (!info.claims().isEmpty()) {
                volumeWaits.watch(key, pod.getMetadata().getNamespace(), info.claims());
            }
            boolean withClaims = !info.claims().isEmpty();
            parked.park(key, generation, () -> withClaims && volumeWaits.generation() != volumeGeneration);
        }
    }

    /** Evicts the victims (DisruptionTarget, then a graceful delete) and records Preempted on each. */
    private void preempt(Pod pod, Preemption.Nominated n, Instant now) {
        LOG.info("{}: {}/{} preempts {} pod(s) on {}", actor, pod.getMetadata().getNamespace(),
                pod.getMetadata().getName(), n.victims().size(), n.node());
        for (Command c : PreemptionEffects.commands(commands, pod, n, now)) {
            sender.send(c).whenComplete((md, e) -> {
                if (e != null) {
                    LOG.warn("{}: sending {} {} failed: {}", actor, c.getVerb(), c.getName(), e.toString());
                }
            });
        }
        PreemptionEffects.events(pod, n).forEach(events::record);
    }


    private void sendBinding(String key, Pod pod, String node, Instant now) {
        String uid = pod.getMetadata().getUid();
        volumeWaits.forget(key);
        Command binding = commands.bind(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), uid, node);
        String requestId = binding.getEnvelope().getRequestId();
        bindingsSent.put(requestId, new Sent(now, System.nanoTime()));
        sender.send(binding).whenComplete((md, e) -> {
            if (e != null) {
                LOG.warn("{}: sending the binding of {} failed: {}", actor, key, e.toString());
                bindingsSent.remove(requestId);
                assumed.forget(key, uid);
                cache.podChanged(key);
                queue.addRateLimited(key);
            } else {
                queue.forget(key);
            }
        });
    }

    /**
     * Reserve and PreBind for a pod whose claims wait for it: the claims' writes (selected node, volumes pre-bound),
     * each on the version it was decided on, while the pod, counted on its node, waits for the binder and the
     * provisioner (a claim change brings it back to {@link #finishVolumeBinding}). A write is sent again only on a
     * newer version of its object: the one before was rejected (the object changed under it) or is superseded.
     */
    private void sendVolumeWrites(String key, VolumeWaits.Binding binding, List<SpecificRecord> writes) {
        for (SpecificRecord w : writes) {
            if (!binding.firstWriteAt(w)) {
                continue; // on its way
            }
            sender.send(commands.update(w)).whenComplete((md, e) -> {
                if (e != null) {
                    LOG.warn("{}: sending a volume binding write for {} failed: {}", actor, key, e.toString());
                }
            });
        }
    }

    /**
     * PreBind's end: the pod is bound once its claims are; a write of Reserve that did not land is made again on the
     * claim's or volume's newer version; a binding that cannot complete sends the pod back.
     */
    private void finishVolumeBinding(String key, Pod pod, VolumeWaits.Binding binding, ClusterSnapshot snapshot,
                                     Instant now) {
        String namespace = pod.getMetadata().getNamespace();
        List<String> claims = io.eventplane.core.meta.PersistentVolumes.claimNames(pod.getSpec());
        VolumeBinding.Check check = VolumeBinding.check(namespace, claims, binding.node(), view);
        if (check instanceof VolumeBinding.Check.Waiting) {
            VolumeBinding.PodVolumes volumes = VolumeBinding.preFilter(namespace, claims, view);
            NodeState node = snapshot.node(binding.node());
            if (volumes.rejection() != null) {
                check = new VolumeBinding.Check.Failed(volumes.rejection());
            } else if (node != null && !volumes.allBound()) {
                sendVolumeWrites(key, binding, volumes.reserve(node));
            }
        }
        if (check instanceof VolumeBinding.Check.Bound) {
            sendBinding(key, pod, binding.node(), now);
        } else if (check instanceof VolumeBinding.Check.Failed failed) {
            volumeWaits.forget(key);
            assumed.forget(key, pod.getMetadata().getUid());
            cache.podChanged(key);
            SchedulingEvents.failed(pod, new Placement.Unschedulable("Unschedulable", "running PreBind plugin "
                    + "\"VolumeBinding\": binding volumes: " + failed.message())).ifPresent(events::record);
            queue.addRateLimited(key);
        }
    }

    private Optional<Pod> pod(String key) {
        return view.get(key).map(c -> (Pod) c.getObject());
    }

    /** Bindings and unschedulable decisions so far. */
    public long bindings() {
        return bound.get();
    }

    public long unschedulableDecisions() {
        return unschedulable.get();
    }
}
