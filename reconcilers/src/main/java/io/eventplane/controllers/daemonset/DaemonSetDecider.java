package io.eventplane.controllers.daemonset;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.controllers.Hashes;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.DaemonSetStatus;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One level-triggered step of the DaemonSet controller for one DaemonSet (Kubernetes' syncDaemonSet in
 * daemon_controller.go): claim its pods (adopt matching orphans, release pods that stopped matching; DS-13), make its
 * revision history current ({@link DaemonSetHistory}), then {@link #manage}: one pod per eligible node (DS-04 to
 * DS-06), pods on nodes that no longer want one deleted, failed pods replaced with back-off (DS-15), excess pods on a
 * node deleted; then, once manage has nothing to do, the rolling update ({@link DaemonSetUpdate}; OnDelete waits for
 * the user, DS-16); then the status (DS-16). Pure but for {@link FailedPodBackoff}, which it reads and advances as
 * Kubernetes' does.
 *
 * <p>Pods are created without a node name, pinned to their node by node affinity (DS-07), and the default scheduler
 * binds them (DS-08). Names are deterministic ({@code <ds>-<suffix>}, suffixes of the DaemonSet's uid from a seed the
 * view gives, {@link #nameSeed}), so a decision repeated on the same view names the same pods and the writer rejects a
 * twin.
 */
final class DaemonSetDecider {
    /** At most this many creates and this many deletes per step (Kubernetes' BurstReplicas). */
    static final int BURST = 250;
    private static final int MAX_PREFIX = 58;
    static final String CONTROLLER = "daemonset-controller";

    /**
     * What one step reads.
     *
     * @param pods      the pods the DaemonSet controls, the namespace's orphans, and any whose name starts with its
     *                  pods' prefix (a new pod's name must be free)
     * @param revisions the namespace's ControllerRevisions
     */
    record Observed(DaemonSet ds, Collection<Node> nodes, Collection<Pod> pods, Collection<ControllerRevision> revisions) {
    }

    final DaemonSet ds;
    final String uid;
    final Instant now;
    final int minReadySeconds;
    final List<Node> nodes;
    /** Each node's verdict, by node name, in the nodes' order. */
    final Map<String, NodeEligibility.Verdict> verdicts = new LinkedHashMap<>();
    final Long generation;
    String hash;
    /** The pods this DaemonSet controls, claimed this step. */
    final List<Pod> owned = new ArrayList<>();
    final List<Action> actions = new ArrayList<>();
    final List<EventNotice> events = new ArrayList<>();
    private final FailedPodBackoff backoff;
    private final Set<String> names = new HashSet<>();
    private final ObjectReference involved;
    private Duration requeueAfter;

    private DaemonSetDecider(Observed o, Instant now, FailedPodBackoff backoff) {
        this.ds = o.ds();
        this.uid = ds.getMetadata().getUid();
        this.now = now;
        this.backoff = backoff;
        this.minReadySeconds = ds.getSpec().getMinReadySeconds() == null ? 0 : ds.getSpec().getMinReadySeconds();
        this.nodes = List.copyOf(o.nodes());
        NodeEligibility eligibility = NodeEligibility.of(ds);
        for (Node n : nodes) {
            verdicts.put(n.getMetadata().getName(), eligibility.on(n));
        }
        this.generation = DaemonPods.templateGeneration(ds);
        this.involved = ObjectReferences.of(ds);
        o.pods().forEach(p -> names.add(p.getMetadata().getName()));
    }

    /** One step for {@code o.ds()}. */
    static Reconciliation sync(Observed o, Instant now, FailedPodBackoff backoff) {
        DaemonSet ds = o.ds();
        if (ds.getSpec() == null || ds.getMetadata() == null || ds.getMetadata().getUid() == null
                || ds.getMetadata().getDeletionTimestamp() != null) {
            // being deleted: its pods and revisions may be going or orphaned; Kubernetes writes no status either
            return Reconciliation.NOTHING;
        }
        if (LabelSelectors.isEmpty(ds.getSpec().getSelector())) {
            return new Reconciliation(List.of(), List.of(EventNotice.warning(ObjectReferences.of(ds), "SelectingAll",
                    "This daemon set is selecting all pods. A non-empty selector is required.")), null);
        }
        return new DaemonSetDecider(o, now, backoff).step(o);
    }

    private Reconciliation step(Observed o) {
        claimPods(o.pods());
        DaemonSetHistory.Constructed history = DaemonSetHistory.construct(ds, o.revisions(), owned);
        actions.addAll(history.actions());
        if (history.current() == null) {
            // the current revision is on its way (or its name collided): pods wait for its hash
            DaemonSetStatus.Builder s = DaemonSetStatus.newBuilder(status());
            if (history.collisionCount() != null) {
                s.setCollisionCount(history.collisionCount());
            }
            updateStatus(s.build());
            return result();
        }
        hash = history.hash();
        int before = actions.size();
        manage();
        if (actions.size() == before && DaemonPods.isRollingUpdate(ds)) {
            // as Kubernetes: the rolling update runs once manage's creates and deletes are all observed
            DaemonSetUpdate.Plan plan = DaemonSetUpdate.rollingUpdate(this);
            syncNodes(plan.podsToDelete(), plan.nodesToCreate());
        }
        actions.addAll(DaemonSetHistory.cleanup(ds, history.old(), owned));
        updateStatus(calculateStatus());
        return result();
    }

    private Reconciliation result() {
        return new Reconciliation(actions, events, requeueAfter == null ? null : requeueAfter.plusMillis(10));
    }

    /** Available (Ready for minReadySeconds); a pod on its way there wakes this DaemonSet when it gets there. */
    boolean available(Pod p) {
        if (PodStates.isAvailable(p, minReadySeconds, now)) {
            return true;
        }
        PodStates.untilAvailable(p, minReadySeconds, now).ifPresent(this::requeue);
        return false;
    }

    private void requeue(Duration d) {
        if (d != null && !d.isNegative() && (requeueAfter == null || d.compareTo(requeueAfter) < 0)) {
            requeueAfter = d;
        }
    }

    // ------------------------------------------------------------------ claiming (ControllerRefManager)

    private void claimPods(Collection<Pod> pods) {
        OwnerReference ref = Owners.controllerRef(Kinds.DAEMON_SET, ds.getMetadata());
        for (Pod pod : pods) {
            ObjectMeta meta = pod.getMetadata();
            if (!Objects.equals(meta.getNamespace(), ds.getMetadata().getNamespace())) {
                continue;
            }
            boolean matches = LabelSelectors.matches(ds.getSpec().getSelector(), meta.getLabels());
            Optional<OwnerReference> controller = Owners.controllerOf(meta);
            if (controller.isPresent()) {
                if (!uid.equals(controller.get().getUid())) {
                    continue; // another controller's pod
                }
                if (matches) {
                    owned.add(pod);
                } else {
                    actions.add(new Action.Update(Pod.newBuilder(pod).setMetadata(Owners.release(meta, uid)).build()));
                }
            } else if (matches && !PodStates.isTerminating(pod)) {
                // DS-13: an orphan that matches (left by an orphaning delete) is adopted as it is
                Pod adopted = Pod.newBuilder(pod).setMetadata(Owners.adopt(meta, ref)).build();
                actions.add(new Action.Update(adopted));
                owned.add(adopted);
            }
        }
    }

    // ------------------------------------------------------------------ manage

    /**
     * Kubernetes' getNodesToDaemonPods: the owned pods by the node they are for (bound, or pinned while pending);
     * finished pods being deleted are left out unless {@code includeDeletedTerminal}.
     */
    Map<String, List<Pod>> nodeToDaemonPods(boolean includeDeletedTerminal) {
        Map<String, List<Pod>> out = new HashMap<>();
        for (Pod p : owned) {
            if (!includeDeletedTerminal && PodStates.isTerminal(p) && PodStates.isTerminating(p)) {
                continue;
            }
            String node = DaemonPods.targetNode(p);
            if (node != null) {
                out.computeIfAbsent(node, k -> new ArrayList<>()).add(p);
            }
        }
        return out;
    }

    /** Kubernetes' manage: for each node, the pod it lacks or the pods it has too many of. */
    private void manage() {
        Map<String, List<Pod>> byNode = nodeToDaemonPods(false);
        List<String> needing = new ArrayList<>();
        List<Pod> toDelete = new ArrayList<>();
        for (Node node : nodes) {
            String name = node.getMetadata().getName();
            podsShouldBeOnNode(name, verdicts.get(name), byNode.get(name), needing, toDelete);
        }
        // pending pods pinned to a node that is gone never get bound, and PodGC only removes bound ones
        for (Map.Entry<String, List<Pod>> e : byNode.entrySet()) {
            if (!verdicts.containsKey(e.getKey())) {
                for (Pod p : e.getValue()) {
                    if (p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty()) {
                        toDelete.add(p);
                    }
                }
            }
        }
        syncNodes(toDelete, needing);
    }

    /** Kubernetes' podsShouldBeOnNode. */
    private void podsShouldBeOnNode(String node, NodeEligibility.Verdict verdict, List<Pod> daemonPods,
                                    List<String> needing, List<Pod> toDelete) {
        boolean exists = daemonPods != null;
        if (verdict.shouldRun() && !exists) {
            needing.add(node);
        } else if (verdict.shouldContinueRunning() && exists) {
            List<Pod> running = new ArrayList<>();
            for (Pod pod : daemonPods) {
                if (PodStates.isTerminating(pod)) {
                    continue;
                }
                String phase = PodStates.phase(pod);
                if ("Failed".equals(phase)) {
                    replaceFailed(pod, node, toDelete);
                } else if ("Succeeded".equals(phase)) {
                    events.add(EventNotice.normal(involved, "SucceededDaemonPod", "Found succeeded daemon pod "
                            + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " on node " + node
                            + ", will try to delete it"));
                    toDelete.add(pod);
                } else {
                    running.add(pod);
                }
            }
            running.sort(DaemonPods.OLDEST_FIRST);
            if (!DaemonPods.allowsSurge(ds)) {
                // more than one pod on a node: all but the oldest go
                toDelete.addAll(running.subList(Math.min(1, running.size()), running.size()));
                return;
            }
            if (running.size() <= 1) {
                if (running.isEmpty() && verdict.shouldRun()) {
                    needing.add(node); // surging: at least one pod that is not being deleted
                }
                return;
            }
            // Surging: the oldest new pod and the oldest old pod may both stay while the new one is not yet available
            Pod oldestNew = null;
            Pod oldestOld = null;
            for (Pod pod : running) {
                if (hash.equals(label(pod, io.eventplane.controllers.history.Revisions.HASH_LABEL))) {
                    if (oldestNew == null) {
                        oldestNew = pod;
                        continue;
                    }
                } else if (oldestOld == null) {
                    oldestOld = pod;
                    continue;
                }
                toDelete.add(pod);
            }
            if (oldestNew != null && oldestOld != null
                    && (!PodStates.isReady(oldestOld) || available(oldestNew))) {
                toDelete.add(oldestOld);
            }
        } else if (!verdict.shouldContinueRunning() && exists) {
            for (Pod pod : daemonPods) {
                if (!PodStates.isTerminating(pod)) {
                    toDelete.add(pod);
                }
            }
        }
    }

    /** DS-15: a failed daemon pod is deleted (and so replaced), at most as often as the back-off allows. */
    private void replaceFailed(Pod pod, String node, List<Pod> toDelete) {
        long observed = ds.getStatus() == null || ds.getStatus().getObservedGeneration() == null ? 0
                : ds.getStatus().getObservedGeneration();
        String key = FailedPodBackoff.key(uid, observed, node);
        Duration wait = backoff.remaining(key, now);
        if (wait.compareTo(Duration.ZERO) > 0) {
            requeue(wait);
            return;
        }
        backoff.next(key, now);
        events.add(EventNotice.warning(involved, "FailedDaemonPod", "Found failed daemon pod "
                + pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName() + " on node " + node
                + ", will try to kill it"));
        toDelete.add(pod);
    }

    /** Kubernetes' syncNodes: deletes {@code toDelete} and creates a pod for each of {@code nodesNeeding}, BURST each. */
    void syncNodes(List<Pod> toDelete, List<String> nodesNeeding) {
        if (!nodesNeeding.isEmpty()) {
            PodTemplateSpec template = DaemonPods.podTemplate(ds.getSpec().getTemplate(), generation, hash);
            OwnerReference ref = Owners.controllerRef(Kinds.DAEMON_SET, ds.getMetadata());
            long index = nameSeed();
            for (String node : nodesNeeding.subList(0, Math.min(BURST, nodesNeeding.size()))) {
                String name;
                do {
                    name = namePrefix(ds.getMetadata().getName()) + Hashes.suffix(uid, index++);
                } while (names.contains(name));
                names.add(name);
                actions.add(new Action.Create(newPod(template, name, node, ref), EventNotice.normal(involved,
                        "SuccessfulCreate", "Created pod: " + name), "FailedCreate"));
            }
        }
        Set<String> deleting = new HashSet<>();
        for (Pod p : toDelete) {
            ObjectMeta m = p.getMetadata();
            if (deleting.size() >= BURST || !deleting.add(m.getUid())) {
                continue;
            }
            actions.add(new Action.Delete(Kinds.POD, m.getNamespace(), m.getName(), m.getUid(),
                    EventNotice.normal(involved, "SuccessfulDelete", "Deleted pod: " + m.getName()), "FailedDelete"));
        }
    }

    /**
     * Where this step's pod names start: the DaemonSet's resourceVersion, which every step's status update moves on.
     * The same view names the same pods (the writer rejects a twin), and a pod replaced later never takes the name
     * of the one it replaces.
     */
    private long nameSeed() {
        try {
            return Long.parseLong(ds.getMetadata().getResourceVersion()) * BURST;
        } catch (NumberFormatException | NullPointerException e) {
            return 0;
        }
    }

    static String namePrefix(String dsName) {
        String base = dsName + "-";
        return base.length() > MAX_PREFIX ? base.substring(0, MAX_PREFIX) : base;
    }

    /** A pod from the template, pinned to {@code node} (DS-07): no nodeName, the scheduler binds it. */
    private Pod newPod(PodTemplateSpec template, String name, String node, OwnerReference ref) {
        ObjectMeta t = template.getMetadata();
        ObjectMeta meta = ObjectMeta.newBuilder()
                .setName(name)
                .setGenerateName(namePrefix(ds.getMetadata().getName()))
                .setNamespace(ds.getMetadata().getNamespace())
                .setLabels(t.getLabels() == null ? null : new HashMap<>(t.getLabels()))
                .setAnnotations(t.getAnnotations() == null ? null : new HashMap<>(t.getAnnotations()))
                .setFinalizers(t.getFinalizers())
                .setOwnerReferences(List.of(ref))
                .build();
        PodSpec spec = PodSpec.newBuilder(template.getSpec())
                .setAffinity(DaemonPods.pinnedTo(template.getSpec().getAffinity(), node)).build();
        return Pod.newBuilder().setMetadata(meta).setSpec(spec).build();
    }

    static String label(Pod pod, String key) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    // ------------------------------------------------------------------ status

    /** Kubernetes' updateDaemonSetStatus: counted per node over the oldest pod each node has. */
    private DaemonSetStatus calculateStatus() {
        Map<String, List<Pod>> byNode = nodeToDaemonPods(false);
        int desired = 0;
        int current = 0;
        int misscheduled = 0;
        int ready = 0;
        int updated = 0;
        int available = 0;
        for (Node node : nodes) {
            String name = node.getMetadata().getName();
            List<Pod> pods = byNode.get(name);
            boolean scheduled = pods != null && !pods.isEmpty();
            if (!verdicts.get(name).shouldRun()) {
                if (scheduled) {
                    misscheduled++;
                }
                continue;
            }
            desired++;
            if (!scheduled) {
                continue;
            }
            current++;
            Pod pod = pods.stream().min(DaemonPods.OLDEST_FIRST).orElseThrow();
            if (PodStates.isReady(pod)) {
                ready++;
                if (available(pod)) {
                    available++;
                }
            }
            if (DaemonPods.isUpdated(pod, hash, generation)) {
                updated++;
            }
        }
        return DaemonSetStatus.newBuilder(status())
                .setDesiredNumberScheduled(desired)
                .setCurrentNumberScheduled(current)
                .setNumberMisscheduled(misscheduled)
                .setNumberReady(ready)
                .setUpdatedNumberScheduled(omitZero(updated))
                .setNumberAvailable(omitZero(available))
                .setNumberUnavailable(omitZero(desired - available))
                .setObservedGeneration(ds.getMetadata().getGeneration())
                .build();
    }

    /** Kubernetes omits these three counters when they are 0 (omitempty), the other four it always shows. */
    private static Integer omitZero(int n) {
        return n == 0 ? null : n;
    }

    private DaemonSetStatus status() {
        return ds.getStatus() == null ? new DaemonSetStatus() : ds.getStatus();
    }

    private void updateStatus(DaemonSetStatus next) {
        if (!Objects.equals(next, ds.getStatus())) {
            // recomputed from the view at every step, so sent without a resourceVersion precondition
            actions.add(new Action.UpdateStatus(DaemonSet.newBuilder(ds).setStatus(next)
                    .setMetadata(ObjectMeta.newBuilder(ds.getMetadata()).setResourceVersion(null).build()).build()));
        }
    }
}
