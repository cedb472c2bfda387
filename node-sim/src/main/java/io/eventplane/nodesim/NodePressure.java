package io.eventplane.nodesim;

import io.eventplane.core.decide.PodRules;
import io.eventplane.core.meta.Conditions;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Toleration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.StringJoiner;

/**
 * Node pressure, as a simulated kubelet's eviction manager reports it. A node is told it is under memory, disk or PID
 * pressure by an annotation on its Node ({@code sim.eventplane.io/memory-pressure: "true"}, written through the API by
 * {@code ./eventplane node pressure <name> memory on}, or by {@code kubectl annotate}), or by node-sim's configuration
 * ({@code EVENTPLANE_NODESIM_PRESSURE}). The kubelet then reports the condition True with its reason and message, and
 * its admission rejects new pods as the eviction manager does: under memory pressure alone a BestEffort pod that does
 * not tolerate the memory-pressure taint; under disk or PID pressure every pod; critical pods never. The taints
 * ({@code node.kubernetes.io/memory-pressure:NoSchedule} ...) come from the node lifecycle controller. Pure.
 */
public final class NodePressure {

    /** The three pressure conditions, with the kubelet's reasons, messages and Event reasons for True and False. */
    public enum Kind {
        MEMORY("MemoryPressure", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available",
                "KubeletHasSufficientMemory", "kubelet has sufficient memory available",
                "NodeHasInsufficientMemory", "NodeHasSufficientMemory"),
        DISK("DiskPressure", "KubeletHasDiskPressure", "kubelet has disk pressure",
                "KubeletHasNoDiskPressure", "kubelet has no disk pressure",
                "NodeHasDiskPressure", "NodeHasNoDiskPressure"),
        PID("PIDPressure", "KubeletHasInsufficientPID", "kubelet has insufficient PID available",
                "KubeletHasSufficientPID", "kubelet has sufficient PID available",
                "NodeHasInsufficientPID", "NodeHasSufficientPID");

        private final String condition;
        private final String trueReason;
        private final String trueMessage;
        private final String falseReason;
        private final String falseMessage;
        private final String trueEvent;
        private final String falseEvent;

        Kind(String condition, String trueReason, String trueMessage, String falseReason, String falseMessage,
             String trueEvent, String falseEvent) {
            this.condition = condition;
            this.trueReason = trueReason;
            this.trueMessage = trueMessage;
            this.falseReason = falseReason;
            this.falseMessage = falseMessage;
            this.trueEvent = trueEvent;
            this.falseEvent = falseEvent;
        }

        /** {@code memory}, {@code disk}, {@code pid}: how the command and the configuration name it. */
        public String word() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The node condition type ({@code MemoryPressure}, ...). */
        public String condition() {
            return condition;
        }

        /** The annotation that turns it on: {@code sim.eventplane.io/memory-pressure}, ... */
        public String annotation() {
            return PodBehavior.PREFIX + word() + "-pressure";
        }

        /** The Event reason the kubelet records when the condition becomes {@code on}. */
        public String event(boolean on) {
            return on ? trueEvent : falseEvent;
        }

        public static Kind parse(String word) {
            for (Kind k : values()) {
                if (k.word().equals(word)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("no pressure \"" + word + "\": memory, disk or pid");
        }
    }

    /** The eviction manager's reason for a pod it rejects. */
    public static final String REASON = "Evicted";
    /** Pods at or above this priority are critical (system-cluster-critical and system-node-critical). */
    static final int SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

    private NodePressure() {
    }

    /** The pressures the node is told to be under: its annotations, plus the configured ones. */
    public static Set<Kind> requested(Node node, Set<Kind> configured) {
        Set<Kind> out = configured.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(configured);
        Map<String, String> a = node == null || node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        if (a != null) {
            for (Kind k : Kind.values()) {
                if ("true".equalsIgnoreCase(a.getOrDefault(k.annotation(), "").trim())) {
                    out.add(k);
                }
            }
        }
        return out;
    }

    /** The Node with the pressure's annotation set ({@code on}) or removed, for an UPDATE with its resourceVersion. */
    public static Node marked(Node node, Kind kind, boolean on) {
        Map<String, String> a = node.getMetadata().getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(node.getMetadata().getAnnotations());
        if (on) {
            a.put(kind.annotation(), "true");
        } else {
            a.remove(kind.annotation());
        }
        return Node.newBuilder(node).setMetadata(ObjectMeta.newBuilder(node.getMetadata())
                .setAnnotations(a.isEmpty() ? null : a).build()).build();
    }

    /**
     * The condition as the kubelet reports it now: its transition time kept from {@code previous} when the status is
     * unchanged.
     */
    public static NodeCondition condition(Kind kind, boolean on, NodeCondition previous, Instant now) {
        String status = on ? "True" : "False";
        Instant since = Conditions.transitionTime(previous, status, now);
        return NodeCondition.newBuilder().setType(kind.condition()).setStatus(status)
                .setReason(on ? kind.trueReason : kind.falseReason).setMessage(on ? kind.trueMessage : kind.falseMessage)
                .setLastHeartbeatTime(now).setLastTransitionTime(since).build();
    }

    /** The pressures a node reports True in its status. */
    public static Set<Kind> reported(Node node) {
        Set<Kind> out = EnumSet.noneOf(Kind.class);
        if (node != null && node.getStatus() != null && node.getStatus().getConditions() != null) {
            for (NodeCondition c : node.getStatus().getConditions()) {
                for (Kind k : Kind.values()) {
                    if (k.condition().equals(c.getType()) && "True".equals(c.getStatus())) {
                        out.add(k);
                    }
                }
            }
        }
        return out;
    }

    /**
     * The eviction manager's admission: empty when the pod is admitted, else the pod Failed with reason
     * {@code Evicted} and the message {@code The node had condition: [MemoryPressure]. }.
     */
    public static Optional<Pod> reject(Pod pod, Set<Kind> pressures, Instant now) {
        if (pressures.isEmpty() || critical(pod)) {
            return Optional.empty();
        }
        if (pressures.equals(EnumSet.of(Kind.MEMORY))) {
            String qos = pod.getStatus() != null && pod.getStatus().getQosClass() != null ? pod.getStatus().getQosClass()
                    : PodRules.qosClass(pod.getSpec());
            if (!"BestEffort".equals(qos) || toleratesMemoryPressure(pod.getSpec().getTolerations())) {
                return Optional.empty();
            }
        }
        StringJoiner conditions = new StringJoiner(" ", "[", "]");
        for (Kind k : Kind.values()) {
            if (pressures.contains(k)) {
                conditions.add(k.condition());
            }
        }
        PodStatus old = pod.getStatus() == null ? new PodStatus() : pod.getStatus();
        PodStatus status = PodStatus.newBuilder(old).setPhase("Failed").setReason(REASON)
                .setMessage("The node had condition: " + conditions + ". ")
                .setStartTime(old.getStartTime() == null ? now : old.getStartTime())
                .build();
        return Optional.of(Pod.newBuilder(pod).setStatus(status).build());
    }

    /** A pod at system-critical priority or above; the kubelet admits it whatever the pressure. */
    static boolean critical(Pod pod) {
        Integer p = pod.getSpec() == null ? null : pod.getSpec().getPriority();
        return p != null && p >= SYSTEM_CRITICAL_PRIORITY;
    }

    /** Whether a toleration tolerates {@code node.kubernetes.io/memory-pressure:NoSchedule}. */
    static boolean toleratesMemoryPressure(List<Toleration> tolerations) {
        if (tolerations == null) {
            return false;
        }
        for (Toleration t : tolerations) {
            boolean effect = t.getEffect() == null || t.getEffect().isEmpty() || "NoSchedule".equals(t.getEffect());
            String op = t.getOperator() == null || t.getOperator().isEmpty() ? "Equal" : t.getOperator();
            boolean emptyKey = t.getKey() == null || t.getKey().isEmpty();
            boolean key = emptyKey ? "Exists".equals(op) : "node.kubernetes.io/memory-pressure".equals(t.getKey());
            boolean value = "Exists".equals(op) || t.getValue() == null || t.getValue().isEmpty();
            if (effect && key && value) {
                return true;
            }
        }
        return false;
    }

    /** {@code EVENTPLANE_NODESIM_PRESSURE}: {@code <node>=<kind>[,<kind>]} separated by {@code ;}, e.g. {@code node-3=memory;node-5=disk,pid}. */
    public static Map<String, Set<Kind>> parseConfig(String text) {
        Map<String, Set<Kind>> out = new HashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String rule : text.split(";")) {
            if (rule.isBlank()) {
                continue;
            }
            int eq = rule.indexOf('=');
            if (eq <= 0 || eq == rule.length() - 1) {
                throw new IllegalArgumentException("\"" + rule.trim() + "\" is not <node>=<memory|disk|pid>[,...]");
            }
            Set<Kind> kinds = out.computeIfAbsent(rule.substring(0, eq).trim(), n -> EnumSet.noneOf(Kind.class));
            for (String w : rule.substring(eq + 1).split(",")) {
                kinds.add(Kind.parse(w.trim()));
            }
        }
        return out;
    }
}
