package io.eventplane.nodesim;

import io.eventplane.core.meta.Conditions;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.HostIP;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodIP;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The kubelet's first step for a pod bound to its node: the sandbox. Addresses, startTime, containers Waiting
 * (ContainerCreating, or PodInitializing behind init containers), PodReadyToStartContainers True, Initialized True
 * without init containers (POD-6.10), ContainersReady and Ready False; before it, while volumes cannot be mounted, the
 * same without sandbox ({@link #mounting}). Everything after it is {@link PodRun}. Also how containerd names images
 * and ids. Pure.
 */
public final class PodLifecycle {
    private PodLifecycle() {
    }

    /** Where the pod runs: its node, the node's address and the pod's own address. */
    public record PodHost(String nodeName, String hostIP, String podIP) {
    }

    public static boolean hasSandbox(Pod pod) {
        PodStatus s = pod.getStatus();
        return s != null && s.getPodIP() != null && s.getContainerStatuses() != null && !s.getContainerStatuses().isEmpty();
    }

    public static Pod creating(Pod pod, PodHost host, Instant now) {
        return pending(pod, host, true, now);
    }

    /**
     * Before the sandbox, while the pod's volumes cannot be mounted yet (POD-6.11): admitted to the node (hostIP,
     * startTime), containers Waiting as for {@link #creating}, but PodReadyToStartContainers False and no pod IP.
     */
    public static Pod mounting(Pod pod, String hostIP, Instant now) {
        return pending(pod, new PodHost(pod.getSpec().getNodeName(), hostIP, null), false, now);
    }

    /** Waiting for its volumes: admitted, no sandbox yet (see {@link #mounting}). */
    public static boolean isMounting(Pod pod) {
        PodStatus s = pod.getStatus();
        return s != null && s.getHostIP() != null && s.getPodIP() == null && s.getStartTime() != null
                && "Pending".equals(s.getPhase()) && s.getContainerStatuses() != null && !s.getContainerStatuses().isEmpty();
    }

    /**
     * When the sandbox was ready: PodReadyToStartContainers turning True (after a wait for volumes, later than
     * startTime), else startTime.
     */
    public static java.util.Optional<Instant> sandboxReadyAt(Pod pod) {
        PodStatus s = pod.getStatus();
        if (s == null) {
            return java.util.Optional.empty();
        }
        if (s.getConditions() != null) {
            for (PodCondition c : s.getConditions()) {
                if ("PodReadyToStartContainers".equals(c.getType()) && "True".equals(c.getStatus())
                        && c.getLastTransitionTime() != null) {
                    return java.util.Optional.of(c.getLastTransitionTime());
                }
            }
        }
        return java.util.Optional.ofNullable(s.getStartTime());
    }

    private static Pod pending(Pod pod, PodHost host, boolean sandbox, Instant now) {
        PodSpec spec = pod.getSpec();
        PodStatus status = status(pod);
        List<Container> init = list(spec.getInitContainers());
        List<Container> app = list(spec.getContainers());
        List<PodCondition> c = status.getConditions();
        c = set(c, "PodReadyToStartContainers", sandbox ? "True" : "False", null, null, now);
        c = init.isEmpty() ? set(c, "Initialized", "True", null, null, now)
                : set(c, "Initialized", "False", "ContainersNotInitialized",
                "containers with incomplete status: " + names(init), now);
        c = set(c, "Ready", "False", "ContainersNotReady", "containers with unready status: " + names(app), now);
        c = set(c, "ContainersReady", "False", "ContainersNotReady", "containers with unready status: " + names(app), now);
        List<ContainerStatus> initStatuses = new ArrayList<>();
        init.forEach(k -> initStatuses.add(waiting(k, "PodInitializing")));
        List<ContainerStatus> appStatuses = new ArrayList<>();
        app.forEach(k -> appStatuses.add(waiting(k, init.isEmpty() ? "ContainerCreating" : "PodInitializing")));
        PodStatus.Builder next = PodStatus.newBuilder(status)
                .setPhase("Pending")
                .setConditions(c)
                .setHostIP(host.hostIP())
                .setHostIPs(List.of(HostIP.newBuilder().setIp(host.hostIP()).build()))
                .setStartTime(status.getStartTime() == null ? now : status.getStartTime())
                .setInitContainerStatuses(init.isEmpty() ? null : initStatuses)
                .setContainerStatuses(appStatuses);
        if (sandbox) {
            String podIP = Boolean.TRUE.equals(spec.getHostNetwork()) ? host.hostIP() : host.podIP();
            next.setPodIP(podIP).setPodIPs(List.of(PodIP.newBuilder().setIp(podIP).build()));
        }
        return Pod.newBuilder(pod).setStatus(next.build()).build();
    }

    private static ContainerStatus waiting(Container k, String reason) {
        return ContainerStatus.newBuilder().setName(k.getName())
                .setState(ContainerState.newBuilder().setWaiting(ContainerStateWaiting.newBuilder().setReason(reason).build()).build())
                .setLastState(new ContainerState())
                .setReady(false).setStarted(false).setRestartCount(0)
.setImage(normalizeImage(k.getImage())).setImageID("")
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

    public static String imageID(String image) {
        String normalized = normalizeImage(image);
        int at = normalized.indexOf('@');
        if (at >= 0) {
            return normalized;
        }
        String repo = normalized.substring(0, normalized.lastIndexOf(':'));
        return repo + "@sha256:" + sha256(normalized);
    }

    public static String containerID(String uid, String name) {
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
        return Conditions.set(conditions, PodCondition.newBuilder().setType(type).setStatus(status)
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
