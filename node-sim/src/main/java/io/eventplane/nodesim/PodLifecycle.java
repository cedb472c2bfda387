package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.core.decide.PodRules;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateRunning;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.HostIP;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodIP;
import io.eventplane.model.PodReadinessGate;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * What a kubelet does next with one pod on its node, decided from the pod's current state alone (level-triggered,
 * like KWOK's stages: a selector over the current object, a delay, the next status or a delete):
 * <ol>
 *   <li>{@code create-sandbox}: bound and Pending without a sandbox: addresses, startTime, containers Waiting
 *       (ContainerCreating), PodReadyToStartContainers and Initialized True, ContainersReady and Ready False; at once.</li>
 *   <li>{@code start-containers}: Pending with a sandbox: containers Running and ready, every condition True, phase
 *       Running; after the start delay (the time the images take to pull). Events, per container, init containers
 *       first: Pulling and Pulled (or Pulled "already present"), Created, Started.</li>
 *   <li>{@code readiness}: Running, but Ready does not match the readiness gates (POD-6.6): Ready corrected; at once.</li>
 *   <li>{@code terminate}: deletionTimestamp set: delete with grace 0 after min(grace period, shutdown delay). Events:
 *       Killing for every running container.</li>
 * </ol>
 * Pure: the time, the random source and the images on the node are given; the Events to record come back as data
 * with the step ({@link KubeletEvents}).
 */
public final class PodLifecycle {

    /** What to send for the pod, and after how long. */
    public sealed interface Step permits UpdateStatus, Delete {
        String stage();

        Duration delay();

        /** The Events the kubelet records when it takes this step, in order. */
        List<EventNotice> events();
    }

    public static final String CREATE_SANDBOX = "create-sandbox";
    public static final String START_CONTAINERS = "start-containers";
    public static final String READINESS = "readiness";
    public static final String TERMINATE = "terminate";

    /** An UPDATE_STATUS carrying {@code pod} (with the resourceVersion it was decided on). */
    public record UpdateStatus(String stage, Pod pod, Duration delay, List<EventNotice> events) implements Step {
        public UpdateStatus(String stage, Pod pod, Duration delay) {
            this(stage, pod, delay, List.of());
        }
    }

    /** A DELETE with grace period 0 and the pod's uid as precondition. */
    public record Delete(String stage, String uid, Duration delay, List<EventNotice> events) implements Step {
        public Delete(String stage, String uid, Duration delay) {
            this(stage, uid, delay, List.of());
        }
    }

    /**
     * Where the pod runs: its node, the node's address, the pod's own address (null when the node has none left), and
     * the images already on the node (normalized, {@link #normalizeImage}).
     */
    public record PodHost(String nodeName, String hostIP, String podIP, Set<String> images) {
        public PodHost(String nodeName, String hostIP, String podIP) {
            this(nodeName, hostIP, podIP, Set.of());
        }
    }

    private final Duration startDelayMin;
    private final Duration startDelayMax;
    private final Duration shutdownDelay;
    private final RandomGenerator random;

    public PodLifecycle(Duration startDelayMin, Duration startDelayMax, Duration shutdownDelay, RandomGenerator random) {
        if (startDelayMax.compareTo(startDelayMin) < 0) {
            throw new IllegalArgumentException("the longest start delay is shorter than the shortest");
        }
        this.startDelayMin = startDelayMin;
        this.startDelayMax = startDelayMax;
        this.shutdownDelay = shutdownDelay;
        this.random = random;
    }

    public Optional<Step> next(Pod pod, PodHost host, Instant now) {
        PodSpec spec = pod.getSpec();
        ObjectMeta meta = pod.getMetadata();
        if (spec == null || meta == null || !host.nodeName().equals(spec.getNodeName())) {
            return Optional.empty();
        }
        if (meta.getDeletionTimestamp() != null) {
            return terminate(pod);
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return Optional.empty();
        }
        if ("Running".equals(phase)) {
            return readiness(pod, now);
        }
        if (!hasSandbox(pod)) {
            if (host.podIP() == null) {
                return Optional.empty(); // no address left on the node: stays Pending, as with a failing CNI
            }
            return Optional.of(new UpdateStatus(CREATE_SANDBOX, creating(pod, host, now), Duration.ZERO));
        }
        return Optional.of(new UpdateStatus(START_CONTAINERS, running(pod, now), startDelay(),
                KubeletEvents.containersStarting(pod, host.images(), now)));
    }

    /** The images of the pod's containers, normalized: what is on the node once the pod has started. */
    public static Set<String> images(Pod pod) {
        Set<String> out = new LinkedHashSet<>();
        for (Container k : list(pod.getSpec().getInitContainers())) {
            out.add(normalizeImage(k.getImage()));
        }
        for (Container k : list(pod.getSpec().getContainers())) {
            out.add(normalizeImage(k.getImage()));
        }
        return out;
    }

    private Optional<Step> terminate(Pod pod) {
        ObjectMeta meta = pod.getMetadata();
        long grace = meta.getDeletionGracePeriodSeconds() == null ? 0 : meta.getDeletionGracePeriodSeconds();
        if (grace == 0 && meta.getFinalizers() != null && !meta.getFinalizers().isEmpty()) {
            return Optional.empty(); // stopped; the writer removes it once its finalizers are gone
        }
        Duration delay = Duration.ofSeconds(grace).compareTo(shutdownDelay) < 0 ? Duration.ofSeconds(grace) : shutdownDelay;
        return Optional.of(new Delete(TERMINATE, meta.getUid(), delay, KubeletEvents.containersStopping(pod)));
    }

    private Duration startDelay() {
        long min = startDelayMin.toMillis();
        long max = startDelayMax.toMillis();
        return Duration.ofMillis(max == min ? min : random.nextLong(min, max + 1));
    }

    static boolean hasSandbox(Pod pod) {
        PodStatus s = pod.getStatus();
        return s != null && s.getPodIP() != null && s.getContainerStatuses() != null && !s.getContainerStatuses().isEmpty();
    }

    static Pod creating(Pod pod, PodHost host, Instant now) {
        PodSpec spec = pod.getSpec();
        PodStatus status = status(pod);
        List<Container> init = list(spec.getInitContainers());
        List<Container> app = list(spec.getContainers());
        List<PodCondition> c = status.getConditions();
        c = set(c, "PodReadyToStartContainers", "True", null, null, now);
        c = init.isEmpty() ? set(c, "Initialized", "True", null, null, now)
                : set(c, "Initialized", "False", "ContainersNotInitialized",
                "containers with incomplete status: " + names(init), now);
        c = set(c, "Ready", "False", "ContainersNotReady", "containers with unready status: " + names(app), now);
        c = set(c, "ContainersReady", "False", "ContainersNotReady", "containers with unready status: " + names(app), now);
        String podIP = Boolean.TRUE.equals(spec.getHostNetwork()) ? host.hostIP() : host.podIP();
        List<ContainerStatus> initStatuses = new ArrayList<>();
        init.forEach(k -> initStatuses.add(waiting(k, "PodInitializing")));
        List<ContainerStatus> appStatuses = new ArrayList<>();
        app.forEach(k -> appStatuses.add(waiting(k, init.isEmpty() ? "ContainerCreating" : "PodInitializing")));
        PodStatus next = PodStatus.newBuilder(status)
                .setPhase("Pending")
                .setConditions(c)
                .setHostIP(host.hostIP())
                .setHostIPs(List.of(HostIP.newBuilder().setIp(host.hostIP()).build()))
                .setPodIP(podIP)
                .setPodIPs(List.of(PodIP.newBuilder().setIp(podIP).build()))
                .setStartTime(status.getStartTime() == null ? now : status.getStartTime())
                .setInitContainerStatuses(init.isEmpty() ? null : initStatuses)
                .setContainerStatuses(appStatuses)
                .build();
        return Pod.newBuilder(pod).setStatus(next).build();
    }

    private static Pod running(Pod pod, Instant now) {
        PodSpec spec = pod.getSpec();
        PodStatus status = status(pod);
        String uid = pod.getMetadata().getUid();
        List<Container> init = list(spec.getInitContainers());
        List<ContainerStatus> initStatuses = new ArrayList<>();
        for (Container k : init) {
            initStatuses.add("Always".equals(k.getRestartPolicy()) ? started(k, uid, now)
                    : completed(k, uid, now));
        }
        List<ContainerStatus> appStatuses = new ArrayList<>();
        list(spec.getContainers()).forEach(k -> appStatuses.add(started(k, uid, now)));
        List<PodCondition> c = status.getConditions();
        c = set(c, "PodReadyToStartContainers", "True", null, null, now);
        c = set(c, "Initialized", "True", null, null, now);
        c = setReady(c, spec, true, now);
        PodStatus next = PodStatus.newBuilder(status)
                .setPhase("Running")
                .setConditions(c)
                .setInitContainerStatuses(init.isEmpty() ? null : initStatuses)
                .setContainerStatuses(appStatuses)
                .build();
        return Pod.newBuilder(pod).setStatus(next).build();
    }

    private static Optional<Step> readiness(Pod pod, Instant now) {
        PodStatus status = status(pod);
        boolean containersReady = status.getContainerStatuses() != null
                && status.getContainerStatuses().stream().allMatch(s -> Boolean.TRUE.equals(s.getReady()));
        List<PodCondition> wanted = setReady(status.getConditions(), pod.getSpec(), containersReady, now);
        if (sameStatuses(wanted, status.getConditions())) {
            return Optional.empty();
        }
        PodStatus next = PodStatus.newBuilder(status).setConditions(wanted).build();
        return Optional.of(new UpdateStatus(READINESS, Pod.newBuilder(pod).setStatus(next).build(), Duration.ZERO));
    }

    /** ContainersReady from the containers; Ready from them and the readiness gates (POD-6.6, POD-6.7). */
    private static List<PodCondition> setReady(List<PodCondition> c, PodSpec spec, boolean containersReady, Instant now) {
        if (!containersReady) {
            return c; // the simulator never makes a started container unready
        }
        c = set(c, "ContainersReady", "True", null, null, now);
        String gate = unmetGate(spec, c);
        return gate == null ? set(c, "Ready", "True", null, null, now)
                : set(c, "Ready", "False", "ReadinessGatesNotReady", gate, now);
    }

    /** The message for the first readiness gate that is not True, or null when all are. */
    private static String unmetGate(PodSpec spec, List<PodCondition> conditions) {
        for (PodReadinessGate gate : list(spec.getReadinessGates())) {
            PodCondition c = find(conditions, gate.getConditionType());
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

    private static boolean sameStatuses(List<PodCondition> a, List<PodCondition> b) {
        for (PodCondition c : list(a)) {
            PodCondition other = find(b, c.getType());
            if (other == null || !c.getStatus().equals(other.getStatus())
                    || !java.util.Objects.equals(c.getReason(), other.getReason())) {
                return false;
            }
        }
        return true;
    }

    private static PodCondition find(List<PodCondition> conditions, String type) {
        for (PodCondition c : list(conditions)) {
            if (type.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    private static ContainerStatus waiting(Container k, String reason) {
        return ContainerStatus.newBuilder().setName(k.getName())
                .setState(ContainerState.newBuilder().setWaiting(ContainerStateWaiting.newBuilder().setReason(reason).build()).build())
                .setLastState(new ContainerState())
                .setReady(false).setStarted(false).setRestartCount(0)
.setImage(normalizeImage(k.getImage())).setImageID("")
                .build();
    }

    private static ContainerStatus started(Container k, String uid, Instant now) {
        return ContainerStatus.newBuilder().setName(k.getName())
                .setState(ContainerState.newBuilder().setRunning(ContainerStateRunning.newBuilder().setStartedAt(now).build()).build())
                .setLastState(new ContainerState())
                .setReady(true).setStarted(true).setRestartCount(0)
                .setImage(normalizeImage(k.getImage())).setImageID(imageID(k.getImage()))
                .setContainerID(containerID(uid, k.getName()))
                .build();
    }

    private static ContainerStatus completed(Container k, String uid, Instant now) {
        String id = containerID(uid, k.getName());
        return ContainerStatus.newBuilder().setName(k.getName())
                .setState(ContainerState.newBuilder().setTerminated(ContainerStateTerminated.newBuilder().setExitCode(0)
                        .setReason("Completed").setStartedAt(now).setFinishedAt(now).setContainerID(id).build()).build())
                .setLastState(new ContainerState())
                .setReady(true).setStarted(false).setRestartCount(0)
                .setImage(normalizeImage(k.getImage())).setImageID(imageID(k.getImage()))
                .setContainerID(id)
                .build();
    }

    /** {@code nginx} -> {@code docker.io/library/nginx:latest}, as containerd reports an image. */
    public static String normalizeImage(String image) {
        if (image == null || image.isEmpty()) {
            return "";
        }
        String ref = image;
        int slash = ref.indexOf('/');
        String first = slash < 0 ? "" : ref.substring(0, slash);
        boolean hasDomain = slash >= 0 && (first.contains(".") || first.contains(":") || first.equals("localhost"));
        if (!hasDomain) {
            ref = "docker.io/" + (slash < 0 ? "library/" : "") + ref;
        }
        String last = ref.substring(ref.lastIndexOf('/') + 1);
        if (!last.contains(":") && !last.contains("@")) {
            ref = ref + ":latest";
        }
        return ref;
    }

    static String imageID(String image) {
        String normalized = normalizeImage(image);
        int at = normalized.indexOf('@');
        if (at >= 0) {
            return normalized;
        }
        String repo = normalized.substring(0, normalized.lastIndexOf(':'));
        return repo + "@sha256:" + sha256(normalized);
    }

    static String containerID(String uid, String name) {
        return "sim://" + sha256(uid + "/" + name);
    }

    private static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<PodCondition> set(List<PodCondition> conditions, String type, String status, String reason,
                                          String message, Instant now) {
        return PodRules.setCondition(conditions, PodCondition.newBuilder().setType(type).setStatus(status)
                .setReason(reason).setMessage(message).setLastTransitionTime(now).build());
    }

    private static PodStatus status(Pod pod) {
        return pod.getStatus() == null ? new PodStatus() : pod.getStatus();
    }

    private static String names(List<Container> containers) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < containers.size(); i++) {
            sb.append(i == 0 ? "" : " ").append(containers.get(i).getName());
        }
        return sb.append(']').toString();
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
