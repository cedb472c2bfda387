package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.decide.PodRules;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.LifecycleHandler;
import io.eventplane.model.ObjectReference;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One container of a {@link PodRun} and the steps it takes on its own, as a kubelet's container runtime manager takes
 * them: pull the image or find it present (ErrImagePull, ImagePullBackOff), build its environment (a missing ConfigMap,
 * Secret or key: CreateContainerConfigError, tried again every 10 s), create and start the container, run its
 * postStart hook (POD-4.3), run the program until it exits (its probes planned by {@link ProbeSchedule}, its
 * {@link Stages} fired by {@link PodStages}), back off (CrashLoopBackOff) and restart, and stop it on SIGTERM or SIGKILL.
 *
 * <p>Its pod decides what concerns every container: whose turn it is, the termination and its kill time, the deadline,
 * and whether an exit is followed by a restart ({@link PodRun#restarts}). The fields are the container's state: the
 * pod, the probes, the stages and {@link PodStatusWriter} read them; only its pod steps it.
 */
final class ContainerRun {

    enum Role { INIT, SIDECAR, APP, EPHEMERAL }

    enum Phase { IDLE, PULLING, PULL_ERROR, PULL_BACKOFF, CONFIG_ERROR, POST_START, RUNNING, EXITED, BACKOFF, DONE, STOPPED }

    /** The exit code of a container killed with SIGKILL. */
    static final int KILLED = 137;
    /** The kubelet's pod worker syncs a pod again this long after a failed sync (backOffPeriod). */
    static final Duration CONFIG_RETRY = Duration.ofSeconds(10);

    private final PodRun pod;
    /** Its definition; an update of the pod's image replaces it ({@link ContainerUpdates}). */
    Container spec;
    final Role role;
    final PodBehavior behavior;
    /** What its program uses (null when its annotations cannot be read: it is never created then). */
    final DeclaredUsage usage;
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
    /** The image and image id of the instance created last (what its status shows), null before the first one. */
    String runImage;
    String runImageID;
    /** Being killed because its definition changed: its exit is followed by a start with the new definition. */
    boolean redefined;
    /** The next start looks for its (new) image first, as a first start does. */
    boolean ensureImageOnRestart;
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

    ContainerRun(PodRun pod, Container spec, Role role, PodBehavior behavior, DeclaredUsage usage, String configError) {
        this.pod = pod;
        this.spec = spec;
        this.role = role;
        this.behavior = behavior;
        this.usage = usage;
        this.configError = configError;
    }

    String name() {
        return spec.getName();
    }

    boolean running() {
        return phase == Phase.RUNNING;
    }

    /** Waits in CreateContainerConfigError for a ConfigMap, Secret or key (not for an unreadable annotation). */
    boolean waitingOnReference() {
        return phase == Phase.CONFIG_ERROR && configError == null;
    }

    ObjectReference ref() {
        String path = role == Role.EPHEMERAL ? "spec.ephemeralContainers{" + name() + "}"
                : ObjectReferences.containerPath(role != Role.APP, name());
        return ObjectReferences.withFieldPath(pod.podRef(), path);
    }

    // ---- the next step

    /** The step that was due at {@code t}. */
    void step(Instant t) {
        switch (phase) {
            case PULLING -> pulled(t);
            case PULL_ERROR -> {
                phase = Phase.PULL_BACKOFF;
                waitReason = "ImagePullBackOff";
                waitMessage = "Back-off pulling image \"" + spec.getImage() + "\"";
                pod.record(EventNotice.normal(ref(), "BackOff", waitMessage));
                pod.record(EventNotice.warning(ref(), "Failed", "Error: ImagePullBackOff"));
                due = restartAt;
            }
            case PULL_BACKOFF -> pull(t);
            case RUNNING -> running(t);
            case EXITED -> {
                if (!t.isBefore(restartAt)) {
                    restart(t);
                } else {
                    phase = Phase.BACKOFF;
                    waitReason = "CrashLoopBackOff";
                    waitMessage = "back-off " + KubeletEvents.go(Duration.between(terminated.getFinishedAt(),
                            restartAt)) + " restarting failed container=" + name() + " pod=" + pod.describe();
                    pod.record(EventNotice.warning(ref(), "BackOff", "Back-off restarting failed container "
                            + name() + " in pod " + pod.describe()));
                    due = restartAt;
                }
            }
            case BACKOFF -> restart(t);
            case POST_START -> postStartDone(t);
            case CONFIG_ERROR -> ensureImage(t); // the next sync tries again, image first, as the kubelet does
            default -> {
            }
        }
    }

    // ---- image and start

    /** The kubelet's turn comes to this container: pull its image (or find it present), then create and start it. */
    void begin(Instant t) {
        if (configError != null) {
            phase = Phase.CONFIG_ERROR;
            waitReason = "CreateContainerConfigError";
            waitMessage = configError;
            pod.record(EventNotice.warning(ref(), "Failed", "Error: " + configError));
            return;
        }
        // kubectl shows Init:i/n, then PodInitializing, for a pod with init containers; ContainerCreating without
        waitReason = pod.hasInitContainers() ? "PodInitializing" : "ContainerCreating";
        waitMessage = null;
        ensureImage(t);
    }

    /** Pulls the image, or finds it present, then creates the container. */
    void ensureImage(Instant t) {
        String image = spec.getImage() == null ? "" : spec.getImage();
        String policy = spec.getImagePullPolicy() != null ? spec.getImagePullPolicy()
                : PodRules.imagePullPolicy(image);
        boolean present = "Never".equals(policy)
                || ("IfNotPresent".equals(policy) && pod.imagesOnNode().contains(PodLifecycle.normalizeImage(image)));
        if (present && !Boolean.TRUE.equals(behavior.imageMissing())) {
            pod.record(EventNotice.normal(ref(), "Pulled", "Container image \"" + image + "\" already present on machine"));
            imageID = PodLifecycle.imageID(image);
            create(t);
        } else {
            pull(t);
        }
    }

    private void pull(Instant t) {
        phase = Phase.PULLING;
        pullStart = t;
        due = t.plus(pullDuration());
        pod.record(EventNotice.normal(ref(), "Pulling", "Pulling image \"" + spec.getImage() + "\""));
    }

    private Duration pullDuration() {
        if (behavior.imagePullDuration() != null) {
            return behavior.imagePullDuration();
        }
        KubeletConfig config = pod.config();
        Optional<ImageRules.Rule> rule = config.images().find(spec.getImage() == null ? "" : spec.getImage());
        if (rule.isPresent() && rule.get().pullDuration() != null) {
            return rule.get().pullDuration();
        }
        long min = config.pullMin().toMillis();
        long max = config.pullMax().toMillis();
        return Duration.ofMillis(max == min ? min : pod.random().nextLong(min, max + 1));
    }

    private boolean missing() {
        if (behavior.imageMissing() != null) {
            return behavior.imageMissing();
        }
        Optional<ImageRules.Rule> rule = pod.config().images().find(spec.getImage() == null ? "" : spec.getImage());
        return rule.isPresent() && rule.get().pullDuration() == null;
    }

    private void pulled(Instant t) {
        String image = spec.getImage();
        if (missing()) {
            pullFailures++;
            phase = Phase.PULL_ERROR;
            waitReason = "ErrImagePull";
            String normalized = PodLifecycle.normalizeImage(image);
            waitMessage = "rpc error: code = NotFound desc = failed to pull and unpack image \"" + normalized
                    + "\": failed to resolve reference \"" + normalized + "\": " + normalized + ": not found";
            pod.record(EventNotice.warning(ref(), "Failed", "Failed to pull image \"" + image + "\": " + waitMessage));
            pod.record(EventNotice.warning(ref(), "Failed", "Error: ErrImagePull"));
            restartAt = t.plus(pod.config().pullBackoff(pullFailures));
            due = t.plus(pod.config().syncDelay());
            return;
        }
        Duration took = Duration.between(pullStart, t);
        String normalized = PodLifecycle.normalizeImage(image);
        pod.imagesOnNode().add(normalized);
        imageID = PodLifecycle.imageID(image);
        pod.record(EventNotice.normal(ref(), "Pulled", "Successfully pulled image \"" + image + "\" in "
                + KubeletEvents.go(took) + " (" + KubeletEvents.go(took) + " including waiting). Image size: "
                + KubeletEvents.imageSize(normalized) + " bytes."));
        create(t);
    }

    /**
     * Creates and starts the container, once its environment can be built (else CreateContainerConfigError with the
     * kubelet's message and a Failed event, until the next sync). POD-4.3: with a postStart hook the kubelet runs the
     * hook right after the start and reports the container Running only once it has finished; until then the status
     * shows what it showed before.
     */
    private void create(Instant s) {
        Optional<String> environment = pod.environmentError(spec);
        if (environment.isPresent()) {
            phase = Phase.CONFIG_ERROR;
            waitReason = "CreateContainerConfigError";
            waitMessage = environment.get();
            pod.record(EventNotice.warning(ref(), "Failed", "Error: " + waitMessage));
            due = s.plus(CONFIG_RETRY);
            return;
        }
        if (terminated != null) { // a restart: the run that ended becomes the last state
            last = terminated;
            restartCount++;
        }
        containerID = PodLifecycle.containerID(pod.uid(), name() + "/" + restartCount);
        runImage = spec.getImage();
        runImageID = imageID;
        signalled = false;
        pod.record(EventNotice.normal(ref(), "Created", "Created container: " + name()));
        pod.record(EventNotice.normal(ref(), "Started", "Started container " + name()));
        if (hasPostStart()) {
            phase = Phase.POST_START;
            hookStart = s;
            hookFailed = false;
            started = false;
            ready = false;
            due = s.plus(behavior.postStartDuration());
            return;
        }
        run(s, s);
    }

    /** The postStart hook has finished: the container runs, or (the hook failed) the kubelet kills it. */
    private void postStartDone(Instant t) {
        if (hookFailed) {
            everRan = true;
            exit(t); // killed after a failed hook: the restart policy applies
            return;
        }
        if (!behavior.postStartFails()) {
            run(hookStart, t);
            return;
        }
        // kubelet: FailedPostStartHook, then it kills the container as it would on deletion (preStop, SIGTERM, grace)
        hookFailed = true;
        pod.record(EventNotice.warning(ref(), "FailedPostStartHook", postStartFailure()));
        pod.record(EventNotice.normal(ref(), "Killing", "FailedPostStartHook"));
        PodBehavior b = behavior;
        long grace = pod.terminationGraceSeconds();
        Instant termAt = grace > 0 && hasPreStop() ? t.plus(b.preStopDuration()) : t;
        Instant killAt = t.plusSeconds(grace);
        Duration shutdown = b.shutdownDuration() != null ? b.shutdownDuration() : pod.config().shutdownDefault();
        Instant exits = b.ignoresSigterm() ? null : termAt.plus(shutdown);
        runStart = hookStart;
        if (exits == null || exits.isAfter(killAt)) {
            endAt = killAt;
            endCode = KILLED;
            endReason = "Error";
        } else {
            endAt = exits;
            endCode = b.exitCodeOnSigterm();
            endReason = b.exitCodeOnSigterm() == 0 ? "Completed" : "Error";
        }
        endWhy = null;
        due = endAt;
    }

    private String postStartFailure() {
        LifecycleHandler h = spec.getLifecycle().getPostStart();
        String where = " for Container \"" + name() + "\" in Pod \"" + pod.describe() + "\"";
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

    // ---- running

    /** A new run of the program from {@code s}, seen at {@code now}, with its probe outcomes worked out in advance. */
    private void run(Instant s, Instant now) {
        phase = Phase.RUNNING;
        everRan = true;
        waitReason = null;
        waitMessage = null;
        terminated = null;
        runStart = s;
        started = false;
        ready = false;
        PodBehavior b = behavior;
        endAt = null;
        endWhy = null;
        end(b.runDuration() == null ? null : s.plus(b.runDuration()), b.exitCode(),
                b.exitCode() == 0 ? "Completed" : "Error", null);
        end(b.oomAfter() == null ? null : s.plus(b.oomAfter()), KILLED, "OOMKilled", null);
        Long limit = DeclaredUsage.memoryLimit(spec);
        if (usage != null && limit != null) { // its declared memory use crosses its limit: the kernel kills it
            usage.memory().firstAbove(limit).ifPresent(d -> end(s.plus(d), KILLED, "OOMKilled", null));
        }
        ProbeSchedule.plan(this, s);
        if (startedAt != null && !startedAt.isAfter(now)) {
            started = true;
            startedOnce = true;
        }
        if (readyAt != null && !readyAt.isAfter(now) && !pod.terminating()
                && (unreadyAt == null || now.isBefore(unreadyAt))) {
            ready = true;
        }
        pod.stages().clear(this);
        due = runningDue(now);
    }

    /** The run ends at {@code at} with this code and reason, unless something already ends it earlier. */
    void end(Instant at, int code, String reason, String why) {
        if (at != null && (endAt == null || at.isBefore(endAt))) {
            endAt = at;
            endCode = code;
            endReason = reason;
            endWhy = why;
        }
    }

    private void running(Instant t) {
        pod.stages().fire(this, t);
        if (!started && startedAt != null && !t.isBefore(startedAt)) {
            started = true;
            startedOnce = true;
        }
        if (!ready && !pod.terminating() && readyAt != null && !t.isBefore(readyAt)
                && (unreadyAt == null || t.isBefore(unreadyAt))) {
            ready = true;
        }
        if (ready && unreadyAt != null && !t.isBefore(unreadyAt)) {
            ready = false;
            readyAt = null; // it stays unready until something (a stage) makes its probe succeed again
            unreadyAt = null;
            pod.record(EventNotice.warning(ref(), "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503"));
        }
        if (endAt != null && !t.isBefore(endAt)) {
            exit(t);
            return;
        }
        due = runningDue(t);
    }

    /** The next moment something happens to the running container: started, ready, unready, a stage, its end. */
    Instant runningDue(Instant t) {
        Instant next = endAt;
        if (!started && startedAt != null) {
            next = PodRun.min(next, startedAt);
        }
        if (!ready && !pod.terminating() && readyAt != null && (unreadyAt == null || readyAt.isBefore(unreadyAt))) {
            next = PodRun.min(next, readyAt);
        }
        if (unreadyAt != null && (ready || (readyAt != null && readyAt.isBefore(unreadyAt)))) {
            next = PodRun.min(next, unreadyAt);
        }
        if (stageDue != null) {
            for (Instant d : stageDue) {
                next = PodRun.min(next, d);
            }
        }
        return next != null && next.isBefore(t) ? t : next;
    }

    // ---- the end of a run

    /** The program has ended at {@code t}: terminated, then restarted after a back-off if its pod says so. */
    void exit(Instant t) {
        if ("liveness".equals(endWhy) || "startup".equals(endWhy)) {
            String probe = "liveness".equals(endWhy) ? "Liveness" : "Startup";
            pod.record(EventNotice.warning(ref(), "Unhealthy", probe + " probe failed: HTTP probe failed with statuscode: 500"));
            pod.record(EventNotice.normal(ref(), "Killing", "Container " + name() + " failed " + endWhy
                    + " probe, will be restarted"));
        }
        terminated = ContainerStateTerminated.newBuilder().setExitCode(endCode).setReason(endReason)
                .setStartedAt(runStart).setFinishedAt(t).setContainerID(containerID).build();
        started = false;
        ready = false;
        due = null;
        if (redefined) {
            redefined = false;
            if (pod.restartsRedefined(this)) { // at once: its back-off belongs to the old definition
                crashes = 0;
                restartAt = t;
                ensureImageOnRestart = true;
                phase = Phase.EXITED;
                due = t.plus(pod.config().syncDelay());
                return;
            }
            phase = Phase.DONE;
            return;
        }
        if (!pod.restarts(this, endCode)) {
            phase = Phase.DONE;
            if (role == Role.INIT && endCode != 0) {
                pod.initContainerFailed(); // restartPolicy Never: the whole pod fails (POD-8.5, W-I3)
            }
            return;
        }
        KubeletConfig config = pod.config();
        boolean ranLong = !Duration.between(runStart, t).minus(config.backoffReset()).isNegative();
        crashes = ranLong ? 1 : crashes + 1;
        restartAt = t.plus(config.backoff(crashes));
        phase = Phase.EXITED;
        due = t.plus(config.syncDelay());
    }

    private void restart(Instant t) {
        if (ensureImageOnRestart) {
            ensureImageOnRestart = false;
            ensureImage(t);
            return;
        }
        pod.record(EventNotice.normal(ref(), "Pulled", "Container image \"" + spec.getImage()
                + "\" already present on machine"));
        create(t);
    }

    /** SIGTERM at {@code termAt} (after preStop); exits after its shutdown time, or SIGKILL at the pod's kill time. */
    void signal(Instant now, Instant termAt) {
        signalled = true;
        ready = false;
        pod.record(EventNotice.normal(ref(), "Killing", "Stopping container " + name()));
        PodBehavior b = behavior;
        Duration shutdown = b.shutdownDuration() != null ? b.shutdownDuration() : pod.config().shutdownDefault();
        Instant exits = b.ignoresSigterm() ? null : termAt.plus(shutdown);
        Instant killAt = pod.killAt();
        if (killAt != null && (exits == null || exits.isAfter(killAt))) {
            end(killAt, KILLED, "Error", null);
        } else if (exits != null) {
            end(exits, b.exitCodeOnSigterm(), b.exitCodeOnSigterm() == 0 ? "Completed" : "Error", null);
        }
        due = runningDue(now);
    }

    PodRun pod() {
        return pod;
    }

    private boolean hasPostStart() {
        return spec.getLifecycle() != null && spec.getLifecycle().getPostStart() != null;
    }

    boolean hasPreStop() {
        return spec.getLifecycle() != null && spec.getLifecycle().getPreStop() != null;
    }
}
