package io.eventplane.core.meta;

import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.util.List;

/**
 * The well-known taint keys (those the node lifecycle controller sets, those the DaemonSet controller tolerates) and
 * whether a toleration tolerates a taint (Kubernetes' ToleratesTaint), for the scheduler, the controllers and the
 * kubelet alike. Pure.
 */
public final class Taints {
    public static final String UNREACHABLE = "node.kubernetes.io/unreachable";
    public static final String NOT_READY = "node.kubernetes.io/not-ready";
    public static final String OUT_OF_SERVICE = "node.kubernetes.io/out-of-service";
    public static final String MEMORY_PRESSURE = "node.kubernetes.io/memory-pressure";
    public static final String DISK_PRESSURE = "node.kubernetes.io/disk-pressure";
    public static final String PID_PRESSURE = "node.kubernetes.io/pid-pressure";
    /** The NoSchedule taint the node lifecycle sets while a node reports the condition True (TaintNodesByCondition). */
    public static final java.util.Map<String, String> BY_CONDITION = java.util.Map.of(
            "MemoryPressure", MEMORY_PRESSURE, "DiskPressure", DISK_PRESSURE, "PIDPressure", PID_PRESSURE);
    public static final String NO_EXECUTE = "NoExecute";
    public static final String NO_SCHEDULE = "NoSchedule";

    private Taints() {
    }

    public static boolean tolerates(Toleration t, Taint taint) {
        if (t.getEffect() != null && !t.getEffect().isEmpty() && !t.getEffect().equals(taint.getEffect())) {
            return false;
        }
        if (t.getKey() != null && !t.getKey().isEmpty() && !t.getKey().equals(taint.getKey())) {
            return false;
        }
        String op = t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
        if (op.equals("Exists")) {
            return true; // an empty key with Exists matches every taint
        }
        String value = t.getValue() == null ? "" : t.getValue();
        String taintValue = taint.getValue() == null ? "" : taint.getValue();
        return op.equals("Equal") && (t.getKey() != null && !t.getKey().isEmpty()) && value.equals(taintValue);
    }

    /** Whether any of {@code tolerations} tolerates {@code taint}. */
    public static boolean tolerates(List<Toleration> tolerations, Taint taint) {
        if (tolerations != null) {
            for (Toleration t : tolerations) {
                if (tolerates(t, taint)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The first taint with effect NoSchedule or NoExecute (or, with {@code noExecuteOnly}, NoExecute) that none of
     * {@code tolerations} tolerates, or null (Kubernetes' FindMatchingUntoleratedTaint).
     */
    public static Taint firstUntolerated(List<Toleration> tolerations, List<Taint> taints, boolean noExecuteOnly) {
        if (taints == null) {
            return null;
        }
        for (Taint t : taints) {
            boolean hard = NO_EXECUTE.equals(t.getEffect()) || (!noExecuteOnly && NO_SCHEDULE.equals(t.getEffect()));
            if (hard && !tolerates(tolerations, t)) {
                return t;
            }
        }
        return null;
    }

    public static boolean has(List<Taint> taints, String key, String effect) {
        return taints != null && taints.stream().anyMatch(t -> key.equals(t.getKey()) && effect.equals(t.getEffect()));
    }
}
