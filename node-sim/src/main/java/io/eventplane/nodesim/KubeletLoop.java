package io.eventplane.nodesim;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectView;
import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.EventRecorder;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.Command;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static io.eventplane.nodesim.SimNodes.nodeKey;

/**
 * The pod work of the simulated kubelets, as a kubelet's pod sync loop does it: for each pod bound to a node this
 * instance simulates, admission ({@link NodePressure}, {@link NodeAdmission}), its volumes ({@link VolumeMounts}, {@link ClaimMounts}) and
 * the sandbox ({@link PodLifecycle}), then the pod's {@link PodRun} advanced to now, whose status is sent as
 * UPDATE_STATUS when it differs from the stored one, whose Events are recorded, and whose end is followed by a DELETE
 * (grace 0) once a deleted pod has stopped. Also the eviction manager ({@link PressureEviction}) on nodes under memory
 * pressure.
 *
 * <p>Level-triggered: a change only names a pod ({@link #evaluate}); the loop re-reads it, advances its run and plans
 * the next evaluation for the run's next change. Every command carries the resourceVersion it was decided on; a
 * conflict is followed by the next change, and a command that shows no effect is retried after
 * {@link NodeSimSettings#retryAfter()}, at most 5 times. A pod kept waiting by a missing ConfigMap, Secret or key
 * ({@link ConfigReferences}) is looked at again when one it refers to appears or changes ({@link #referenceChanged}),
 * one waiting for its claims' volumes on any claim or volume change ({@link #volumesChanged}).
 * All on the simulator's one thread: no locks.
 */
final class KubeletLoop implements UsageSampler.Runs {
    private static final Logger LOG = LoggerFactory.getLogger(KubeletLoop.class);
    private static final int MAX_ATTEMPTS = 5;

    private record Planned(Instant at, ScheduledFuture<?> task) {
    }

    /** A command sent for a pod at this resourceVersion, not yet visible in the view. */
    private record Sent(String resourceVersion, int attempts) {
    }

    private final SimNodes nodes;
    private final ObjectView view;
    private final Consumer<Command> send;
    private final Map<String, EventRecorder> kubelets;
    private final ScheduledExecutorService executor;
    private final KubeletConfig kubelet;
    private final NodeShape shape;
    private final Clock clock;
    private final NodeSimSettings settings;
    /** What runs in each pod's containers, by pod uid. */
    private final Map<String, PodRun> runs = new HashMap<>();
    /** Pods whose sandbox this process created: their history is recorded from the start. */
    private final Set<String> started = new HashSet<>();
    private final AtomicLong transitions = new AtomicLong();
    private final PodIpAllocator addresses = new PodIpAllocator();
    private final Map<String, Planned> planned = new HashMap<>();
    private final Map<String, Sent> sent = new HashMap<>();
    /** Normalized images on each node. */
    private final Map<String, Set<String>> images = new HashMap<>();
    /** Pods waiting for their claims' volumes before their sandbox, by key: a claim or volume change looks at them. */
    private final Set<String> mounting = new HashSet<>();
    /** FailedMount reports made for a pod waiting for its claims, by uid. */
    private final Map<String, Long> mountReports = new HashMap<>();
    /** The ConfigMaps and Secrets pods refer to, as the view shows them. */
    private final ConfigReferences.Objects objects;
    private final ReferenceWaits waits = new ReferenceWaits();
    private final VolumeMounts mounts = new VolumeMounts();
    /** Each pod's memory use in bytes at the last usage sample, by uid: what the eviction manager ranks by. */
    private final Map<String, Long> measuredMemory = new HashMap<>();
    /** The nodes' static pods, when node-sim has a static pod directory; each node's mirror pods as last read. */
    private StaticPods statics;
    private final Map<String, Map<String, Pod>> staticMirrors = new HashMap<>();

    /**
     * @param send     sends a command (a failure is logged)
     * @param kubelets each node's event recorder (source kubelet, host the node), by node name
     * @param executor the simulator's one thread, where every evaluation runs
     */
    KubeletLoop(SimNodes nodes, ObjectView view, Consumer<Command> send, Map<String, EventRecorder> kubelets,
                ScheduledExecutorService executor, KubeletConfig kubelet, NodeShape shape, Clock clock,
                NodeSimSettings settings) {
        this.nodes = nodes;
        this.view = view;
        this.send = send;
        this.kubelets = kubelets;
        this.executor = executor;
        this.kubelet = kubelet;
        this.shape = shape;
        this.clock = clock;
        this.settings = settings;
        this.objects = ConfigReferences.Objects.byKey(key -> view.get(key).map(ObjectChanged::getObject));
    }

    /** Runs the static pods of {@code dir} ({@link StaticPods}) on every node; before the first evaluation. */
    void withStaticPods(java.nio.file.Path dir) {
        this.statics = new StaticPods(dir);
    }

    /** Reads each owned node's static pod manifests and brings its mirror pods to them. */
    void syncStaticPods() {
        if (statics == null) {
            return;
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        for (String name : nodes.owned()) {
            SimNode n = nodes.get(name);
            Optional<ObjectChanged> node = view.get(nodeKey(n));
            if (nodes.isFailed(name) || node.isEmpty()) {
                continue;
            }
            Map<String, Pod> desired = statics.mirrors(name, node.get().getUid(), now);
            staticMirrors.put(name, desired);
            statics.sync(name, desired, StaticPods.mirrorsOn(view, name), cmdFor(n)).forEach(send);
        }
    }

    /** Pod status updates sent so far (each one a transition the kubelet reported). */
    long transitions() {
        return transitions.get();
    }

    // ---- what the usage sampler reads and does

    @Override
    public Optional<PodRun> runOf(String podUid) {
        return Optional.ofNullable(runs.get(podUid));
    }

    @Override
    public void oomKill(String podKey, String container, Instant now) {
        view.get(podKey).map(c -> runs.get(c.getUid())).ifPresent(run -> {
            run.oomKill(container, now);
            executor.execute(() -> NodeSimulator.safely(() -> evaluate(podKey)));
        });
    }

    /** The pods' memory use as the last sample measured it (bytes, by pod uid). */
    void measured(String podUid, long memoryBytes) {
        measuredMemory.put(podUid, memoryBytes);
    }

    // ---- a node comes and goes

    /** Picks up the node's pods from their stored status: their addresses are kept, and each pod is evaluated. */
    void takeOver(SimNode n) {
        for (ObjectChanged c : podsBoundTo(n.name())) {
            Pod pod = (Pod) c.getObject();
            String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
            if (ip != null && !Boolean.TRUE.equals(pod.getSpec().getHostNetwork())) {
                addresses.addressFor(c.getUid(), n.podSubnet(), ip); // new pods get other addresses
            }
        }
        evaluatePodsOn(n.name());
    }

    /** Evaluates every pod bound to the node (a failed node picks its pods up where they are). */
    void evaluatePodsOn(String nodeName) {
        for (ObjectChanged c : podsBoundTo(nodeName)) {
            evaluate(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
        }
    }

    /** Lets a node go to another instance: forgets its pods' runs without touching the node or its pods. */
    void letGo(String nodeName) {
        for (ObjectChanged c : podsBoundTo(nodeName)) {
            String key = Keys.of(c.getKind(), c.getNamespace(), c.getName());
            cancel(key);
            sent.remove(key);
            runs.remove(c.getUid());
            measuredMemory.remove(c.getUid());
            started.remove(c.getUid());
            addresses.release(c.getUid());
            mounting.remove(key);
            mountReports.remove(c.getUid());
            waits.stop(key);
            mounts.forget(c.getUid());
        }
    }

    /** The pod is gone from the view: its run, its address and any planned evaluation go too. */
    void forget(String key, String uid) {
        cancel(key);
        sent.remove(key);
        addresses.release(uid);
        runs.remove(uid);
        measuredMemory.remove(uid);
        started.remove(uid);
        mounting.remove(key);
        mountReports.remove(uid);
        waits.stop(key);
        mounts.forget(uid);
        LOG.debug("node-sim: {} gone", key);
    }

    /** A claim or volume changed: the pods waiting for their claims' volumes are looked at again. */
    void volumesChanged() {
        for (String key : List.copyOf(mounting)) {
            evaluate(key);
        }
    }

    /**
     * A ConfigMap or Secret (by view key) appeared or changed: the pods waiting while they refer to it try again now,
     * their volumes or their containers' environment.
     */
    void referenceChanged(String objectKey) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        for (String podKey : waits.waitingOn(objectKey)) {
            view.get(podKey).map(c -> runs.get(c.getUid())).ifPresent(run -> run.recheckReferences(now));
            evaluate(podKey);
        }
    }

    // ---- one pod

    /**
     * Reads the pod and moves it on: the sandbox (after admission) when it has none, else its {@link PodRun} advanced to
     * now, whose status is sent when it differs from the stored one, and whose next change is planned. A deleted pod
     * whose containers all stopped and whose terminal phase is stored is removed (grace 0).
     */
    void evaluate(String key) {
        Optional<ObjectChanged> change = view.get(key);
        if (change.isEmpty()) {
            cancel(key);
            sent.remove(key);
            return;
        }
        Pod pod = (Pod) change.get().getObject();
        SimNode node = pod.getSpec() == null ? null : nodes.get(pod.getSpec().getNodeName());
        if (node == null || nodes.isFailed(node.name()) || !nodes.owns(node.name())) {
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
        Pod base = pod; // the status the run's report builds on
        if (statics != null && StaticPods.isMirror(pod)) {
            Map<String, Pod> desired = staticMirrors.getOrDefault(node.name(), Map.of());
            if (deleting && statics.current(pod, desired)) { // deleted through the API: the static pod goes on
                statics.keep(pod, runs.remove(uid));
                cancel(key);
                act(key, pod, node, cmdFor(node).delete(Kinds.POD, pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(), 0L, uid));
                return;
            }
            Optional<StaticPods.Kept> kept = run == null && !deleting ? statics.adopt(pod) : Optional.empty();
            if (kept.isPresent()) {
                run = kept.get().run();
                runs.put(uid, run);
                base = Pod.newBuilder(pod).setStatus(kept.get().status()).build();
                String ip = base.getStatus() == null ? null : base.getStatus().getPodIP();
                if (ip != null && !Boolean.TRUE.equals(pod.getSpec().getHostNetwork())) {
                    addresses.addressFor(uid, node.podSubnet(), ip);
                }
            }
        }
        if (run == null && !PodLifecycle.hasSandbox(pod)) {
            if (deleting) {
                removeIfAllowed(key, pod, node);
            } else if (!terminal) {
                Optional<Pod> rejected = PodLifecycle.admitted(pod) ? Optional.empty() // admitted once, as a kubelet
                        : view.get(nodeKey(node)).map(c -> nodes.pressures((Node) c.getObject()))
                        .flatMap(p -> NodePressure.reject(pod, p, now))
                        .or(() -> NodeAdmission.reject(pod, podsOn(node.name(), uid), shape, now));
                if (rejected.isPresent()) {
                    kubelets.get(node.name()).record(EventNotice.warning(ObjectReferences.of(pod),
                            rejected.get().getStatus().getReason(), rejected.get().getStatus().getMessage()));
                    act(key, pod, node, cmdFor(node).updateStatus(rejected.get()));
                } else if (!volumesReady(key, pod, node, now)) {
                    return;
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
            Instant since = PodLifecycle.sandboxReadyAt(pod) == null ? now : PodLifecycle.sandboxReadyAt(pod);
            run = PodRun.start(pod, kubelet, images.computeIfAbsent(node.name(), k -> new HashSet<>()), objects, since);
            runs.put(uid, run);
            if (!started.remove(uid)) {
                run.resume(pod, now); // POD-12.12: a termination in progress starts over with its full grace period
                run.takeEvents(); // a restarted kubelet does not record again what happened before it came back
            }
        }
        run.advanceTo(pod, now);
        EventRecorder recorder = kubelets.get(node.name());
        run.takeEvents().forEach(recorder::record);
        if (run.waitingOnReferences()) {
            waits.waiting(key, ConfigReferences.referencedKeys(pod));
        } else {
            waits.stop(key);
        }
        PodStatus next = run.status(base);
        if (!next.equals(pod.getStatus())) {
            act(key, pod, node, cmdFor(node).updateStatus(Pod.newBuilder(pod).setStatus(next).build()));
            transitions.incrementAndGet();
        } else if (deleting && run.finished()) {
            removeIfAllowed(key, pod, node);
        }
        plan(key, run.nextChangeAt().orElse(null), now);
    }

    /**
     * Whether the admitted pod's volumes are set up, so its sandbox can be created. If not, the pod is reported
     * ContainerCreating without an address and the next look planned: a failing ConfigMap, Secret or projected volume
     * records FailedMount per attempt ({@link VolumeMounts}); a claim not ready yet, once per podAttachAndMountTimeout
     * of waiting ({@link ClaimMounts}).
     */
    private boolean volumesReady(String key, Pod pod, SimNode node, Instant now) {
        String uid = pod.getMetadata().getUid();
        Optional<ClaimMounts.Unready> claims = ClaimMounts.unready(pod, view);
        Optional<Instant> retry = mounts.setUp(pod, objects, now, kubelets.get(node.name())::record);
        if (claims.isEmpty() && retry.isEmpty()) {
            waits.stop(key);
            mounting.remove(key);
            mountReports.remove(uid);
            return true;
        }
        waits.waiting(key, ConfigReferences.referencedKeys(pod));
        Pod waiting = PodLifecycle.waitingForVolumes(pod, node.internalIP(), now);
        if (!waiting.getStatus().equals(pod.getStatus())) {
            act(key, pod, node, cmdFor(node).updateStatus(waiting));
            transitions.incrementAndGet();
        }
        Instant next = retry.orElse(null);
        if (claims.isPresent()) {
            mounting.add(key);
            Instant since = waiting.getStatus().getStartTime();
            long reported = mountReports.getOrDefault(uid, 0L);
            long due = ClaimMounts.reportsDue(since, now);
            if (due > reported) {
                kubelets.get(node.name()).record(EventNotice.warning(ObjectReferences.of(pod), "FailedMount",
                        claims.get().message()));
                mountReports.put(uid, due);
                reported = due;
            }
            Instant report = ClaimMounts.nextReportAt(since, reported);
            next = next == null || report.isBefore(next) ? report : next;
        } else {
            mounting.remove(key);
            mountReports.remove(uid);
        }
        plan(key, next, now);
        return false;
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

    private PodLifecycle.PodHost host(Pod pod, SimNode node) {
        String existing = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        String ip = Boolean.TRUE.equals(pod.getSpec().getHostNetwork()) ? node.internalIP()
                : addresses.addressFor(pod.getMetadata().getUid(), node.podSubnet(), existing).orElse(null);
        return new PodLifecycle.PodHost(node.name(), node.internalIP(), ip);
    }

    // ---- the eviction manager

    /**
     * One round of the eviction manager on every node under memory pressure: the first candidate of
     * {@link PressureEviction#next} is killed at once (a hard eviction) and reported Failed, reason Evicted.
     */
    void evictUnderPressure() {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        for (String name : nodes.owned()) {
            SimNode n = nodes.get(name);
            Optional<Node> node = view.get(nodeKey(n)).map(c -> (Node) c.getObject());
            if (nodes.isFailed(name) || node.isEmpty() || !nodes.pressures(node.get()).contains(NodePressure.Kind.MEMORY)) {
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
            PressureEviction.next(running, p -> {
                Long measured = measuredMemory.get(p.getMetadata().getUid());
                return measured != null ? measured : PressureEviction.usage(p);
            }).ifPresent(victim -> {
                String key = Keys.of(Kinds.POD.kind(), victim.getMetadata().getNamespace(), victim.getMetadata().getName());
                EventRecorder events = kubelets.get(name);
                events.record(EventNotice.warning(ObjectReferences.node(name),
                        "EvictionThresholdMet", "Attempting to reclaim memory"));
                Pod evicted = PressureEviction.evicted(victim, now);
                events.record(EventNotice.warning(ObjectReferences.of(victim), "Evicted",
                        evicted.getStatus().getMessage()));
                LOG.info("node-sim: {} evicts {} under memory pressure", name, key);
                cancel(key);
                runs.remove(victim.getMetadata().getUid()); // its containers are killed: nothing more to run
                act(key, victim, n, cmdFor(n).updateStatus(evicted));
                transitions.incrementAndGet();
            });
        }
    }

    // ---- commands and their retries, planned evaluations

    private Commands cmdFor(SimNode node) {
        return nodes.commands(node);
    }

    private void act(String key, Pod pod, SimNode node, Command command) {
        String rv = pod.getMetadata().getResourceVersion();
        LOG.debug("node-sim: {} {} {} at resourceVersion {}", node.name(), command.getVerb(), key, rv);
        Sent before = sent.get(key);
        int attempt = before != null && (before.resourceVersion().equals(rv) || before.resourceVersion().equals("retry:" + rv))
                ? before.attempts() + 1 : 1;
        sent.put(key, new Sent(rv, attempt));
        send.accept(command);
        executor.schedule(() -> NodeSimulator.safely(() -> recheck(key, rv)), settings.retryAfter().toMillis(),
                TimeUnit.MILLISECONDS);
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
            NodeSimulator.safely(() -> evaluate(key));
        }, delay, TimeUnit.MILLISECONDS)));
    }

    private void cancel(String key) {
        Planned p = planned.remove(key);
        if (p != null) {
            p.task().cancel(false);
        }
    }

    // ---- the view

    /** Pods on the node that hold resources (admitted, not finished), except {@code uid}. */
    private List<Pod> podsOn(String nodeName, String uid) {
        List<Pod> out = new ArrayList<>();
        for (ObjectChanged c : view.snapshot(ObjectView.PODS_BY_NODE, nodeName, null, x -> true).items()) {
            Pod p = (Pod) c.getObject();
            if (p.getSpec() != null && nodeName.equals(p.getSpec().getNodeName()) && !uid.equals(c.getUid())
                    && (PodLifecycle.hasSandbox(p) || PodLifecycle.admitted(p))) {
                String ph = p.getStatus().getPhase();
                if (!"Succeeded".equals(ph) && !"Failed".equals(ph)) {
                    out.add(p);
                }
            }
        }
        return out;
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
}
