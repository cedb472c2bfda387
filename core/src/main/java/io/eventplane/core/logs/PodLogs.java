package io.eventplane.core.logs;

import io.eventplane.model.Container;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Pod;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which container instance {@code kubectl logs} reads, chosen from the pod's status as the kubelet chooses it
 * (running, else terminated, else the last terminated one; {@code --previous}: the last terminated one), with the
 * kubelet's and kube-apiserver's refusals, and the log its pod declares for it:
 * <ul>
 *   <li>{@code sim.eventplane.io/log[.<container>]}: the line a container writes, a template
 *       ({@code "GET /index.html 200 ({container} #{n}, restart {restart})"})</li>
 *   <li>{@code sim.eventplane.io/log-interval[.<container>]}: how often (a duration, {@code 10s} by default)</li>
 *   <li>{@code sim.eventplane.io/exit-log[.<container>]}: the lines its program writes on exit (one per line)</li>
 * </ul>
 */
public final class PodLogs {
    public static final String LOG = "sim.eventplane.io/log";
    public static final String LOG_INTERVAL = "sim.eventplane.io/log-interval";
    public static final String EXIT_LOG = "sim.eventplane.io/exit-log";
    private static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(10);

    /** A request Kubernetes refuses with 400 BadRequest and this message. */
    public static final class Unavailable extends RuntimeException {
        public Unavailable(String message) {
            super(message);
        }
    }

    private PodLogs() {
    }

    /** The log of {@code container} (null: the only one) in {@code pod}, its current or previous instance. */
    public static ContainerLog of(Pod pod, String container, boolean previous) {
        String name = pod.getMetadata().getName();
        List<String> app = names(pod.getSpec().getContainers());
        List<String> init = names(pod.getSpec().getInitContainers());
        if (container == null || container.isEmpty()) {
            if (app.size() != 1) {
                throw new Unavailable("a container name must be specified for pod " + name + ", choose one of: "
                        + brackets(app) + (init.isEmpty() ? "" : " or one of the init containers: " + brackets(init)));
            }
            container = app.get(0);
        } else if (!app.contains(container) && !init.contains(container)) {
            throw new Unavailable("container " + container + " is not valid for pod " + name);
        }
        if (pod.getSpec().getNodeName() == null || pod.getSpec().getNodeName().isEmpty()) {
            throw new Unavailable("pod " + name + " does not have a host assigned");
        }
        ContainerStatus status = status(pod, container);
        String quoted = "container \"" + container + "\" in pod \"" + name + "\"";
        if (status == null) {
            throw new Unavailable(quoted + " is waiting to start: ContainerCreating");
        }
        ContainerState state = status.getState();
        ContainerStateTerminated last = status.getLastState() == null ? null : status.getLastState().getTerminated();
        int restarts = status.getRestartCount() == null ? 0 : status.getRestartCount();
        Instant started;
        Instant finished = null;
        Integer exitCode = null;
        int restart = restarts;
        if (previous) {
            if (last == null || last.getStartedAt() == null) {
                throw new Unavailable("previous terminated " + quoted + " not found");
            }
            started = last.getStartedAt();
            finished = last.getFinishedAt();
            exitCode = last.getExitCode();
            restart = Math.max(0, restarts - 1);
        } else if (state != null && state.getRunning() != null && state.getRunning().getStartedAt() != null) {
            started = state.getRunning().getStartedAt();
        } else if (state != null && state.getTerminated() != null && state.getTerminated().getStartedAt() != null) {
            started = state.getTerminated().getStartedAt();
            finished = state.getTerminated().getFinishedAt();
            exitCode = state.getTerminated().getExitCode();
        } else if (last != null && last.getStartedAt() != null) {
            started = last.getStartedAt();
            finished = last.getFinishedAt();
            exitCode = last.getExitCode();
            restart = Math.max(0, restarts - 1);
        } else if (state != null && state.getWaiting() != null) {
            String reason = state.getWaiting().getReason();
            throw new Unavailable(quoted + " is waiting to start: " + switch (reason == null ? "" : reason) {
                case "ErrImagePull" -> "image can't be pulled";
                case "ImagePullBackOff" -> "trying and failing to pull image";
                default -> reason;
            });
        } else {
            throw new Unavailable(quoted + " is waiting to start - no logs yet");
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? Map.of()
                : pod.getMetadata().getAnnotations();
        String template = declared(annotations, LOG, container);
        String every = declared(annotations, LOG_INTERVAL, container);
        String exit = declared(annotations, EXIT_LOG, container);
        ContainerLog.Identity who = new ContainerLog.Identity(pod.getMetadata().getNamespace(), name,
                pod.getSpec().getNodeName(), container, image(pod, container), restart);
        return new ContainerLog(who, template, every == null ? DEFAULT_INTERVAL : interval(every),
                exit == null ? List.of() : List.of(exit.split("\n")), started, finished, exitCode);
    }

    private static String declared(Map<String, String> annotations, String key, String container) {
        String own = annotations.get(key + "." + container);
        return own != null ? own : annotations.get(key);
    }

    /** A Go-style duration ({@code 500ms}, {@code 1m30s}) or seconds; an unreadable one is the default. */
    static Duration interval(String text) {
        String v = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            return v.matches("\\d+(\\.\\d+)?") ? Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000))
                    : Duration.parse("PT" + v.toUpperCase(Locale.ROOT));
        } catch (NumberFormatException | DateTimeParseException e) {
            return DEFAULT_INTERVAL;
        }
    }

    private static ContainerStatus status(Pod pod, String container) {
        if (pod.getStatus() == null) {
            return null;
        }
        for (List<ContainerStatus> list : java.util.Arrays.asList(pod.getStatus().getContainerStatuses(),
                pod.getStatus().getInitContainerStatuses())) {
            for (ContainerStatus s : list == null ? List.<ContainerStatus>of() : list) {
                if (container.equals(s.getName())) {
                    return s;
                }
            }
        }
        return null;
    }

    private static String image(Pod pod, String container) {
        List<Container> all = new ArrayList<>(pod.getSpec().getContainers());
        if (pod.getSpec().getInitContainers() != null) {
            all.addAll(pod.getSpec().getInitContainers());
        }
        return all.stream().filter(c -> container.equals(c.getName())).map(Container::getImage).findFirst().orElse("");
    }

    private static List<String> names(List<Container> containers) {
        return containers == null ? List.of() : containers.stream().map(Container::getName).toList();
    }

    private static String brackets(List<String> names) {
        return "[" + String.join(" ", names) + "]";
    }
}
