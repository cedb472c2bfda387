package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.decide.PodRules;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateRunning;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodReadinessGate;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Probe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * <p>Covers (spec/pods.md): phases (POD-3), container states and reasons (POD-4), restart policy and CrashLoopBackOff
 * (POD-5), the kubelet's conditions and readiness gates (POD-6), startup, liveness and readiness probes with their
 * timing fields (POD-7), init containers in order (POD-8), sidecars (POD-9), termination with preStop, SIGTERM, the grace
 * period and its 2 s extension (POD-12), a restarted kubelet's fresh grace period (POD-12.12, {@link #resume}),
 * postStart hooks (POD-4.3), and activeDeadlineSeconds (POD-8.11). Image pulls may be slow or fail
 * (ErrImagePull, ImagePullBackOff).
 *
 * <p>Not thread-safe: one owner advances it.
 */
public final class PodRun {

    enum Role { INIT, SIDECAR, APP, EPHEMERAL }

    enum Phase { IDLE, PULLING, PULL_ERROR, PULL_BACKOFF, CONFIG_ERROR, POST_START, RUNNING, EXITED, BACKOFF, DONE, STOPPED }

    private static final int KILLED = 137;

    final class Ctr {
        final Container spec;
        final Role role;
        final PodBehavior b;
        final String configError;
        Phase phase = Phase.IDLE;
        Instant due;
        String waitReason;
        String waitMessage;
        boolean everRan;
        boolean startedOnce;
        boolean started;
        boolean ready;
        int restartCount;
        int crashes;
        int pullFailures;
        Instant pullStart;
        String imageID = "";
        String containerID;
        // the current run
        Instant runStart;
        Instant startedAt;
        Instant readyAt;
        Instant unreadyAt;
        Instant endAt;
        int endCode;
        String endReason;
        String endWhy;
        boolean signalled;
        Instant restartAt;
        ContainerStateTerminated terminated;
        ContainerStateTerminated last;
        // the stages of the current run: when each pending one fires, and which fired since they last matched
        Instant[] stageDue;
        boolean[] stageFired;
        // the postStart hook of the current run: when it began; whether it failed and the container is being killed
        Instant hookStart;
        boolean hookFailed;

        Ctr(Container spec, Role role, PodBehavior b, String configError) {
            this.spec = spec;
            this.role = role;
            this.b = b;
            this.configError = configError;
        }

        String name() {
            return spec.getName();
        }

        boolean running() {
            return phase == Phase.RUNNING;
        }

        ObjectReference ref() {
            String path = role == Role.EPHEMERAL ? "spec.ephemeralContainers{" + name() + "}"
                    : ObjectReferences.containerPath(role != Role.APP, name());
            return ObjectReferences.withFieldPath(podRef, path);
        }
    }

    private final KubeletConfig config;
    private final Set<String> imagesOnNode;
    private final SplittableRandom random;
    private final List<Stages.Stage> stages;
    private final SplittableRandom stageRandom;
    private Map<String, String> labels;
    private Map<String, String> annotations;
    private final String uid;
    private final String podName;
    private final String namespace;
    private final String restartPolicy;
    private final Instant startTime;
    private final Instant deadlineAt;
    private final long terminationGraceSeconds;
    private final List<Ctr> init = new ArrayList<>();
    private final List<Ctr> apps = new ArrayList<>();
    private final List<Ctr> ephemeral = new ArrayList<>();
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

    private PodRun(Pod pod, KubeletConfig config, Set<String> imagesOnNode, Instant startTime) {
        this.config = config;
        this.imagesOnNode = imagesOnNode;
        ObjectMeta meta = pod.getMetadata();
        this.uid = meta.getUid();
        this.podName = meta.getName();
        this.namespace = meta.getNamespace();
        this.random = new SplittableRandom(config.seed() ^ (uid == null ? 0 : uid.hashCode() * 0x9E3779B97F4A7C15L));
        this.podRef = ObjectReferences.of(pod);
        this.stages = config.stages() == null ? List.of() : config.stages().stages();
        // its own source, so that stage draws leave the pull durations of a run without stages as they were
        this.stageRandom = new SplittableRandom(config.seed() * 31 + (uid == null ? 0 : uid.hashCode()) ^ 0x5DEECE66DL);
        this.labels = map(meta.getLabels());
        this.annotations = map(meta.getAnnotations());
        PodSpec spec = pod.getSpec();
        this.restartPolicy = spec.getRestartPolicy() == null ? "Always" : spec.getRestartPolicy();
        this.terminationGraceSeconds = spec.getTerminationGracePeriodSeconds() == null ? 30
                : spec.getTerminationGracePeriodSeconds();
        this.startTime = startTime;
        this.deadlineAt = spec.getActiveDeadlineSeconds() == null ? null
                : startTime.plusSeconds(spec.getActiveDeadlineSeconds());
        for (Container k : list(spec.getInitContainers())) {
            init.add(container(pod, k, "Always".equals(k.getRestartPolicy()) ? Role.SIDECAR : Role.INIT));
        }
        for (Container k : list(spec.getContainers())) {
            apps.add(container(pod, k, Role.APP));
        }
        this.cursor = startTime;
    }

    private Ctr container(Pod pod, Container k, Role role) {
        try {
            return new Ctr(k, role, PodBehavior.of(pod.getMetadata().getAnnotations(), k.getName()), null);
        } catch (PodBehavior.InvalidAnnotation e) {
            return new Ctr(k, role, null, e.getMessage());
        }
    }

    /**
     * The pod's containers from the moment its sandbox was ready ({@code status.startTime}).
     *
     * @param imagesOnNode the node's images (normalized); the run adds what it pulls
     */
    public static PodRun start(Pod pod, KubeletConfig config, Set<String> imagesOnNode, Instant startTime) {
        PodRun run = new PodRun(pod, config, imagesOnNode, startTime);
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
            for (Ctr c : all()) {
                if (c.due != null && !c.due.isAfter(t)) {
                    c.due = null;
                    step(c, t);
                }
            }
            reconcile(t);
            armStages(t);
        }
        if (now.isAfter(cursor)) {
            cursor = now;
        }
        if (addEphemeral(pod)) {
            reconcile(cursor);
            armStages(cursor);
        }
        if (!stages.isEmpty() && (!labels.equals(map(meta.getLabels())) || !annotations.equals(map(meta.getAnnotations())))) {
            labels = map(meta.getLabels());
            annotations = map(meta.getAnnotations());
            armStages(cursor);
        }
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
        for (io.eventplane.model.EphemeralContainer e : list(pod.getSpec().getEphemeralContainers())) {
            if (ephemeral.stream().noneMatch(c -> c.name().equals(e.getName()))) {
                Container k = Container.newBuilder().setName(e.getName()).setImage(e.getImage())
                        .setImagePullPolicy(e.getImagePullPolicy()).build();
                Ctr c = container(pod, k, Role.EPHEMERAL);
                if (terminating || terminal()) {
                    c.phase = Phase.STOPPED;
                }
                ephemeral.add(c);
                added = true;
            }
        }
        return added;
    }

    /** When the next change is due, if any is. */
    public Optional<Instant> nextChangeAt() {
        Instant next = null;
        for (Ctr c : all()) {
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

    // ---- one container's next step

    private void step(Ctr c, Instant t) {
        switch (c.phase) {
            case PULLING -> pulled(c, t);
            case PULL_ERROR -> {
                c.phase = Phase.PULL_BACKOFF;
                c.waitReason = "ImagePullBackOff";
                c.waitMessage = "Back-off pulling image \"" + c.spec.getImage() + "\"";
                events.add(EventNotice.normal(c.ref(), "BackOff", c.waitMessage));
                events.add(EventNotice.warning(c.ref(), "Failed", "Error: ImagePullBackOff"));
                c.due = c.restartAt;
            }
            case PULL_BACKOFF -> pull(c, t);
            case RUNNING -> running(c, t);
            case EXITED -> {
                if (!t.isBefore(c.restartAt)) {
                    restart(c, t);
                } else {
                    c.phase = Phase.BACKOFF;
                    c.waitReason = "CrashLoopBackOff";
                    c.waitMessage = "back-off " + KubeletEvents.go(Duration.between(c.terminated.getFinishedAt(),
                            c.restartAt)) + " restarting failed container=" + c.name() + " pod=" + podName + "_"
                            + namespace + "(" + uid + ")";
                    events.add(EventNotice.warning(c.ref(), "BackOff", "Back-off restarting failed container "
                            + c.name() + " in pod " + podName + "_" + namespace + "(" + uid + ")"));
                    c.due = c.restartAt;
                }
            }
            case BACKOFF -> restart(c, t);
            case POST_START -> postStartDone(c, t);
            default -> {
            }
        }
    }

    /** The kubelet's turn comes to this container: pull its image (or find it present), then create and start it. */
    private void begin(Ctr c, Instant t) {
        if (c.configError != null) {
            c.phase = Phase.CONFIG_ERROR;
            c.waitReason = "CreateContainerConfigError";
            c.waitMessage = c.configError;
            events.add(EventNotice.warning(c.ref(), "Failed", "Error: " + c.configError));
            return;
        }
        // kubectl shows Init:i/n, then PodInitializing, for a pod with init containers; ContainerCreating without
        c.waitReason = init.isEmpty() ? "ContainerCreating" : "PodInitializing";
        c.waitMessage = null;
        String image = c.spec.getImage() == null ? "" : c.spec.getImage();
        String policy = c.spec.getImagePullPolicy() != null ? c.spec.getImagePullPolicy()
                : PodRules.imagePullPolicy(image);
        boolean present = "Never".equals(policy)
                || ("IfNotPresent".equals(policy) && imagesOnNode.contains(PodLifecycle.normalizeImage(image)));
        if (present && !Boolean.TRUE.equals(c.b.imageMissing())) {
            events.add(EventNotice.normal(c.ref(), "Pulled", "Container image \"" + image + "\" already present on machine"));
            c.imageID = PodLifecycle.imageID(image);
            create(c, t);
        } else {
            pull(c, t);
        }
    }

    private void pull(Ctr c, Instant t) {
        c.phase = Phase.PULLING;
        c.pullStart = t;
        c.due = t.plus(pullDuration(c));
        events.add(EventNotice.normal(c.ref(), "Pulling", "Pulling image \"" + c.spec.getImage() + "\""));
    }

    private Duration pullDuration(Ctr c) {
        if (c.b.imagePullDuration() != null) {
            return c.b.imagePullDuration();
        }
        Optional<ImageRules.Rule> rule = config.images().find(c.spec.getImage() == null ? "" : c.spec.getImage());
        if (rule.isPresent() && rule.get().pullDuration() != null) {
            return rule.get().pullDuration();
        }
        long min = config.pullMin().toMillis();
        long max = config.pullMax().toMillis();
        return Duration.ofMillis(max == min ? min : random.nextLong(min, max + 1));
    }

    private boolean missing(Ctr c) {
        if (c.b.imageMissing() != null) {
            return c.b.imageMissing();
        }
        Optional<ImageRules.Rule> rule = config.images().find(c.spec.getImage() == null ? "" : c.spec.getImage());
        return rule.isPresent() && rule.get().pullDuration() == null;
    }

    private void pulled(Ctr c, Instant t) {
        String image = c.spec.getImage();
        if (missing(c)) {
            c.pullFailures++;
            c.phase = Phase.PULL_ERROR;
            c.waitReason = "ErrImagePull";
            String normalized = PodLifecycle.normalizeImage(image);
            c.waitMessage = "rpc error: code = NotFound desc = failed to pull and unpack image \"" + normalized
                    + "\": failed to resolve reference \"" + normalized + "\": " + normalized + ": not found";
            events.add(EventNotice.warning(c.ref(), "Failed", "Failed to pull image \"" + image + "\": " + c.waitMessage));
            events.add(EventNotice.warning(c.ref(), "Failed", "Error: ErrImagePull"));
            c.restartAt = t.plus(config.pullBackoff(c.pullFailures));
            c.due = t.plus(config.syncDelay());
            return;
        }
        Duration took = Duration.between(c.pullStart, t);
        String normalized = PodLifecycle.normalizeImage(image);
        imagesOnNode.add(normalized);
        c.imageID = PodLifecycle.imageID(image);
        events.add(EventNotice.normal(c.ref(), "Pulled", "Successfully pulled image \"" + image + "\" in "
                + KubeletEvents.go(took) + " (" + KubeletEvents.go(took) + " including waiting). Image size: "
                + KubeletEvents.imageSize(normalized) + " bytes."));
        create(c, t);
    }

    /**
     * Creates and starts the container. POD-4.3: with a postStart hook the kubelet runs the hook right after the start
     * and reports the container Running only once it has finished; until then the status shows what it showed before.
     */
    private void create(Ctr c, Instant s) {
        c.containerID = PodLifecycle.containerID(uid, c.name() + "/" + c.restartCount);
        c.signalled = false;
        events.add(EventNotice.normal(c.ref(), "Created", "Created container: " + c.name()));
        events.add(EventNotice.normal(c.ref(), "Started", "Started container " + c.name()));
        if (hasPostStart(c)) {
            c.phase = Phase.POST_START;
            c.hookStart = s;
            c.hookFailed = false;
            c.started = false;
            c.ready = false;
            c.due = s.plus(c.b.postStartDuration());
            return;
        }
        run(c, s, s);
    }

    /** The postStart hook has finished: the container runs, or (the hook failed) the kubelet kills it. */
    private void postStartDone(Ctr c, Instant t) {
        if (c.hookFailed) {
            c.everRan = true;
            exit(c, t); // killed after a failed hook: the restart policy applies
            return;
        }
        if (!c.b.postStartFails()) {
            run(c, c.hookStart, t);
            return;
        }
        // kubelet: FailedPostStartHook, then it kills the container as it would on deletion (preStop, SIGTERM, grace)
        c.hookFailed = true;
        events.add(EventNotice.warning(c.ref(), "FailedPostStartHook", postStartFailure(c)));
        events.add(EventNotice.normal(c.ref(), "Killing", "FailedPostStartHook"));
        PodBehavior b = c.b;
        Instant termAt = terminationGraceSeconds > 0 && hasPreStop(c) ? t.plus(b.preStopDuration()) : t;
        Instant killAt = t.plusSeconds(terminationGraceSeconds);
        Duration shutdown = b.shutdownDuration() != null ? b.shutdownDuration() : config.shutdownDefault();
        Instant exits = b.ignoresSigterm() ? null : termAt.plus(shutdown);
        c.runStart = c.hookStart;
        if (exits == null || exits.isAfter(killAt)) {
            c.endAt = killAt;
            c.endCode = KILLED;
            c.endReason = "Error";
        } else {
            c.endAt = exits;
            c.endCode = b.exitCodeOnSigterm();
            c.endReason = b.exitCodeOnSigterm() == 0 ? "Completed" : "Error";
        }
        c.endWhy = null;
        c.due = c.endAt;
    }

    private String postStartFailure(Ctr c) {
        io.eventplane.model.LifecycleHandler h = c.spec.getLifecycle().getPostStart();
        String where = " for Container \"" + c.name() + "\" in Pod \"" + podName + "_" + namespace + "(" + uid + ")\"";
        if (h.getExec() != null && h.getExec().getCommand() != null) {
            List<String> cmd = h.getExec().getCommand();
            return "Exec lifecycle hook ([" + String.join(" ", cmd) + "])" + where + " failed - error: command '" + String.join(" ", cmd)
                    + "' exited with 1: , message: \"\"";
        }
        if (h.getHttpGet() != null) {
            String path = h.getHttpGet().getPath() == null ? "/" : h.getHttpGet().getPath();
            return "HTTP lifecycle hook (" + path + ")" + where + " failed - error: HTTP status code 500";
        }
        return "PostStartHook" + where + " failed";
    }

    /** A new run of the program from {@code s}, seen at {@code now}, with its probe outcomes worked out in advance. */
    private void run(Ctr c, Instant s, Instant now) {
        c.phase = Phase.RUNNING;
        c.everRan = true;
        c.waitReason = null;
        c.waitMessage = null;
        c.terminated = null;
        c.runStart = s;
        c.started = false;
        c.ready = false;
        PodBehavior b = c.b;
        boolean answers = true;
        c.endAt = null;
        c.endWhy = null;
        end(c, b.runDuration() == null ? null : s.plus(b.runDuration()), b.exitCode(),
                b.exitCode() == 0 ? "Completed" : "Error", null);
        end(c, b.oomAfter() == null ? null : s.plus(b.oomAfter()), KILLED, "OOMKilled", null);
        boolean probes = c.role != Role.INIT;
        // startupProbe: every other probe waits for it (POD-7.7, W-R8)
        Probe startup = probes ? c.spec.getStartupProbe() : null;
        c.startedAt = s;
        if (startup != null) {
            answers = answersWithin(b, startup);
            int ok = answers ? firstProbeAtOrAfter(s, startup, s.plus(b.startupAfter())) : Integer.MAX_VALUE;
            if (ok >= failureThreshold(startup)) {
                c.startedAt = null;
                end(c, probeAt(s, startup, failureThreshold(startup) - 1), KILLED, "Error", "startup");
            } else {
                c.startedAt = probeAt(s, startup, ok);
            }
        }
        Probe liveness = probes ? c.spec.getLivenessProbe() : null;
        if (liveness != null && c.startedAt != null && (b.livenessFailsAfter() != null || !answersWithin(b, liveness))) {
            Instant failFrom = answersWithin(b, liveness) ? s.plus(b.livenessFailsAfter()) : s;
            int first = firstProbeAtOrAfter(s, liveness, max(failFrom, c.startedAt));
            end(c, probeAt(s, liveness, first + failureThreshold(liveness) - 1), KILLED, "Error", "liveness");
        }
        Probe readiness = probes ? c.spec.getReadinessProbe() : null;
        c.readyAt = null;
        c.unreadyAt = null;
        if (c.role == Role.INIT || c.role == Role.EPHEMERAL) {
            c.readyAt = null;
        } else if (readiness == null) {
            c.readyAt = c.startedAt; // no readiness probe: ready once started (POD-7.7, W-R7)
        } else if (c.startedAt != null && answersWithin(b, readiness)) {
            int first = firstProbeAtOrAfter(s, readiness, max(s.plus(b.readyAfter()), c.startedAt));
            int success = Math.max(1, readiness.getSuccessThreshold() == null ? 1 : readiness.getSuccessThreshold());
            c.readyAt = probeAt(s, readiness, first + success - 1);
            if (b.unreadyAfter() != null) {
                int fail = firstProbeAtOrAfter(s, readiness, max(s.plus(b.unreadyAfter()), c.readyAt));
                c.unreadyAt = probeAt(s, readiness, fail + failureThreshold(readiness) - 1);
                if (!c.unreadyAt.isAfter(c.readyAt)) {
                    c.readyAt = null;
                }
            }
        }
        if (c.startedAt != null && !c.startedAt.isAfter(now)) {
            c.started = true;
            c.startedOnce = true;
        }
        if (c.readyAt != null && !c.readyAt.isAfter(now) && !terminating
                && (c.unreadyAt == null || now.isBefore(c.unreadyAt))) {
            c.ready = true;
        }
        c.stageDue = stages.isEmpty() ? null : new Instant[stages.size()];
        c.stageFired = stages.isEmpty() ? null : new boolean[stages.size()];
        c.due = runningDue(c, now);
    }

    private void end(Ctr c, Instant at, int code, String reason, String why) {
        if (at != null && (c.endAt == null || at.isBefore(c.endAt))) {
            c.endAt = at;
            c.endCode = code;
            c.endReason = reason;
            c.endWhy = why;
        }
    }

    private void running(Ctr c, Instant t) {
        fireStages(c, t);
        if (!c.started && c.startedAt != null && !t.isBefore(c.startedAt)) {
            c.started = true;
            c.startedOnce = true;
        }
        if (!c.ready && !terminating && c.readyAt != null && !t.isBefore(c.readyAt)
                && (c.unreadyAt == null || t.isBefore(c.unreadyAt))) {
            c.ready = true;
        }
        if (c.ready && c.unreadyAt != null && !t.isBefore(c.unreadyAt)) {
            c.ready = false;
            c.readyAt = null; // it stays unready until something (a stage) makes its probe succeed again
            c.unreadyAt = null;
            events.add(EventNotice.warning(c.ref(), "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503"));
        }
        if (c.endAt != null && !t.isBefore(c.endAt)) {
            exit(c, t);
            return;
        }
        c.due = runningDue(c, t);
    }

    private Instant runningDue(Ctr c, Instant t) {
        Instant next = c.endAt;
        if (!c.started && c.startedAt != null) {
            next = min(next, c.startedAt);
        }
        if (!c.ready && !terminating && c.readyAt != null && (c.unreadyAt == null || c.readyAt.isBefore(c.unreadyAt))) {
            next = min(next, c.readyAt);
        }
        if (c.unreadyAt != null && (c.ready || (c.readyAt != null && c.readyAt.isBefore(c.unreadyAt)))) {
            next = min(next, c.unreadyAt);
        }
        if (c.stageDue != null) {
            for (Instant d : c.stageDue) {
                next = min(next, d);
            }
        }
        return next != null && next.isBefore(t) ? t : next;
    }

    private void exit(Ctr c, Instant t) {
        if ("liveness".equals(c.endWhy) || "startup".equals(c.endWhy)) {
            String probe = "liveness".equals(c.endWhy) ? "Liveness" : "Startup";
            events.add(EventNotice.warning(c.ref(), "Unhealthy", probe + " probe failed: HTTP probe failed with statuscode: 500"));
            events.add(EventNotice.normal(c.ref(), "Killing", "Container " + c.name() + " failed " + c.endWhy
                    + " probe, will be restarted"));
        }
        c.terminated = ContainerStateTerminated.newBuilder().setExitCode(c.endCode).setReason(c.endReason)
                .setStartedAt(c.runStart).setFinishedAt(t).setContainerID(c.containerID).build();
        c.started = false;
        c.ready = false;
        c.due = null;
        if (!restarts(c, c.endCode)) {
            c.phase = Phase.DONE;
            if (c.role == Role.INIT && c.endCode != 0) {
                initFailed = true; // restartPolicy Never: the whole pod fails (POD-8.5, W-I3)
            }
            return;
        }
        boolean ranLong = !Duration.between(c.runStart, t).minus(config.backoffReset()).isNegative();
        c.crashes = ranLong ? 1 : c.crashes + 1;
        c.restartAt = t.plus(config.backoff(c.crashes));
        c.phase = Phase.EXITED;
        c.due = t.plus(config.syncDelay());
    }

    // ---- stages (Stages): what the program does next, declared

    /** Each running container against each stage: a stage it has come to match is set to fire after its delay. */
    private void armStages(Instant t) {
        if (stages.isEmpty()) {
            return;
        }
        String phase = null;
        for (Ctr c : all()) {
            if (!c.running() || c.stageDue == null) {
                continue;
            }
            if (phase == null) {
                phase = phase();
            }
            for (int i = 0; i < stages.size(); i++) {
                Stages.Stage stage = stages.get(i);
                if (!matches(stage.selector(), c, phase)) {
                    c.stageDue[i] = null;
                    c.stageFired[i] = false;
                } else if (!c.stageFired[i] && c.stageDue[i] == null) {
                    long ms = stage.delayMillis();
                    if (stage.jitterMillis() > 0) {
                        ms += stageRandom.nextLong(-stage.jitterMillis(), stage.jitterMillis() + 1);
                    }
                    c.stageDue[i] = t.plusMillis(Math.max(0, ms));
                }
            }
            c.due = runningDue(c, t);
        }
    }

    private boolean matches(Stages.Selector s, Ctr c, String phase) {
        for (Map.Entry<String, String> e : s.matchLabels().entrySet()) {
            if (!e.getValue().equals(labels.get(e.getKey()))) {
                return false;
            }
        }
        for (Map.Entry<String, String> e : s.matchAnnotations().entrySet()) {
            if (!e.getValue().equals(annotations.get(e.getKey()))) {
                return false;
            }
        }
        for (Stages.Expression x : s.matchExpressions()) {
            String value = switch (x.key()) {
                case POD_PHASE -> phase;
                case POD_NAMESPACE -> namespace;
                case POD_DELETING -> String.valueOf(terminating);
                case CONTAINER_NAME -> c.name();
                case CONTAINER_IMAGE -> c.spec.getImage() == null ? "" : c.spec.getImage();
                case CONTAINER_TYPE -> c.role.name().toLowerCase(java.util.Locale.ROOT);
                case CONTAINER_STARTED -> String.valueOf(c.started);
                case CONTAINER_READY -> String.valueOf(c.ready);
                case CONTAINER_RESTART_COUNT -> String.valueOf(c.restartCount);
            };
            if (!x.matches(value)) {
                return false;
            }
        }
        return true;
    }

    /** The stages due on this running container fire in file order; each draws its next step by weight. */
    private void fireStages(Ctr c, Instant t) {
        if (c.stageDue == null) {
            return;
        }
        for (int i = 0; i < stages.size(); i++) {
            if (c.stageDue[i] == null || c.stageDue[i].isAfter(t)) {
                continue;
            }
            c.stageDue[i] = null;
            c.stageFired[i] = true;
            apply(c, t, draw(stages.get(i)));
            if (c.endAt != null && !c.endAt.isAfter(t)) {
                return; // it exits now; what else was due is moot
            }
        }
    }

    private Stages.Next draw(Stages.Stage stage) {
        List<Stages.Next> next = stage.next();
        if (next.size() == 1) {
            return next.get(0);
        }
        long r = stageRandom.nextLong(stage.totalWeight());
        for (Stages.Next n : next) {
            r -= n.weight();
            if (r < 0) {
                return n;
            }
        }
        return next.get(next.size() - 1);
    }

    /** A step in the program's terms; the kubelet's rules (probes, restart policy, back-off) take it from there. */
    private void apply(Ctr c, Instant t, Stages.Next next) {
        boolean probes = c.role != Role.INIT && c.role != Role.EPHEMERAL;
        Probe readiness = probes ? c.spec.getReadinessProbe() : null;
        Probe liveness = probes ? c.spec.getLivenessProbe() : null;
        switch (next.action()) {
            case EXIT -> end(c, t, next.exitCode(), next.exitCode() == 0 ? "Completed" : "Error", null);
            case OOM_KILL -> end(c, t, KILLED, "OOMKilled", null);
            case UNREADY -> {
                if (readiness != null && c.ready) {
                    // the probes after now fail; failureThreshold of them make it unready
                    int k = firstProbeAtOrAfter(c.runStart, readiness, t.plusMillis(1));
                    c.unreadyAt = min(c.unreadyAt, probeAt(c.runStart, readiness, k + failureThreshold(readiness) - 1));
                } else if (readiness != null) {
                    c.readyAt = null;
                    c.unreadyAt = null;
                }
            }
            case READY -> {
                if (readiness != null && c.ready) {
                    c.unreadyAt = null;
                } else if (readiness != null && c.startedAt != null) {
                    int k = firstProbeAtOrAfter(c.runStart, readiness, max(t.plusMillis(1), c.startedAt));
                    int success = Math.max(1, readiness.getSuccessThreshold() == null ? 1
                            : readiness.getSuccessThreshold());
                    c.readyAt = probeAt(c.runStart, readiness, k + success - 1);
                    c.unreadyAt = null;
                }
            }
            case LIVENESS_FAILS -> {
                if (liveness != null && c.startedAt != null) {
                    int k = firstProbeAtOrAfter(c.runStart, liveness, max(t.plusMillis(1), c.startedAt));
                    end(c, probeAt(c.runStart, liveness, k + failureThreshold(liveness) - 1), KILLED, "Error",
                            "liveness");
                }
            }
            case NONE -> {
            }
        }
    }

    /** POD-5.2, POD-5.4, POD-9.5: whether this exit is followed by a restart in place. */
    private boolean restarts(Ctr c, int code) {
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

    private void restart(Ctr c, Instant t) {
        c.last = c.terminated;
        c.restartCount++;
        events.add(EventNotice.normal(c.ref(), "Pulled", "Container image \"" + c.spec.getImage()
                + "\" already present on machine"));
        create(c, t);
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
            for (Ctr c : all()) {
                if (!c.running() && c.phase != Phase.DONE) {
                    c.phase = Phase.STOPPED;
                    c.due = null;
                }
            }
            stopSidecarsInTurn(t);
            return;
        }
        if (!initialized) {
            for (Ctr c : init) {
                if (c.phase == Phase.IDLE) {
                    begin(c, t); // a sidecar whose image is present may be started at once
                }
                boolean complete = c.role == Role.SIDECAR ? c.startedOnce
                        : c.phase == Phase.DONE && c.terminated != null && c.terminated.getExitCode() == 0;
                if (!complete) {
                    return;
                }
            }
            initialized = true;
        }
        for (Ctr c : apps) {
            if (c.phase == Phase.IDLE) {
                begin(c, t);
            }
        }
        for (Ctr c : ephemeral) {
            if (c.phase == Phase.IDLE) {
                begin(c, t);
            }
        }
        if (!apps.isEmpty() && apps.stream().allMatch(c -> c.phase == Phase.DONE)) {
            stoppingSidecars = true; // POD-9.7: sidecars do not keep a finished pod alive
            stopSidecarsInTurn(t);
        }
    }

    /** POD-9.8: sidecars get SIGTERM once every app container has stopped, in reverse spec order, one at a time. */
    private void stopSidecarsInTurn(Instant t) {
        if (apps.stream().anyMatch(Ctr::running)) {
            return;
        }
        for (int i = init.size() - 1; i >= 0; i--) {
            Ctr c = init.get(i);
            if (c.role != Role.SIDECAR) {
                continue;
            }
            if (c.running() && c.signalled) {
                return; // the one stopping now
            }
            if (c.running()) {
                signal(c, t, t);
                return;
            }
            if (c.phase != Phase.DONE) {
                c.phase = Phase.STOPPED;
                c.due = null;
            }
        }
    }

    /** SIGTERM at {@code termAt} (after preStop); exits after its shutdown time, or SIGKILL at the pod's kill time. */
    private void signal(Ctr c, Instant now, Instant termAt) {
        c.signalled = true;
        c.ready = false;
        events.add(EventNotice.normal(c.ref(), "Killing", "Stopping container " + c.name()));
        PodBehavior b = c.b;
        Duration shutdown = b.shutdownDuration() != null ? b.shutdownDuration() : config.shutdownDefault();
        Instant exits = b.ignoresSigterm() ? null : termAt.plus(shutdown);
        if (podKillAt != null && (exits == null || exits.isAfter(podKillAt))) {
            end(c, podKillAt, KILLED, "Error", null);
        } else if (exits != null) {
            end(c, exits, b.exitCodeOnSigterm(), b.exitCodeOnSigterm() == 0 ? "Completed" : "Error", null);
        }
        c.due = runningDue(c, now);
    }

    /** POD-12: the pod was deleted. preStop, SIGTERM to the app containers, the grace period, its 2 s extension. */
    private void startTermination(Instant t) {
        terminating = true;
        podKillAt = t.plusSeconds(graceSeconds);
        for (Ctr c : all()) {
            c.ready = false;
            if (c.running() && graceSeconds > 0 && hasPreStop(c)
                    && c.b.preStopDuration().compareTo(Duration.ofSeconds(graceSeconds)) > 0) {
                podKillAt = t.plusSeconds(graceSeconds + 2); // POD-12.5: a one-off extension for a slow preStop
            }
        }
        for (Ctr c : all()) {
            if (!c.running()) {
                if (c.phase != Phase.DONE) {
                    c.phase = Phase.STOPPED;
                    c.due = null;
                }
            } else if (c.role != Role.SIDECAR) {
                Instant termAt = graceSeconds > 0 && hasPreStop(c) ? t.plus(c.b.preStopDuration()) : t;
                signal(c, t, termAt);
            }
        }
        stopSidecarsInTurn(t);
        checkFinished(t);
    }

    private void exceedDeadline(Instant t) {
        deadlineExceeded = true;
        events.add(EventNotice.normal(podRef, "DeadlineExceeded",
                "Pod was active on the node longer than the specified deadline"));
        for (Ctr c : all()) {
            if (c.running()) {
                c.endAt = null;
                end(c, t, KILLED, "Error", null);
                exit(c, t);
            } else if (c.phase != Phase.DONE) {
                c.phase = Phase.STOPPED;
                c.due = null;
            }
        }
    }

    private void checkFinished(Instant t) {
        if (finishedAt == null && terminating && all().stream().noneMatch(Ctr::running)) {
            finishedAt = t;
        }
    }

    private boolean terminal() {
        String p = phase();
        return "Succeeded".equals(p) || "Failed".equals(p);
    }

    /** POD-3.13: the phase from the containers (sidecars excluded). */
    public String phase() {
        boolean anyRunning = init.stream().anyMatch(Ctr::running) || apps.stream().anyMatch(Ctr::running);
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

    // ---- what the API shows

    /** The pod's status as the kubelet reports it at the run's current time, built on the stored one. */
    public PodStatus status(Pod pod) {
        PodStatus old = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        Instant now = cursor;
        String phase = phase();
        boolean done = "Succeeded".equals(phase) || "Failed".equals(phase);
        List<PodCondition> c = old.getConditions();
        c = set(c, "PodReadyToStartContainers", "True", null, null, now);
        List<String> incomplete = new ArrayList<>();
        for (Ctr k : init) {
            boolean complete = k.role == Role.SIDECAR ? k.startedOnce
                    : k.terminated != null && k.terminated.getExitCode() == 0 && k.phase == Phase.DONE;
            if (!complete && !initialized) {
                incomplete.add(k.name());
            }
        }
        c = initialized || init.isEmpty() ? set(c, "Initialized", "True", null, null, now)
                : set(c, "Initialized", "False", "ContainersNotInitialized",
                "containers with incomplete status: " + names(incomplete), now);
        List<String> unready = new ArrayList<>();
        for (Ctr k : init) {
            if (k.role == Role.SIDECAR && !k.ready) {
                unready.add(k.name());
            }
        }
        for (Ctr k : apps) {
            if (!k.ready) {
                unready.add(k.name());
            }
        }
        if (done) {
            c = set(c, "ContainersReady", "False", "PodCompleted", null, now);
            c = set(c, "Ready", "False", "PodCompleted", null, now);
        } else if (!unready.isEmpty()) {
            String message = "containers with unready status: " + names(unready);
            c = set(c, "ContainersReady", "False", "ContainersNotReady", message, now);
            c = set(c, "Ready", "False", "ContainersNotReady", message, now);
        } else {
            c = set(c, "ContainersReady", "True", null, null, now);
            String gate = unmetGate(pod.getSpec(), c);
            c = gate == null ? set(c, "Ready", "True", null, null, now)
                    : set(c, "Ready", "False", "ReadinessGatesNotReady", gate, now);
        }
        List<ContainerStatus> initStatuses = new ArrayList<>();
        init.forEach(k -> initStatuses.add(containerStatus(k)));
        List<ContainerStatus> appStatuses = new ArrayList<>();
        apps.forEach(k -> appStatuses.add(containerStatus(k)));
        PodStatus.Builder next = PodStatus.newBuilder(old)
                .setPhase(phase)
                .setConditions(c)
                .setInitContainerStatuses(init.isEmpty() ? null : initStatuses)
                .setContainerStatuses(appStatuses);
        if (!ephemeral.isEmpty()) {
            List<ContainerStatus> ephemeralStatuses = new ArrayList<>();
            ephemeral.forEach(k -> ephemeralStatuses.add(containerStatus(k)));
            next.setEphemeralContainerStatuses(ephemeralStatuses);
        }
        if (deadlineExceeded) {
            next.setReason("DeadlineExceeded").setMessage("Pod was active on the node longer than the specified deadline");
        }
        return next.build();
    }

    private ContainerStatus containerStatus(Ctr k) {
        ContainerState state;
        if (k.running()) {
            state = ContainerState.newBuilder().setRunning(ContainerStateRunning.newBuilder().setStartedAt(k.runStart)
                    .build()).build();
        } else if (k.terminated != null && k.phase != Phase.BACKOFF
                && !(k.phase == Phase.POST_START && k.waitReason != null)) {
            state = ContainerState.newBuilder().setTerminated(k.terminated).build();
        } else {
            String reason = k.waitReason;
            if (reason == null) {
                reason = k.role == Role.APP && !initialized || k.role != Role.APP && k.phase == Phase.IDLE
                        ? "PodInitializing" : "ContainerCreating";
            }
            state = ContainerState.newBuilder().setWaiting(ContainerStateWaiting.newBuilder().setReason(reason)
                    .setMessage(k.waitMessage).build()).build();
        }
        boolean completedInit = k.role == Role.INIT && k.terminated != null && k.terminated.getExitCode() == 0;
        return ContainerStatus.newBuilder().setName(k.name())
                .setState(state)
                .setLastState(k.last == null ? new ContainerState()
                        : ContainerState.newBuilder().setTerminated(k.last).build())
                .setReady(k.ready || completedInit)
                .setStarted(k.role == Role.INIT ? k.running() : k.started)
                .setRestartCount(k.restartCount)
                .setImage(PodLifecycle.normalizeImage(k.spec.getImage()))
                .setImageID(k.imageID)
                .setContainerID(k.containerID)
                .build();
    }

    // ---- helpers

    private List<Ctr> all() {
        List<Ctr> out = new ArrayList<>(init.size() + apps.size() + ephemeral.size());
        out.addAll(init);
        out.addAll(apps);
        out.addAll(ephemeral);
        return out;
    }

    private static boolean hasPostStart(Ctr c) {
        return c.spec.getLifecycle() != null && c.spec.getLifecycle().getPostStart() != null;
    }

    private static boolean hasPreStop(Ctr c) {
        return c.spec.getLifecycle() != null && c.spec.getLifecycle().getPreStop() != null;
    }

    private static boolean answersWithin(PodBehavior b, Probe p) {
        int timeout = Math.max(1, p.getTimeoutSeconds() == null ? 1 : p.getTimeoutSeconds());
        return b.probeResponseTime().compareTo(Duration.ofSeconds(timeout)) < 0;
    }

    private static int failureThreshold(Probe p) {
        return Math.max(1, p.getFailureThreshold() == null ? 3 : p.getFailureThreshold());
    }

    /** Probe k of a run that started at {@code s}: s + initialDelaySeconds + k * periodSeconds (POD-7.8, POD-7.10). */
    static Instant probeAt(Instant s, Probe p, int k) {
        long delay = p.getInitialDelaySeconds() == null ? 0 : p.getInitialDelaySeconds();
        return s.plusSeconds(delay + (long) k * period(p));
    }

    private static long period(Probe p) {
        return Math.max(1, p.getPeriodSeconds() == null ? 10 : p.getPeriodSeconds());
    }

    /** The index of the first probe at or after {@code t}. */
    static int firstProbeAtOrAfter(Instant s, Probe p, Instant t) {
        Instant first = probeAt(s, p, 0);
        if (!t.isAfter(first)) {
            return 0;
        }
        long ms = Duration.between(first, t).toMillis();
        long per = period(p) * 1000;
        return (int) Math.min(Integer.MAX_VALUE - 1000, (ms + per - 1) / per);
    }

    private static String unmetGate(PodSpec spec, List<PodCondition> conditions) {
        for (PodReadinessGate gate : list(spec.getReadinessGates())) {
            PodCondition c = null;
            for (PodCondition x : list(conditions)) {
                if (gate.getConditionType().equals(x.getType())) {
                    c = x;
                }
            }
            if (c == null) {
                return "corresponding condition of pod readiness gate \"" + gate.getConditionType() + "\" does not exist.";
            }
            if (!"True".equals(c.getStatus())) {
                return "the status of pod readiness gate \"" + gate.getConditionType() + "\" is not \"True\", but "
                        + c.getStatus();
            }
        }
        return null;
    }

    private static List<PodCondition> set(List<PodCondition> conditions, String type, String status, String reason,
                                          String message, Instant now) {
        return PodRules.setCondition(conditions, PodCondition.newBuilder().setType(type).setStatus(status)
                .setReason(reason).setMessage(message).setLastTransitionTime(now).build());
    }

    private static String names(List<String> names) {
        return "[" + String.join(" ", names) + "]";
    }

    private static Instant min(Instant a, Instant b) {
        return a == null ? b : b == null ? a : a.isBefore(b) ? a : b;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static Map<String, String> map(Map<String, String> m) {
        return m == null ? Map.of() : m;
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
