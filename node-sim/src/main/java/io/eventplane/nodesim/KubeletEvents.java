package io.eventplane.nodesim;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.decide.PodRules;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.Pod;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The Events a kubelet of Kubernetes 1.32 records about pods and its node, worded as it words them. Pure. */
public final class KubeletEvents {
    private KubeletEvents() {
    }

    /**
     * Starting a pod's containers, init containers first, each about {@code spec.containers{name}} (or
     * {@code spec.initContainers{name}}): Pulling + Pulled (or Pulled "already present" when the policy lets the
     * node's copy serve), Created, Started (POD-4.8). The pull took from the sandbox (status.startTime) until now.
     *
     * @param imagesOnNode normalized images already on the node
     */
    public static List<EventNotice> containersStarting(Pod pod, Set<String> imagesOnNode, Instant now) {
        ObjectReference ref = ObjectReferences.of(pod);
        Instant sandbox = pod.getStatus() == null ? null : pod.getStatus().getStartTime();
        Duration pull = sandbox == null || sandbox.isAfter(now) ? Duration.ZERO : Duration.between(sandbox, now);
        Set<String> present = new HashSet<>(imagesOnNode);
        List<EventNotice> out = new ArrayList<>();
        List<Container> init = pod.getSpec().getInitContainers() == null ? List.of() : pod.getSpec().getInitContainers();
        List<Container> app = pod.getSpec().getContainers() == null ? List.of() : pod.getSpec().getContainers();
        for (Container k : init) {
            starting(out, ObjectReferences.withFieldPath(ref, ObjectReferences.containerPath(true, k.getName())), k,
                    present, pull);
        }
        for (Container k : app) {
            starting(out, ObjectReferences.withFieldPath(ref, ObjectReferences.containerPath(false, k.getName())), k,
                    present, pull);
        }
        return out;
    }

    private static void starting(List<EventNotice> out, ObjectReference ref, Container k, Set<String> present,
                                 Duration pull) {
        String image = k.getImage() == null ? "" : k.getImage();
        String policy = k.getImagePullPolicy() != null ? k.getImagePullPolicy()
                : image.isEmpty() ? "IfNotPresent" : PodRules.imagePullPolicy(image);
        String normalized = PodLifecycle.normalizeImage(image);
        // The simulator has every image it is told never to pull.
        boolean usePresent = "Never".equals(policy) || ("IfNotPresent".equals(policy) && present.contains(normalized));
        if (usePresent) {
            out.add(EventNotice.normal(ref, "Pulled", "Container image \"" + image + "\" already present on machine"));
        } else {
            out.add(EventNotice.normal(ref, "Pulling", "Pulling image \"" + image + "\""));
            out.add(EventNotice.normal(ref, "Pulled", "Successfully pulled image \"" + image + "\" in " + go(pull)
                    + " (" + go(pull) + " including waiting). Image size: " + imageSize(normalized) + " bytes."));
            present.add(normalized);
        }
        out.add(EventNotice.normal(ref, "Created", "Created container: " + k.getName()));
        out.add(EventNotice.normal(ref, "Started", "Started container " + k.getName()));
    }

    /** Stopping a pod: Killing "Stopping container nginx" for each container that runs. */
    public static List<EventNotice> containersStopping(Pod pod) {
        ObjectReference ref = ObjectReferences.of(pod);
        List<EventNotice> out = new ArrayList<>();
        if (pod.getStatus() == null) {
            return out;
        }
        stopping(out, ref, pod.getStatus().getInitContainerStatuses(), true);
        stopping(out, ref, pod.getStatus().getContainerStatuses(), false);
        return out;
    }

    private static void stopping(List<EventNotice> out, ObjectReference ref, List<ContainerStatus> statuses, boolean init) {
        if (statuses == null) {
            return;
        }
        for (ContainerStatus s : statuses) {
            if (s.getState() != null && s.getState().getRunning() != null) {
                out.add(EventNotice.normal(ObjectReferences.withFieldPath(ref,
                        ObjectReferences.containerPath(init, s.getName())), "Killing", "Stopping container " + s.getName()));
            }
        }
    }

    /**
     * A kubelet starting on its node: Starting, then, when it reports the node's status, one event per condition it
     * sets and NodeReady, about the Node as the kubelet refers to it (uid = node name).
     *
     * @param statusReported whether this start reports the node's status (a new node, or one that was not Ready)
     */
    public static List<EventNotice> nodeStarting(String nodeName, boolean statusReported) {
        ObjectReference node = ObjectReferences.node(nodeName);
        List<EventNotice> out = new ArrayList<>();
        out.add(EventNotice.normal(node, "Starting", "Starting kubelet."));
        if (statusReported) {
            for (String status : List.of("NodeHasSufficientMemory", "NodeHasNoDiskPressure", "NodeHasSufficientPID")) {
                out.add(EventNotice.normal(node, status, "Node " + nodeName + " status is now: " + status));
            }
            out.add(EventNotice.normal(node, "NodeAllocatableEnforced", "Updated Node Allocatable limit across pods"));
            out.add(EventNotice.normal(node, "NodeReady", "Node " + nodeName + " status is now: NodeReady"));
        }
        return out;
    }

    /** A stable, plausible image size (20-200 MB) derived from the image's name. */
    static long imageSize(String normalizedImage) {
        long h = 1125899906842597L;
        for (byte b : normalizedImage.getBytes(StandardCharsets.UTF_8)) {
            h = 31 * h + b;
        }
        return 20_000_000L + Math.floorMod(h, 180_000_000L);
    }

    /** A duration as Go prints a time.Duration truncated to milliseconds: 0s, 512ms, 1.5s, 2m3.25s. */
    static String go(Duration d) {
        long ms = d.toMillis();
        if (ms == 0) {
            return "0s";
        }
        if (ms < 1000) {
            return ms + "ms";
        }
        StringBuilder sb = new StringBuilder();
        long hours = ms / 3_600_000;
        long minutes = ms / 60_000 % 60;
        if (hours > 0) {
            sb.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            sb.append(minutes).append('m');
        }
        long seconds = ms / 1000 % 60;
        long fraction = ms % 1000;
        sb.append(seconds);
        if (fraction > 0) {
            String f = String.format("%03d", fraction);
            sb.append('.').append(f.replaceAll("0+$", ""));
        }
        return sb.append('s').toString();
    }
}
