package io.eventplane.controllers.replicaset;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.reconcile.Action;
import io.eventplane.controllers.Hashes;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The replica decision shared by ReplicaSet (§2) and ReplicationController (§9): given the owner and every pod of its
 * namespace, which pods to adopt (RS-08), release (RS-13), create or delete (RS-01, RS-10, RS-11, RS-15, RS-16), and
 * the status they add up to (RS-23). Pure: time comes in as {@code now}.
 *
 * <p>Names of new pods are deterministic ({@code <owner>-<suffix>} with the n-th suffix of the owner's uid, the lowest
 * n whose name is free), so re-deciding on the same view names the same pods and the writer rejects a second create.
 */
public final class ReplicaSetDecider {
    /** At most this many creates or deletes per step (Kubernetes' burstReplicas). */
    public static final int BURST = 500;
    /** Kubernetes truncates generateName to leave room for a 5-character suffix within 63 characters. */
    private static final int MAX_PREFIX = 58;
    public static final String DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

    private ReplicaSetDecider() {
    }

    /**
     * @param pods        every pod of the owner's namespace, or at least those it controls, the namespace's orphans and
     *                    those whose names start with its pods' name prefix
     * @param lastFailure the message of the last rejected create or delete since the last successful one, or null
     */
    public static ReplicaDecision decide(ReplicaOwner owner, Collection<Pod> pods, Instant now, String lastFailure) {
        List<Action> actions = new ArrayList<>();
        String uid = owner.meta().getUid();
        OwnerReference ref = Owners.controllerRef(owner.kind(), owner.meta());
        List<Pod> owned = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Pod pod : pods) {
            ObjectMeta meta = pod.getMetadata();
            names.add(meta.getName());
            boolean matches = owner.selector().test(meta.getLabels());
            Optional<OwnerReference> controller = Owners.controllerOf(meta);
            if (controller.isPresent()) {
                if (!uid.equals(controller.get().getUid())) {
                    continue; // another controller's pod (RS-12)
                }
                if (matches) {
                    owned.add(pod);
                } else if (!owner.deleting()) {
                    // RS-13: it left the set; drop our reference
                    actions.add(new Action.Update(Pod.newBuilder(pod).setMetadata(Owners.release(meta, uid)).build(),
                            null, null));
                }
            } else if (matches && !owner.deleting() && !PodStates.isTerminating(pod)) {
                // RS-08: an orphan that matches is acquired at once
                Pod adopted = Pod.newBuilder(pod).setMetadata(Owners.adopt(meta, ref)).build();
                actions.add(new Action.Update(adopted, null, null));
                owned.add(adopted);
            }
        }
        List<Pod> active = owned.stream().filter(PodStates::isActive).toList();
        ObjectReference involved = ObjectReferences.of(owner.object());
        if (!owner.deleting()) {
            int diff = active.size() - owner.replicas();
            if (diff < 0) {
                int n = Math.min(-diff, BURST);
                long index = 0;
                for (int i = 0; i < n; i++) {
                    String name;
                    do {
                        name = namePrefix(owner.meta().getName()) + Hashes.suffix(uid, index++);
                    } while (names.contains(name));
                    names.add(name);
                    Pod pod = newPod(owner, name, ref);
                    actions.add(new Action.Create(pod, EventNotice.normal(involved, "SuccessfulCreate",
                            "Created pod: " + name), "FailedCreate"));
                }
            } else if (diff > 0) {
                for (Pod victim : victims(active, Math.min(diff, BURST), now)) {
                    ObjectMeta m = victim.getMetadata();
                    actions.add(new Action.Delete(io.eventplane.core.kinds.Kinds.POD, m.getNamespace(), m.getName(),
                            m.getUid(), EventNotice.normal(involved, "SuccessfulDelete", "Deleted pod: " + m.getName()),
                            "FailedDelete"));
                }
            }
        }
        return new ReplicaDecision(actions, status(owner, active, now, lastFailure), requeueAfter(owner, active, now));
    }

    static String namePrefix(String ownerName) {
        String base = ownerName + "-";
        return base.length() > MAX_PREFIX ? base.substring(0, MAX_PREFIX) : base;
    }

    /** A pod from the template: its labels and annotations, our controller reference, the template's spec. */
    static Pod newPod(ReplicaOwner owner, String name, OwnerReference ref) {
        ObjectMeta template = owner.template() == null || owner.template().getMetadata() == null ? new ObjectMeta()
                : owner.template().getMetadata();
        ObjectMeta meta = ObjectMeta.newBuilder()
                .setName(name)
                .setGenerateName(namePrefix(owner.meta().getName()))
                .setNamespace(owner.meta().getNamespace())
                .setLabels(template.getLabels() == null ? null : new HashMap<>(template.getLabels()))
                .setAnnotations(template.getAnnotations() == null ? null : new HashMap<>(template.getAnnotations()))
                .setFinalizers(template.getFinalizers())
                .setOwnerReferences(List.of(ref))
                .build();
        PodSpec spec = owner.template().getSpec();
        return Pod.newBuilder().setMetadata(meta).setSpec(spec == null ? null : PodSpec.newBuilder(spec).build()).build();
    }

    /**
     * The {@code count} pods to delete first (RS-22, Kubernetes' order): unscheduled before scheduled; Pending before
     * Unknown before Running; not Ready before Ready; lower pod-deletion-cost first; pods on nodes crowded with this
     * owner's pods first; Ready more recently first; more restarts first; created more recently first. Times compare
     * on a logarithmic scale, as Kubernetes does, so pods of about the same age compare by the later criteria.
     */
    static List<Pod> victims(List<Pod> active, int count, Instant now) {
        Map<String, Integer> perNode = new HashMap<>();
        for (Pod p : active) {
            String node = nodeName(p);
            if (node != null) {
                perNode.merge(node, 1, Integer::sum);
            }
        }
        Comparator<Pod> order = Comparator
                .comparingInt((Pod p) -> nodeName(p) == null ? 0 : 1)
                .thenComparingInt(p -> phaseRank(PodStates.phase(p)))
                .thenComparingInt(p -> PodStates.isReady(p) ? 1 : 0)
                .thenComparingInt(ReplicaSetDecider::deletionCost)
                .thenComparingInt(p -> -perNode.getOrDefault(nodeName(p), 0))
                .thenComparingInt(p -> PodStates.readySince(p).map(t -> logBucket(t, now)).orElse(0))
                .thenComparingInt(p -> -PodStates.restarts(p))
                .thenComparingInt(p -> logBucket(p.getMetadata().getCreationTimestamp(), now))
                .thenComparing(p -> p.getMetadata().getName(), Comparator.reverseOrder());
        return active.stream().sorted(order).limit(count).toList();
    }

    private static String nodeName(Pod p) {
        String n = p.getSpec() == null ? null : p.getSpec().getNodeName();
        return n == null || n.isEmpty() ? null : n;
    }

    private static int phaseRank(String phase) {
        return switch (phase) {
            case "Pending" -> 0;
            case "Unknown" -> 1;
            case "Running" -> 2;
            default -> 3;
        };
    }

    private static int deletionCost(Pod p) {
        Map<String, String> a = p.getMetadata().getAnnotations();
        String v = a == null ? null : a.get(DELETION_COST);
        if (v == null) {
            return 0;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** floor(log2(age in seconds + 1)): younger pods get smaller buckets. */
    private static int logBucket(Instant t, Instant now) {
        if (t == null) {
            return Integer.MAX_VALUE;
        }
        long age = Math.max(0, Duration.between(t, now).getSeconds());
        return 63 - Long.numberOfLeadingZeros(age + 1);
    }

    static ReplicaCounts status(ReplicaOwner owner, List<Pod> active, Instant now, String lastFailure) {
        Map<String, String> templateLabels = owner.template() == null || owner.template().getMetadata() == null
                || owner.template().getMetadata().getLabels() == null ? Map.of()
                : owner.template().getMetadata().getLabels();
        int fully = 0;
        int ready = 0;
        int available = 0;
        for (Pod p : active) {
            Map<String, String> labels = p.getMetadata().getLabels() == null ? Map.of() : p.getMetadata().getLabels();
            if (labels.entrySet().containsAll(templateLabels.entrySet())) {
                fully++;
            }
            if (PodStates.isReady(p)) {
                ready++;
                if (PodStates.isAvailable(p, owner.minReadySeconds(), now)) {
                    available++;
                }
            }
        }
        ReplicaFailure failure = null;
        if (lastFailure != null) {
            String reason = lastFailure.startsWith("Error deleting") ? "FailedDelete" : "FailedCreate";
            ReplicaFailure current = owner.currentFailure();
            failure = current != null && current.reason().equals(reason) && current.message().equals(lastFailure)
                    ? current : new ReplicaFailure(reason, lastFailure,
                    current != null && current.reason().equals(reason) ? current.lastTransitionTime() : now);
        }
        return new ReplicaCounts(active.size(), fully, ready, available, owner.generation(), failure);
    }

    private static Duration requeueAfter(ReplicaOwner owner, List<Pod> active, Instant now) {
        Duration next = null;
        for (Pod p : active) {
            Optional<Duration> d = PodStates.untilAvailable(p, owner.minReadySeconds(), now);
            if (d.isPresent() && (next == null || d.get().compareTo(next) < 0)) {
                next = d.get();
            }
        }
        return next == null ? null : next.plusMillis(10);
    }

}
