package io.eventplane.nodelifecycle;

import io.eventplane.core.meta.Conditions;
import io.eventplane.core.meta.Taints;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The node lifecycle controller's decision for one tick (Kubernetes' node lifecycle and taint-eviction controllers,
 * pods.md POD-13.5). Pure: the clock, the observed leases and the controller's memory come in, commands and the new
 * memory go out.
 *
 * <ul>
 *   <li>Health: a node's probe time is when the controller last saw its Lease renewed (its own clock, as Kubernetes
 *       does, so clock skew does not matter); a node not probed for {@code monitorGracePeriod} gets Ready (and the
 *       pressure conditions) Unknown, reason {@code NodeStatusUnknown}.</li>
 *   <li>Pressure: a node reporting MemoryPressure, DiskPressure or PIDPressure True gets
 *       {@code node.kubernetes.io/memory-pressure} (disk-pressure, pid-pressure) NoSchedule, removed when it no longer
 *       does (Kubernetes' TaintNodesByCondition; no rate limit).</li>
 *   <li>Taints: Ready=Unknown means {@code node.kubernetes.io/unreachable}, Ready=False {@code not-ready}, each with
 *       NoSchedule and NoExecute; Ready=True removes them. NoExecute taints are added at a rate per zone (one token
 *       bucket of burst 1 per zone: {@code evictionRate} when healthy, {@code secondaryEvictionRate} or 0 when partly
 *       disrupted, none at all when every zone is fully disrupted, which also lifts the NoExecute taints).</li>
 *   <li>Evictions: a pod on a node with NoExecute taints it does not tolerate is evicted at once; one that tolerates
 *       them for {@code tolerationSeconds} is evicted that long after the taint was added (the least of its matching
 *       tolerations; without seconds, never). Evicting adds the DisruptionTarget condition, then deletes the pod.</li>
 * </ul>
 */
public final class NodeLifecycleDecider {
    public static final String ZONE_LABEL = "topology.kubernetes.io/zone";
    public static final String REGION_LABEL = "topology.kubernetes.io/region";
    private static final List<String> CONDITIONS = List.of("Ready", "MemoryPressure", "DiskPressure", "PIDPressure");
    private static final List<String> PRESSURE_CONDITIONS = List.of("MemoryPressure", "DiskPressure", "PIDPressure");

    /** What the controller remembers between ticks about one node. */
    public record Health(Instant renewTime, Instant probeTime) {
    }

    /** A token bucket of burst 1 per zone. */
    public record Bucket(double tokens, Instant at) {
    }

    /** The controller's memory. */
    public record State(Map<String, Health> health, Map<String, Bucket> buckets) {
        public static State empty() {
            return new State(Map.of(), Map.of());
        }
    }

    /** Evict {@code pod}: the DisruptionTarget condition, then a delete. */
    public record Eviction(Pod pod, Pod withCondition) {
    }

    public record Decision(List<Node> statusUpdates, List<Node> taintUpdates, List<Eviction> evictions, State state,
                           Optional<Instant> nextEviction) {
    }

    private final NodeLifecycleConfig config;

    public NodeLifecycleDecider(NodeLifecycleConfig config) {
        this.config = config;
    }

    /**
     * @param leases the renewTime of each node's Lease in kube-node-lease (absent: no lease yet)
     */
    public Decision decide(Instant now, List<Node> nodes, Map<String, Instant> leases, List<Pod> pods, State memory) {
        Map<String, Health> health = new HashMap<>();
        List<Node> statusUpdates = new ArrayList<>();
        Map<String, String> ready = new HashMap<>();
        for (Node node : nodes) {
            String name = node.getMetadata().getName();
            Instant renew = leases.get(name);
            Health h = memory.health().get(name);
            if (h == null || (renew != null && !renew.equals(h.renewTime()))) {
                h = new Health(renew, now); // first seen, or renewed since: probed now
            }
            health.put(name, h);
            String status = readyStatus(node);
            if (Duration.between(h.probeTime(), now).compareTo(config.monitorGracePeriod()) > 0 && !"Unknown".equals(status)) {
                statusUpdates.add(unknown(node, now));
                status = "Unknown";
            }
            ready.put(name, status);
        }

        // Zones: how many nodes are not Ready decides how fast NoExecute taints may be added.
        Map<String, List<Node>> zones = new TreeMap<>();
        for (Node node : nodes) {
            zones.computeIfAbsent(zone(node), z -> new ArrayList<>()).add(node);
        }
        Map<String, String> zoneState = new HashMap<>();
        for (var e : zones.entrySet()) {
            int notReady = 0;
            for (Node n : e.getValue()) {
                if (!"True".equals(ready.get(n.getMetadata().getName()))) {
                    notReady++;
                }
            }
            int readyCount = e.getValue().size() - notReady;
            zoneState.put(e.getKey(), readyCount == 0 && notReady > 0 ? "FullDisruption"
                    : notReady > 2 && (double) notReady / e.getValue().size() >= config.unhealthyZoneThreshold()
                    ? "PartialDisruption" : "Normal");
        }
        boolean allDisrupted = !zoneState.isEmpty() && zoneState.values().stream().allMatch("FullDisruption"::equals);
        Map<String, Bucket> buckets = new HashMap<>();
        for (var e : zones.entrySet()) {
            double rate = switch (zoneState.get(e.getKey())) {
                case "PartialDisruption" -> nodes.size() > config.largeClusterSizeThreshold() ? config.secondaryEvictionRate() : 0;
                default -> config.evictionRate();
            };
            Bucket b = memory.buckets().getOrDefault(e.getKey(), new Bucket(1, now));
            double tokens = Math.min(1, b.tokens() + rate * Math.max(0, Duration.between(b.at(), now).toMillis()) / 1000.0);
            buckets.put(e.getKey(), new Bucket(tokens, now));
        }

        Set<String> updatedStatus = new java.util.HashSet<>();
        statusUpdates.forEach(n -> updatedStatus.add(n.getMetadata().getName()));
        List<Node> taintUpdates = new ArrayList<>();
        for (Node node : nodes) {
            String name = node.getMetadata().getName();
            if (updatedStatus.contains(name)) {
                continue; // one command per node per tick: the taints follow once the status is in
            }
            String status = readyStatus(node);
            List<Taint> current = taints(node);
            List<Taint> next = new ArrayList<>();
            for (Taint t : current) {
                boolean ours = Taints.UNREACHABLE.equals(t.getKey()) || Taints.NOT_READY.equals(t.getKey())
                        || Taints.BY_CONDITION.containsValue(t.getKey());
                if (!ours) {
                    next.add(t);
                }
            }
            String key = "Unknown".equals(status) ? Taints.UNREACHABLE : "False".equals(status) ? Taints.NOT_READY : null;
            if (key != null) {
                next.add(find(current, key, Taints.NO_SCHEDULE).orElse(
                        Taint.newBuilder().setKey(key).setEffect(Taints.NO_SCHEDULE).build()));
                Optional<Taint> noExecute = find(current, key, Taints.NO_EXECUTE);
                Optional<Taint> other = find(current, key.equals(Taints.UNREACHABLE) ? Taints.NOT_READY : Taints.UNREACHABLE,
                        Taints.NO_EXECUTE);
                if (allDisrupted) {
                    // Every zone is down: more likely the control plane's view than the nodes; evict nothing.
                } else if (noExecute.isPresent()) {
                    next.add(noExecute.get());
                } else if (other.isPresent()) {
                    next.add(Taint.newBuilder().setKey(key).setEffect(Taints.NO_EXECUTE).setTimeAdded(now).build()); // swap
                } else {
                    String z = zone(node);
                    Bucket b = buckets.get(z);
                    if (b.tokens() >= 1) {
                        buckets.put(z, new Bucket(b.tokens() - 1, now));
                        next.add(Taint.newBuilder().setKey(key).setEffect(Taints.NO_EXECUTE).setTimeAdded(now).build());
                    }
                }
            }
            for (String condition : PRESSURE_CONDITIONS) {
                if ("True".equals(conditionStatus(node, condition))) {
                    String pressure = Taints.BY_CONDITION.get(condition);
                    next.add(find(current, pressure, Taints.NO_SCHEDULE).orElse(
                            Taint.newBuilder().setKey(pressure).setEffect(Taints.NO_SCHEDULE).build()));
                }
            }
            if (!sameTaints(current, next)) {
                taintUpdates.add(Node.newBuilder(node).setSpec(NodeSpec.newBuilder(
                        node.getSpec() == null ? new NodeSpec() : node.getSpec()).setTaints(next.isEmpty() ? null : next).build()).build());
            }
        }

        // Evictions by NoExecute taints as the view has them.
        Map<String, Node> byName = new HashMap<>();
        nodes.forEach(n -> byName.put(n.getMetadata().getName(), n));
        List<Eviction> evictions = new ArrayList<>();
        Instant next = null;
        for (Pod pod : pods) {
            String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
            Node node = nodeName == null ? null : byName.get(nodeName);
            if (node == null || pod.getMetadata().getDeletionTimestamp() != null || terminal(pod)) {
                continue;
            }
            List<Taint> noExecute = taints(node).stream().filter(t -> Taints.NO_EXECUTE.equals(t.getEffect())).toList();
            if (noExecute.isEmpty()) {
                continue;
            }
            Optional<Instant> at = evictionTime(pod, noExecute, now);
            if (at.isEmpty()) {
                continue;
            }
            if (!at.get().isAfter(now)) {
                evictions.add(new Eviction(pod, withDisruptionTarget(pod, now)));
            } else if (next == null || at.get().isBefore(next)) {
                next = at.get();
            }
        }
        return new Decision(statusUpdates, taintUpdates, evictions, new State(health, buckets), Optional.ofNullable(next));
    }

    /** When a pod on a node with these NoExecute taints is evicted; empty: it tolerates them for ever. */
    static Optional<Instant> evictionTime(Pod pod, List<Taint> noExecute, Instant now) {
        List<Toleration> tolerations = pod.getSpec().getTolerations() == null ? List.of() : pod.getSpec().getTolerations();
        long min = Long.MAX_VALUE;
        Instant start = null;
        for (Taint taint : noExecute) {
            List<Toleration> matching = tolerations.stream().filter(t -> Taints.tolerates(t, taint)).toList();
            if (matching.isEmpty()) {
                return Optional.of(now);
            }
            for (Toleration t : matching) {
                if (t.getTolerationSeconds() != null) {
                    min = Math.min(min, Math.max(0, t.getTolerationSeconds()));
                }
            }
            Instant added = taint.getTimeAdded() == null ? now : taint.getTimeAdded();
            start = start == null || added.isBefore(start) ? added : start;
        }
        return min == Long.MAX_VALUE ? Optional.empty() : Optional.of(start.plusSeconds(min));
    }

    /** The DisruptionTarget condition the taint eviction adds (pods.md 17.14). */
    static Pod withDisruptionTarget(Pod pod, Instant now) {
        return withCondition(pod, PodCondition.newBuilder().setType("DisruptionTarget").setStatus("True")
                .setReason("DeletionByTaintManager").setMessage("Taint manager: deleting due to NoExecute taint")
                .setLastTransitionTime(now).build(), null);
    }

    /** The pod with {@code condition} set (replacing one of its type), and the phase when one is given. */
    public static Pod withCondition(Pod pod, PodCondition condition, String phase) {
        return Conditions.withPodCondition(pod, condition, phase);
    }

    static Node unknown(Node node, Instant now) {
        NodeStatus status = node.getStatus() == null ? new NodeStatus() : node.getStatus();
        List<NodeCondition> conditions = new ArrayList<>();
        List<NodeCondition> old = status.getConditions() == null ? List.of() : status.getConditions();
        for (NodeCondition c : old) {
            if (CONDITIONS.contains(c.getType()) && !"Unknown".equals(c.getStatus())) {
                conditions.add(NodeCondition.newBuilder(c).setStatus("Unknown").setReason("NodeStatusUnknown")
                        .setMessage("Kubelet stopped posting node status.").setLastTransitionTime(now).build());
            } else {
                conditions.add(c);
            }
        }
        if (old.stream().noneMatch(c -> "Ready".equals(c.getType()))) {
            conditions.add(NodeCondition.newBuilder().setType("Ready").setStatus("Unknown")
                    .setReason("NodeStatusNeverUpdated").setMessage("Kubelet never posted node status.")
                    .setLastTransitionTime(now).setLastHeartbeatTime(node.getMetadata().getCreationTimestamp()).build());
        }
        return Node.newBuilder(node).setStatus(NodeStatus.newBuilder(status).setConditions(conditions).build()).build();
    }

    public static String readyStatus(Node node) {
        return Conditions.nodeReady(node);
    }

    static String conditionStatus(Node node, String type) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return "Unknown";
        }
        return node.getStatus().getConditions().stream().filter(c -> type.equals(c.getType()))
                .map(NodeCondition::getStatus).findFirst().orElse("Unknown");
    }

    static String zone(Node node) {
        Map<String, String> labels = node.getMetadata().getLabels();
        if (labels == null) {
            return "";
        }
        return labels.getOrDefault(REGION_LABEL, "") + ":\u0000:" + labels.getOrDefault(ZONE_LABEL, "");
    }

    static boolean terminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static List<Taint> taints(Node node) {
        return node.getSpec() == null || node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints();
    }

    private static Optional<Taint> find(List<Taint> taints, String key, String effect) {
        return taints.stream().filter(t -> key.equals(t.getKey()) && effect.equals(t.getEffect())).findFirst();
    }

    private static boolean sameTaints(List<Taint> a, List<Taint> b) {
        return a.size() == b.size() && new java.util.HashSet<>(a).equals(new java.util.HashSet<>(b));
    }
}
