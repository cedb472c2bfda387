package io.eventplane.nodesim;

import io.eventplane.core.Digests;
import io.eventplane.core.meta.ObjectAccess;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The kubelet's first step for a pod bound to its node: the sandbox. Addresses, startTime, containers Waiting
 * (ContainerCreating, or PodInitializing behind init containers), PodReadyToStartContainers True, Initialized True
 * without init containers (POD-6.10), ContainersReady and Ready False. Before it, while the pod's volumes cannot be set
 * up ({@link VolumeMounts}), the same status without the pod's address and with PodReadyToStartContainers False.
 * Everything after it is {@link PodRun}. Also how containerd names images and ids. Pure.
 */
public final class PodLifecycle {
    private PodLifecycle() {
    }

    /** Where the pod runs: its node, the node's address and the pod's own address. */
    public record PodHost(String nodeName, String hostIP, String podIP) {
    }

    /** The sandbox was created: the pod has its address and container statuses, and is ready to start containers. */
    public static boolean hasSandbox(Pod pod) {
        PodStatus s = pod.getStatus();
        return s != null && s.getPodIP() != null && s.getContainerStatuses() != null && !s.getContainerStatuses().isEmpty()
                && !"False".equals(condition(s, "PodReadyToStartContainers")); // a hostNetwork pod has its IP before
    }

    /** The kubelet admitted the pod and wrote its first status (startTime, hostIP), with or without a sandbox yet. */
    public static boolean admitted(Pod pod) {
        PodStatus s = pod.getStatus();
        return s != null && s.getStartTime() != null && s.getHostIP() != null;
    }

    /** When the pod's sandbox became ready: its containers' history starts there (startTime for older statuses). */
    public static Instant sandboxReadyAt(Pod pod) {
        PodStatus s = pod.getStatus();
        if (s == null) {
            return null;
        }
        for (PodCondition c : list(s.getConditions())) {
            if ("PodReadyToStartContainers".equals(c.getType()) && "True".equals(c.getStatus())
                    && c.getLastTransitionTime() != null) {
                return c.getLastTransitionTime();
            }
        }
        return s.getStartTime();
    }

    public static Pod creating(Pod pod, PodHost host, Instant now) {
        String podIP = Boolean.TRUE.equals(pod.getSpec().getHostNetwork()) ? host.hostIP() : host.podIP();
        return pending(pod, host.hostIP(), podIP, true, now);
    }

    /**
     * Admitted, but a volume cannot be set up yet: no sandbox, so no pod address (a hostNetwork pod has the node's, as
     * the kubelet reports it) and PodReadyToStartContainers False; the containers wait in ContainerCreating.
     */
    public static Pod waitingForVolumes(Pod pod, String hostIP, Instant now) {
        return pending(pod, hostIP, Boolean.TRUE.equals(pod.getSpec().getHostNetwork()) ? hostIP : null, false, now);
    }

    private static Pod pending(Pod pod, String hostIP, String podIP, boolean sandbox, Instant now) {
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
        PodStatus next = PodStatus.newBuilder(status)
                .setPhase("Pending")
                .setConditions(c)
                .setHostIP(hostIP)
                .setHostIPs(List.of(HostIP.newBuilder().setIp(hostIP).build()))
                .setPodIP(podIP)
                .setPodIPs(podIP == null ? null : List.of(PodIP.newBuilder().setIp(podIP).build()))
                .setStartTime(status.getStartTime() == null ? now : status.getStartTime())
                .setInitContainerStatuses(init.isEmpty() ? null : initStatuses)
                .setContainerStatuses(appStatuses)
                .build();
        return ObjectAccess.with(pod, "status", next); // shallow: a builder would deep-copy the whole pod
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
        return Digests.sha256Hex(s);
    }

    private static List<PodCondition> set(List<PodCondition> conditions, String type, String status, String reason,
                                          String message, Instant now) {
        return Conditions.set(conditions, PodCondition.newBuilder().setType(type).setStatus(status)
                .setReason(reason).setMessage(message).setLastTransitionTime(now).build());
    }

    private static String condition(PodStatus status, String type) {
        for (PodCondition c : list(status.getConditions())) {
            if (type.equals(c.getType())) {
                return c.getStatus();
            }
        }
        return null;
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
