package io.eventplane.gateway.table;

import io.eventplane.gateway.table.Columns.Column;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodReadinessGate;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.specific.SpecificRecord;

/** {@code kubectl get pods}: NAME READY STATUS RESTARTS AGE, and IP NODE NOMINATED NODE READINESS GATES when wide. */
public final class PodColumns implements Columns {
    private static final List<Column> COLUMNS = List.of(
            Column.nameColumn(),
            Column.of("Ready", "The aggregate readiness state of this pod for accepting traffic."),
            Column.of("Status", "The aggregate status of the containers in this pod."),
            Column.of("Restarts", "The number of times the containers in this pod have been restarted and when the "
                    + "last container in this pod has restarted."),
            Column.ageColumn(),
            Column.wide("IP", "podIP address allocated to the pod."),
            Column.wide("Node", "NodeName is a request to schedule this pod onto a specific node."),
            Column.wide("Nominated Node", "nominatedNodeName is set when this pod preempts other pods on the node."),
            Column.wide("Readiness Gates", "If specified, all readiness gates will be evaluated for pod readiness."));

    @Override
    public List<Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<Object> cells(SpecificRecord object, Instant now) {
        Pod pod = (Pod) object;
        ObjectMeta meta = pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata();
        PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
        PodStatus status = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        Summary s = summarize(spec, status, meta);
        String restarts = s.lastRestart == null ? Integer.toString(s.restarts)
                : s.restarts + " (" + Ages.since(s.lastRestart, now) + " ago)";
        return List.of(meta.getName(), s.ready + "/" + s.total, s.reason, restarts,
                Ages.since(meta.getCreationTimestamp(), now),
                Columns.orNone(status.getPodIP()), Columns.orNone(spec.getNodeName()),
                Columns.orNone(status.getNominatedNodeName()), readinessGates(spec, status));
    }

    /** What the STATUS, READY and RESTARTS columns show, derived from the container states as kubectl does. */
    private static final class Summary {
        String reason;
        int ready;
        int total;
        int restarts;
        Instant lastRestart;

        void noteRestart(ContainerStatus cs) {
            restarts += cs.getRestartCount() == null ? 0 : cs.getRestartCount();
            ContainerState last = cs.getLastState();
            if (last != null && last.getTerminated() != null && last.getTerminated().getFinishedAt() != null) {
                Instant t = last.getTerminated().getFinishedAt();
                if (lastRestart == null || t.isAfter(lastRestart)) {
                    lastRestart = t;
                }
            }
        }
    }

    public static String status(Pod pod) {
        return summarize(pod.getSpec() == null ? new PodSpec() : pod.getSpec(),
                pod.getStatus() == null ? new PodStatus() : pod.getStatus(),
                pod.getMetadata() == null ? new ObjectMeta() : pod.getMetadata()).reason;
    }

    private static Summary summarize(PodSpec spec, PodStatus status, ObjectMeta meta) {
        Summary s = new Summary();
        List<Container> containers = list(spec.getContainers());
        List<Container> inits = list(spec.getInitContainers());
        Map<String, Boolean> sidecars = new HashMap<>();
        for (Container c : inits) {
            boolean sidecar = "Always".equals(c.getRestartPolicy());
            sidecars.put(c.getName(), sidecar);
            if (sidecar) {
                s.total++;
            }
        }
        s.total += containers.size();
        s.reason = status.getPhase() == null ? "" : status.getPhase();
        if (status.getReason() != null && !status.getReason().isEmpty()) {
            s.reason = status.getReason();
        }
        for (PodCondition c : list(status.getConditions())) {
            if ("PodScheduled".equals(c.getType()) && "SchedulingGated".equals(c.getReason())) {
                s.reason = "SchedulingGated";
            }
        }
        boolean initializing = initContainers(s, status, sidecars, inits.size());
        if (!initializing || conditionTrue(status, "Initialized")) {
            boolean hasRunning = false;
            List<ContainerStatus> statuses = list(status.getContainerStatuses());
            for (int i = statuses.size() - 1; i >= 0; i--) {
                ContainerStatus cs = statuses.get(i);
                s.noteRestart(cs);
                ContainerState st = cs.getState() == null ? new ContainerState() : cs.getState();
                if (st.getWaiting() != null && notEmpty(st.getWaiting().getReason())) {
                    s.reason = st.getWaiting().getReason();
                } else if (st.getTerminated() != null && notEmpty(st.getTerminated().getReason())) {
                    s.reason = st.getTerminated().getReason();
                } else if (st.getTerminated() != null) {
                    s.reason = exit("", st.getTerminated().getSignal(), st.getTerminated().getExitCode());
                } else if (Boolean.TRUE.equals(cs.getReady()) && st.getRunning() != null) {
                    hasRunning = true;
                    s.ready++;
                }
            }
            if (s.reason.equals("Completed") && hasRunning) {
                s.reason = conditionTrue(status, "Ready") ? "Running" : "NotReady";
            }
        }
        boolean terminal = "Succeeded".equals(status.getPhase()) || "Failed".equals(status.getPhase());
        if (meta.getDeletionTimestamp() != null && "NodeLost".equals(status.getReason())) {
            s.reason = "Unknown";
        } else if (meta.getDeletionTimestamp() != null && !terminal) {
            s.reason = "Terminating";
        }
        return s;
    }

    /** Returns whether the pod is still initializing; sets the Init:... reason when it is. */
    private static boolean initContainers(Summary s, PodStatus status, Map<String, Boolean> sidecars, int count) {
        List<ContainerStatus> statuses = list(status.getInitContainerStatuses());
        for (int i = 0; i < statuses.size(); i++) {
            ContainerStatus cs = statuses.get(i);
            s.noteRestart(cs);
            ContainerState st = cs.getState() == null ? new ContainerState() : cs.getState();
            if (st.getTerminated() != null && Integer.valueOf(0).equals(st.getTerminated().getExitCode())) {
                continue;
            }
            if (Boolean.TRUE.equals(sidecars.get(cs.getName())) && Boolean.TRUE.equals(cs.getStarted())) {
                if (Boolean.TRUE.equals(cs.getReady())) {
                    s.ready++;
                }
                continue;
            }
            if (st.getTerminated() != null) {
                s.reason = notEmpty(st.getTerminated().getReason()) ? "Init:" + st.getTerminated().getReason()
                        : exit("Init:", st.getTerminated().getSignal(), st.getTerminated().getExitCode());
            } else if (st.getWaiting() != null && notEmpty(st.getWaiting().getReason())
                    && !st.getWaiting().getReason().equals("PodInitializing")) {
                s.reason = "Init:" + st.getWaiting().getReason();
            } else {
                s.reason = "Init:" + i + "/" + count;
            }
            return true;
        }
        return false;
    }

    private static String readinessGates(PodSpec spec, PodStatus status) {
        List<PodReadinessGate> gates = list(spec.getReadinessGates());
        if (gates.isEmpty()) {
            return "<none>";
        }
        int ok = 0;
        for (PodReadinessGate g : gates) {
            if (conditionTrue(status, g.getConditionType())) {
                ok++;
            }
        }
        return ok + "/" + gates.size();
    }

    private static boolean conditionTrue(PodStatus status, String type) {
        for (PodCondition c : list(status.getConditions())) {
            if (type != null && type.equals(c.getType()) && "True".equals(c.getStatus())) {
                return true;
            }
        }
        return false;
    }

    private static String exit(String prefix, Integer signal, Integer exitCode) {
        return signal != null && signal != 0 ? prefix + "Signal:" + signal
                : prefix + "ExitCode:" + (exitCode == null ? 0 : exitCode);
    }

    private static boolean notEmpty(String s) {
        return s != null && !s.isEmpty();
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
