package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.model.Container;
import io.eventplane.model.EphemeralContainer;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.nodesim.ContainerRun.Phase;
import io.eventplane.nodesim.ContainerRun.Role;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The containers of one pod on a simulated node: a discrete-event simulation of what a kubelet and its container
 * runtime do, driven only by the time it is given ({@link #advanceTo}), the pod as the API stores it (deletion, readiness
 * gates) and the programs the pod declares ({@link PodBehavior} from its annotations, {@link Stages} from node-sim's
 * stage file). Deterministic: the same pod, configuration and images
 * on the node give the same history, whatever the clock is; it holds no threads and does no I/O.
 *
 * <p>This class owns the pod as a whole, as the kubelet's pod sync does: the clock of the simulation, whose turn it is
 * (init containers in order, then the app and ephemeral containers), the restart policy, termination and the
 * deadline, and the phase. Each container's own steps are its {@link ContainerRun} (image, start, postStart, run,
 * back-off, stop), its probes {@link ProbeSchedule}, the stages {@link PodStages}, and what is reported
 * {@link PodStatusWriter}.
 *
 * <p>Covers (spec/pods.md): phases (POD-3), container states and reasons (POD-4), restart policy and CrashLoopBackOff
 * (POD-5), the kubelet's conditions and readiness gates (POD-6), startup, liveness and readiness probes with their
 * timing fields (POD-7), init containers in order (POD-8), sidecars (POD-9), termination with preStop, SIGTERM, the grace
 * period and its 2 s extension (POD-12), a restarted kubelet's fresh grace period (POD-12.12, {@link #resume}),
 * postStart hooks (POD-4.3), and activeDeadlineSeconds (POD-8.11). Image pulls may be slow or fail
 * (ErrImagePull, ImagePullBackOff). A container whose environment refers to a missing ConfigMap, Secret or key waits in
 * CreateContainerConfigError ({@link ConfigReferences}), looked up at each attempt in the objects it is given.
 *
 * <p>Not thread-safe: one owner advances it.
 */
public final class PodRun {
    private final KubeletConfig config;
    private final Set<String> imagesOnNode;
    private final ConfigReferences.Objects objects;
    private final SplittableRandom random;
    private final PodStages stages;
    private final String uid;
    private final String podName;
    private final String namespace;
    private final String restartPolicy;
    /** When the sandbox was ready ({@code status.startTime}): what activeDeadlineSeconds counts from. */
    private final Instant startTime;
    private Long deadlineSeconds;
    private Instant deadlineAt;
    private final long terminationGraceSeconds;
    private final List<ContainerRun> init = new ArrayList<>();
    private final List<ContainerRun> apps = new ArrayList<>();
    private final List<ContainerRun> ephemeral = new ArrayList<>();
    private final List<EventNotice> events = new ArrayList<>();
    private ObjectReference podRef;
    private Instant cursor;
    private boolean initialized;
    private boolean initFailed;
    private boolean deadlineExceeded;
    private boolean stoppingSidecars;
    private Instant termStartAt;
    private long graceSeconds;
    private boolean terminating;
    private Instant podKillAt;
    private Instant finishedAt;

    private PodRun(Pod pod, KubeletConfig config, Set<String> imagesOnNode, ConfigReferences.Objects objects,
                   Instant startTime) {
        this.config = config;
        this.imagesOnNode = imagesOnNode;
        this.objects = objects;
        ObjectMeta meta = pod.getMetadata();
        this.uid = meta.getUid();
        this.podName = meta.getName();
        this.namespace = meta.getNamespace();
        this.random = new SplittableRandom(config.seed() ^ (uid == null ? 0 : uid.hashCode() * 0x9E3779B97F4A7C15L));
        this.podRef = ObjectReferences.of(pod);
        PodSpec spec = pod.getSpec();
        this.restartPolicy = spec.getRestartPolicy() == null ? "Always" : spec.getRestartPolicy();
        this.stages = new PodStages(config, meta, restartPolicy);
        this.terminationGraceSeconds = spec.getTerminationGracePeriodSeconds() == null ? 30
                : spec.getTerminationGracePeriodSeconds();
        this.startTime = startTime;
        this.deadlineSeconds = spec.getActiveDeadlineSeconds();
        this.deadlineAt = deadlineSeconds == null ? null : startTime.plusSeconds(deadlineSeconds);
        for (Container k : list(spec.getInitContainers())) {
            init.add(container(pod, k, "Always".equals(k.getRestartPolicy()) ? Role.SIDECAR : Role.INIT));
        }
        for (Container k : list(spec.getContainers())) {
            apps.add(container(pod, k, Role.APP));
        }
        this.cursor = startTime;
    }

    private ContainerRun container(Pod pod, Container k, Role role) {
        try {
            PodBehavior declared = PodBehavior.of(pod.getMetadata().getAnnotations(), k.getName());
            RunDefaults defaults = config.runDefaults() == null ? RunDefaults.NEVER : config.runDefaults();
            DeclaredUsage usage = DeclaredUsage.of(pod.getMetadata(), restartPolicy, k, role,
                    list(pod.getSpec().getContainers()).size(), config.stages() == null ? null : config.stages().usage());
            return new ContainerRun(this, k, role, declared.withDefaultRun(defaults.forContainer(role, restartPolicy)),
                    usage, null);
        } catch (PodBehavior.InvalidAnnotation e) {
            return new ContainerRun(this, k, role, null, null, e.getMessage());
        }
    }

    /**
     * The pod's containers from the moment its sandbox was ready ({@code status.startTime}).
     *
     * @param imagesOnNode the node's images (normalized); the run adds what it pulls
     */
    public static PodRun start(Pod pod, KubeletConfig config, Set<String> imagesOnNode, Instant startTime) {
        return start(pod, config, imagesOnNode, ConfigReferences.Objects.none(), startTime);
    }

    /** As {@link #start(Pod, KubeletConfig, Set, Instant)}, reading the ConfigMaps and Secrets it refers to in {@code objects}. */
    static PodRun start(Pod pod, KubeletConfig config, Set<String> imagesOnNode, ConfigReferences.Objects objects,
                        Instant startTime) {
        PodRun run = new PodRun(pod, config, imagesOnNode, objects, startTime);
        run.reconcile(startTime);
        run.armStages(startTime);
        return run;
    }

    // ---- time

    /** Everything that happens up to {@code now}, seeing the pod as the API shows it now (its deletion, mostly). */
    public void advanceTo(Pod pod, Instant now) {
        podRef = ObjectReferences.of(pod);
        ObjectMeta meta = pod.getMetadata();
        if (termStartAt == null && meta.getDeletionTimestamp() != null) {
            graceSeconds = meta.getDeletionGracePeriodSeconds() == null ? 0 : meta.getDeletionGracePeriodSeconds();
            Instant asked = meta.getDeletionTimestamp().minusSeconds(graceSeconds);
            termStartAt = asked.isBefore(cursor) ? cursor : asked;
        }
        runUntil(now);
        if (addEphemeral(pod) | applyUpdates(pod)) {
            reconcile(cursor);
            armStages(cursor);
            runUntil(now); // what the update makes due now (a deadline already passed)
        }
        if (stages.relabel(meta)) {
            armStages(cursor);
        }
    }

    private void runUntil(Instant now) {
        int guard = 0;
        while (true) {
            Instant t = nextChangeAt().orElse(null);
            if (t == null || t.isAfter(now)) {
                break;
            }
            if (++guard > 100_000) {
                throw new IllegalStateException("pod " + namespace + "/" + podName + " does not settle at " + t);
            }
            cursor = t;
            if (!terminating && termStartAt != null && !termStartAt.isAfter(t)) {
                startTermination(t);
            }
            if (deadlineAt != null && !deadlineExceeded && !terminating && !deadlineAt.isAfter(t) && !terminal()) {
                exceedDeadline(t);
            }
            for (ContainerRun c : all()) {
                if (c.due != null && !c.due.isAfter(t)) {
                    c.due = null;
                    c.step(t);
                }
            }
            reconcile(t);
            armStages(t);
        }
        if (now.isAfter(cursor)) {
            cursor = now;
        }
    }

    /**
     * POD-2.13, POD-2.9: the updates a pod accepts reach its run when the kubelet sees them (now). A changed
     * activeDeadlineSeconds counts from {@code status.startTime} again (one already passed fails the pod now, reason
     * DeadlineExceeded); a changed image of an app container or sidecar restarts that container with the new image,
     * whatever the restart policy, as the kubelet does when a container's definition changes. A regular init
     * container's new image is not run (POD-2.10: the pod is not restarted).
     */
    private boolean applyUpdates(Pod pod) {
        boolean changed = false;
        Long seconds = pod.getSpec().getActiveDeadlineSeconds();
        if (!java.util.Objects.equals(seconds, deadlineSeconds)) {
            deadlineSeconds = seconds;
            deadlineAt = seconds == null ? null : max(startTime.plusSeconds(seconds), cursor);
            changed = true;
        }
        if (terminating || deadlineExceeded || terminal()) {
            return changed; // a pod being stopped or finished starts nothing new
        }
        changed |= ContainerUpdates.redefine(init, pod.getSpec().getInitContainers(), cursor);
        changed |= ContainerUpdates.redefine(apps, pod.getSpec().getContainers(), cursor);
        return changed;
    }

    /**
     * A restarted kubelet picks up this pod (a run just {@link #start started} from its {@code status.startTime}) at
     * {@code now}. POD-12.12: if the pod was being terminated, its processes were still being waited for, so the
     * termination starts over now with the full grace period; the history before is replayed as if undeleted. A pod
     * already stored as finished is replayed as it was.
     */
    public void resume(Pod pod, Instant now) {
        String stored = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        boolean finishedBefore = "Succeeded".equals(stored) || "Failed".equals(stored);
        if (pod.getMetadata().getDeletionTimestamp() != null && !finishedBefore && termStartAt == null) {
            Pod undeleted = Pod.newBuilder(pod).setMetadata(ObjectMeta.newBuilder(pod.getMetadata())
                    .setDeletionTimestamp(null).setDeletionGracePeriodSeconds(null).build()).build();
            advanceTo(undeleted, now);
        }
        advanceTo(pod, now);
    }

    /** POD-11: ephemeral containers added to the pod (through its subresource) are run once, never restarted. */
    private boolean addEphemeral(Pod pod) {
        boolean added = false;
        for (EphemeralContainer e : list(pod.getSpec().getEphemeralContainers())) {
            if (ephemeral.stream().noneMatch(c -> c.name().equals(e.getName()))) {
                Container k = Container.newBuilder().setName(e.getName()).setImage(e.getImage())
                        .setImagePullPolicy(e.getImagePullPolicy()).setEnv(e.getEnv()).setEnvFrom(e.getEnvFrom()).build();
                ContainerRun c = container(pod, k, Role.EPHEMERAL);
                if (terminating || terminal()) {
                    c.phase = Phase.STOPPED;
                }
                ephemeral.add(c);
                added = true;
            }
        }
        return added;
    }

    private void armStages(Instant t) {
        stages.arm(all(), t, this::phase, terminating);
    }

    /** When the next change is due, if any is. */
    public Optional<Instant> nextChangeAt() {
        Instant next = null;
        for (ContainerRun c : all()) {
            next = min(next, c.due);
        }
        if (!terminating && termStartAt != null) {
            next = min(next, termStartAt);
        }
        if (deadlineAt != null && !deadlineExceeded && !terminating && !terminal()) {
            next = min(next, deadlineAt);
        }
        return Optional.ofNullable(next);
    }

    /** Some container waits in CreateContainerConfigError for a ConfigMap, Secret or key it refers to. */
    public boolean waitingOnReferences() {
        return all().stream().anyMatch(ContainerRun::waitingOnReference);
    }

    /** An object the pod refers to appeared or changed: the containers waiting for one try again at {@code now}. */
    public void recheckReferences(Instant now) {
        Instant at = now.isBefore(cursor) ? cursor : now;
        for (ContainerRun c : all()) {
            if (c.waitingOnReference() && (c.due == null || c.due.isAfter(at))) {
                c.due = at;
            }
        }
    }

    /**
     * The container's memory use went above its limit at {@code t} (a workload's load, which only the sampler sees):
     * the kernel OOM-kills it, as for its own declared use. The next {@link #advanceTo} takes the step.
     */
    public void oomKill(String container, Instant t) {
        Instant at = t.isBefore(cursor) ? cursor : t;
        for (ContainerRun c : all()) {
            if (c.name().equals(container) && c.running()) {
                c.end(at, ContainerRun.KILLED, "OOMKilled", null);
                c.due = at;
            }
        }
    }

    /** The Events recorded since the last call, in order. */
    public List<EventNotice> takeEvents() {
        List<EventNotice> out = List.copyOf(events);
        events.clear();
        return out;
    }

    /** Deleted, and every container has stopped: the kubelet writes the final phase, then removes the pod. */
    public boolean finished() {
        return finishedAt != null;
    }

    // ---- the pod

    private void reconcile(Instant t) {
        if (terminating || deadlineExceeded) {
            stopSidecarsInTurn(t);
            checkFinished(t);
            return;
        }
        if (initFailed) {
            stoppingSidecars = true;
            for (ContainerRun c : all()) {
                if (!c.running() && c.phase != Phase.DONE) {
                    c.phase = Phase.STOPPED;
                    c.due = null;
                }
            }
            stopSidecarsInTurn(t);
            return;
        }
        if (!initialized) {
            for (ContainerRun c : init) {
                if (c.phase == Phase.IDLE) {
                    c.begin(t); // a sidecar whose image is present may be started at once
                }
                boolean complete = c.role == Role.SIDECAR ? c.startedOnce
                        : c.phase == Phase.DONE && c.terminated != null && c.terminated.getExitCode() == 0;
                if (!complete) {
                    return;
                }
            }
            initialized = true;
        }
        for (ContainerRun c : apps) {
            if (c.phase == Phase.IDLE) {
                c.begin(t);
            }
        }
        for (ContainerRun c : ephemeral) {
            if (c.phase == Phase.IDLE) {
                c.begin(t);
            }
        }
        if (!apps.isEmpty() && apps.stream().allMatch(c -> c.phase == Phase.DONE)) {
            stoppingSidecars = true; // POD-9.7: sidecars do not keep a finished pod alive
            stopSidecarsInTurn(t);
        }
    }

    /** POD-5.2, POD-5.4, POD-9.5: whether this exit is followed by a restart in place. */
    boolean restarts(ContainerRun c, int code) {
        if (terminating || deadlineExceeded || initFailed) {
            return false;
        }
        return switch (c.role) {
            case SIDECAR -> !stoppingSidecars;
            case INIT -> code != 0 && !"Never".equals(restartPolicy);
            case APP -> "Always".equals(restartPolicy) || ("OnFailure".equals(restartPolicy) && code != 0);
            case EPHEMERAL -> false;
        };
    }

    /** A container killed because its definition changed starts again with the new one unless the pod is stopping. */
    boolean restartsRedefined(ContainerRun c) {
        return !terminating && !deadlineExceeded && !initFailed && !(c.role == Role.SIDECAR && stoppingSidecars);
    }

    /** POD-9.8: sidecars get SIGTERM once every app container has stopped, in reverse spec order, one at a time. */
    private void stopSidecarsInTurn(Instant t) {
        if (apps.stream().anyMatch(ContainerRun::running)) {
            return;
        }
        for (int i = init.size() - 1; i >= 0; i--) {
            ContainerRun c = init.get(i);
            if (c.role != Role.SIDECAR) {
                continue;
            }
            if (c.running() && c.signalled) {
                return; // the one stopping now
            }
            if (c.running()) {
                c.signal(t, t);
                return;
            }
            if (c.phase != Phase.DONE) {
                c.phase = Phase.STOPPED;
                c.due = null;
            }
        }
    }

    /** POD-12: the pod was deleted. preStop, SIGTERM to the app containers, the grace period, its 2 s extension. */
    private void startTermination(Instant t) {
        terminating = true;
        podKillAt = t.plusSeconds(graceSeconds);
        for (ContainerRun c : all()) {
            c.ready = false;
            if (c.running() && graceSeconds > 0 && c.hasPreStop()
                    && c.behavior.preStopDuration().compareTo(Duration.ofSeconds(graceSeconds)) > 0) {
                podKillAt = t.plusSeconds(graceSeconds + 2); // POD-12.5: a one-off extension for a slow preStop
            }
        }
        for (ContainerRun c : all()) {
            if (!c.running()) {
                if (c.phase != Phase.DONE) {
                    c.phase = Phase.STOPPED;
                    c.due = null;
                }
            } else if (c.role != Role.SIDECAR) {
                Instant termAt = graceSeconds > 0 && c.hasPreStop() ? t.plus(c.behavior.preStopDuration()) : t;
                c.signal(t, termAt);
            }
        }
        stopSidecarsInTurn(t);
        checkFinished(t);
    }

    private void exceedDeadline(Instant t) {
        deadlineExceeded = true;
        events.add(EventNotice.normal(podRef, "DeadlineExceeded",
                "Pod was active on the node longer than the specified deadline"));
        for (ContainerRun c : all()) {
            if (c.running()) {
                c.endAt = null;
                c.end(t, ContainerRun.KILLED, "Error", null);
                c.exit(t);
            } else if (c.phase != Phase.DONE) {
                c.phase = Phase.STOPPED;
                c.due = null;
            }
        }
    }

    private void checkFinished(Instant t) {
        if (finishedAt == null && terminating && all().stream().noneMatch(ContainerRun::running)) {
            finishedAt = t;
        }
    }

    private boolean terminal() {
        String p = phase();
        return "Succeeded".equals(p) || "Failed".equals(p);
    }

    /** POD-3.13: the phase from the containers (sidecars excluded). */
    public String phase() {
        boolean anyRunning = init.stream().anyMatch(ContainerRun::running) || apps.stream().anyMatch(ContainerRun::running);
        if (deadlineExceeded) {
            return "Failed";
        }
        if (initFailed) {
            return anyRunning ? "Pending" : "Failed";
        }
        if (finishedAt != null) {
            return apps.stream().allMatch(c -> c.terminated != null && c.terminated.getExitCode() == 0)
                    ? "Succeeded" : "Failed";
        }
        if (apps.stream().anyMatch(c -> !c.everRan)) {
            return "Pending";
        }
        if (!anyRunning && apps.stream().allMatch(c -> c.phase == Phase.DONE)) {
            return apps.stream().allMatch(c -> c.terminated.getExitCode() == 0) ? "Succeeded" : "Failed";
        }
        return "Running";
    }

    /** The pod's status as the kubelet reports it at the run's current time, built on the stored one. */
    public PodStatus status(Pod pod) {
        return PodStatusWriter.status(pod, this);
    }

    // ---- what its containers ask of the pod (ContainerRun, PodStages)

    void record(EventNotice event) {
        events.add(event);
    }

    ObjectReference podRef() {
        return podRef;
    }

    /** The pod as the kubelet names it in messages: {@code name_namespace(uid)}. */
    String describe() {
        return podName + "_" + namespace + "(" + uid + ")";
    }

    String uid() {
        return uid;
    }

    KubeletConfig config() {
        return config;
    }

    /** Why the container's environment cannot be built now (the kubelet's message), if it cannot. */
    Optional<String> environmentError(Container spec) {
        return ConfigReferences.environmentError(namespace, spec, objects);
    }

    /** The node's images (normalized); a pull adds to them. */
    Set<String> imagesOnNode() {
        return imagesOnNode;
    }

    /** The pod's source of random delays (pull durations): one per pod, drawn from in the order of events. */
    SplittableRandom random() {
        return random;
    }

    PodStages stages() {
        return stages;
    }

    boolean hasInitContainers() {
        return !init.isEmpty();
    }

    long terminationGraceSeconds() {
        return terminationGraceSeconds;
    }

    /** Deleted, and its containers are being stopped. */
    boolean terminating() {
        return terminating;
    }

    /** When the containers still running get SIGKILL, once the pod is being terminated. */
    Instant killAt() {
        return podKillAt;
    }

    /** An init container failed for good (restartPolicy Never): the whole pod fails (POD-8.5, W-I3). */
    void initContainerFailed() {
        initFailed = true;
    }

    // ---- what the status writer reads (PodStatusWriter)

    /** The run's current time. */
    Instant now() {
        return cursor;
    }

    List<ContainerRun> initContainers() {
        return init;
    }

    List<ContainerRun> appContainers() {
        return apps;
    }

    List<ContainerRun> ephemeralContainers() {
        return ephemeral;
    }

    /** Every init container has completed: the app containers' turn has come. */
    boolean initialized() {
        return initialized;
    }

    boolean deadlineExceeded() {
        return deadlineExceeded;
    }

    // ---- helpers

    private List<ContainerRun> all() {
        List<ContainerRun> out = new ArrayList<>(init.size() + apps.size() + ephemeral.size());
        out.addAll(init);
        out.addAll(apps);
        out.addAll(ephemeral);
        return out;
    }

    static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    static Instant min(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
    }

    static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
