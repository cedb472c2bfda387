package io.eventplane.controllers.deployment;

import static io.eventplane.controllers.deployment.DeploymentAnnotations.DESIRED_REPLICAS;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.MAX_REPLICAS;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One step of the Deployment controller: what it was given (the Deployment, the namespace's ReplicaSets and pods, the
 * time) and what it has decided so far (the owned ReplicaSets as the step leaves them, the Deployment's annotations
 * and status, Events, deletions, when to look again). The parts of the decision ({@link DeploymentSync},
 * {@link DeploymentRevisions}, {@link RollingRollout}, {@link RecreateRollout}, {@link DeploymentProgress}) read and
 * change it; {@link #result} turns it into commands. It lives for one {@link DeploymentDecider#decide} call.
 *
 * <p>Besides the state it holds the primitives every part shares: the ReplicaSet lookups and {@link #scale}.
 */
final class DeploymentStep {
    static final Comparator<ReplicaSet> BY_CREATION = Comparator
            .comparing((ReplicaSet rs) -> rs.getMetadata().getCreationTimestamp() == null ? Instant.MAX
                    : rs.getMetadata().getCreationTimestamp())
            .thenComparing(rs -> rs.getMetadata().getName());

    final Deployment d;
    final Instant now;
    final ObjectReference involved;
    /** Every pod of the namespace (read for Recreate: no new pod while an old one exists). */
    final List<Pod> pods;
    /** Every ReplicaSet of the namespace (read for a new ReplicaSet's name collision). */
    final List<ReplicaSet> namespaceReplicaSets;
    /** The ReplicaSets this Deployment owns, as this step leaves them, by name (in creation order). */
    final Map<String, ReplicaSet> owned = new LinkedHashMap<>();
    /** The owned ReplicaSets as they were stored: a ReplicaSet that differs at the end is updated. */
    final Map<String, ReplicaSet> original = new HashMap<>();
    /** The ScalingReplicaSet Event of each ReplicaSet this step resized, recorded once the writer accepts it. */
    final Map<String, EventNotice> scalingEvents = new HashMap<>();
    /** Names of the ReplicaSets this step creates. */
    final List<String> created = new ArrayList<>();
    final List<Action> actions = new ArrayList<>();
    final List<EventNotice> events = new ArrayList<>();
    /** The Deployment's annotations as this step leaves them (the revision). */
    final Map<String, String> annotations;
    /** The Deployment's status as this step leaves it. */
    DeploymentStatus status;
    Duration requeueAfter;

    DeploymentStep(Deployment d, List<ReplicaSet> replicaSets, List<Pod> pods, Instant now) {
        this.d = d;
        this.now = now;
        this.pods = pods;
        this.namespaceReplicaSets = replicaSets;
        this.involved = ObjectReferences.of(d);
        this.annotations = new HashMap<>(d.getMetadata().getAnnotations() == null ? Map.of()
                : d.getMetadata().getAnnotations());
        this.status = d.getStatus() == null ? new DeploymentStatus() : DeploymentStatus.newBuilder(d.getStatus()).build();
        claim(replicaSets);
    }

    /** ReplicaSets controlled by this Deployment; orphans matching its selector are adopted, strays released. */
    private void claim(List<ReplicaSet> replicaSets) {
        String uid = d.getMetadata().getUid();
        LabelSelector selector = d.getSpec().getSelector();
        boolean deleting = d.getMetadata().getDeletionTimestamp() != null;
        List<ReplicaSet> mine = new ArrayList<>();
        for (ReplicaSet rs : replicaSets) {
            ObjectMeta meta = rs.getMetadata();
            Map<String, String> labels = meta.getLabels();
            boolean matches = !LabelSelectors.isEmpty(selector) && LabelSelectors.matches(selector, labels);
            Optional<OwnerReference> controller = Owners.controllerOf(meta);
            if (controller.isPresent()) {
                if (!uid.equals(controller.get().getUid())) {
                    continue;
                }
                if (matches || deleting) {
                    mine.add(rs);
                } else {
                    actions.add(new Action.Update(ReplicaSet.newBuilder(rs)
                            .setMetadata(Owners.release(meta, uid)).build(), null, null));
                }
            } else if (matches && !deleting && meta.getDeletionTimestamp() == null) {
                ReplicaSet adopted = ReplicaSet.newBuilder(rs)
                        .setMetadata(Owners.adopt(meta, Owners.controllerRef(Kinds.DEPLOYMENT, d.getMetadata()))).build();
                original.put(meta.getName(), rs);
                mine.add(adopted);
            }
        }
        mine.sort(BY_CREATION);
        for (ReplicaSet rs : mine) {
            owned.put(rs.getMetadata().getName(), rs);
            original.putIfAbsent(rs.getMetadata().getName(), rs);
        }
    }

    // ------------------------------------------------------------------ the Deployment

    boolean paused() {
        return Boolean.TRUE.equals(d.getSpec().getPaused());
    }

    int desired() {
        return RolloutMath.replicas(d);
    }

    int minReadySeconds() {
        return d.getSpec().getMinReadySeconds() == null ? 0 : d.getSpec().getMinReadySeconds();
    }

    boolean hasProgressDeadline() {
        Integer p = d.getSpec().getProgressDeadlineSeconds();
        return p != null && p != Integer.MAX_VALUE;
    }

    // ------------------------------------------------------------------ the owned ReplicaSets

    /** {@code rs} as this step has left it so far. */
    ReplicaSet current(ReplicaSet rs) {
        return owned.get(rs.getMetadata().getName());
    }

    void put(ReplicaSet rs) {
        owned.put(rs.getMetadata().getName(), rs);
    }

    /** Every owned ReplicaSet but the new one. */
    List<ReplicaSet> olds(ReplicaSet newRs) {
        List<ReplicaSet> out = new ArrayList<>();
        for (ReplicaSet rs : owned.values()) {
            if (newRs == null || !rs.getMetadata().getName().equals(newRs.getMetadata().getName())) {
                out.add(rs);
            }
        }
        return out;
    }

    /** The new ReplicaSet (when there is one) and {@code olds}, as this step has left them. */
    List<ReplicaSet> all(ReplicaSet newRs, List<ReplicaSet> olds) {
        List<ReplicaSet> out = new ArrayList<>();
        if (newRs != null) {
            out.add(current(newRs));
        }
        for (ReplicaSet rs : olds) {
            out.add(current(rs));
        }
        return out;
    }

    /** The replicas the owned ReplicaSets are sized for, together. */
    int ownedReplicas() {
        int total = 0;
        for (ReplicaSet rs : owned.values()) {
            total += spec(rs);
        }
        return total;
    }

    static List<ReplicaSet> active(List<ReplicaSet> list) {
        return list.stream().filter(rs -> rs != null && spec(rs) > 0).toList();
    }

    /** Scales to {@code size} and keeps desired/max-replicas current; true when the size changed. */
    boolean scale(ReplicaSet rs, int size) {
        ReplicaSet cur = current(rs);
        int old = spec(cur);
        Map<String, String> a = new HashMap<>(annotationsOf(cur));
        boolean annotated = setReplicasAnnotations(a);
        if (old == size && !annotated) {
            return false;
        }
        ReplicaSet next = ReplicaSet.newBuilder(cur)
                .setMetadata(ObjectMeta.newBuilder(cur.getMetadata()).setAnnotations(a).build())
                .setSpec(ReplicaSetSpec.newBuilder(cur.getSpec()).setReplicas(size).build())
                .build();
        put(next);
        if (old != size) {
            String name = cur.getMetadata().getName();
            scalingEvents.put(name, EventNotice.normal(involved, "ScalingReplicaSet",
                    "Scaled " + (size > old ? "up" : "down") + " replica set " + name + " to " + size));
            return true;
        }
        return false;
    }

    boolean scaleIfNeeded(ReplicaSet rs, int size) {
        return spec(current(rs)) != size && scale(rs, size);
    }

    private boolean setReplicasAnnotations(Map<String, String> a) {
        String desired = Integer.toString(desired());
        String max = Integer.toString(desired() + RolloutMath.maxSurge(d));
        boolean changed = !desired.equals(a.get(DESIRED_REPLICAS)) || !max.equals(a.get(MAX_REPLICAS));
        a.put(DESIRED_REPLICAS, desired);
        a.put(MAX_REPLICAS, max);
        return changed;
    }

    // ------------------------------------------------------------------ reading a ReplicaSet

    static int spec(ReplicaSet rs) {
        return rs == null || rs.getSpec() == null || rs.getSpec().getReplicas() == null ? 0 : rs.getSpec().getReplicas();
    }

    static int available(ReplicaSet rs) {
        return rs == null || rs.getStatus() == null || rs.getStatus().getAvailableReplicas() == null ? 0
                : rs.getStatus().getAvailableReplicas();
    }

    static int statusReplicas(ReplicaSet rs) {
        return rs == null || rs.getStatus() == null || rs.getStatus().getReplicas() == null ? 0
                : rs.getStatus().getReplicas();
    }

    static Map<String, String> annotationsOf(ReplicaSet rs) {
        return rs.getMetadata().getAnnotations() == null ? Map.of() : rs.getMetadata().getAnnotations();
    }

    static int n(Integer i) {
        return i == null ? 0 : i;
    }

    // ------------------------------------------------------------------ the result

    /** The commands: create or update each ReplicaSet that changed, then the Deployment's annotations and status. */
    Reconciliation result() {
        for (Map.Entry<String, ReplicaSet> e : owned.entrySet()) {
            String name = e.getKey();
            ReplicaSet rs = e.getValue();
            if (created.contains(name)) {
                actions.add(new Action.Create(rs, scalingEvents.get(name), null));
            } else if (!rs.equals(original.get(name))) {
                actions.add(new Action.Update(rs, scalingEvents.get(name), null));
            }
        }
        Map<String, String> before = d.getMetadata().getAnnotations() == null ? Map.of() : d.getMetadata().getAnnotations();
        if (!annotations.equals(before)) {
            actions.add(new Action.Update(Deployment.newBuilder(d)
                    .setMetadata(ObjectMeta.newBuilder(d.getMetadata()).setAnnotations(annotations).build()).build(),
                    null, null));
        }
        if (!status.equals(d.getStatus())) {
            actions.add(new Action.UpdateStatus(Deployment.newBuilder(d)
                    .setMetadata(ObjectMeta.newBuilder(d.getMetadata()).setResourceVersion(null).build())
                    .setStatus(status).build()));
        }
        return new Reconciliation(actions, events, requeueAfter);
    }
}
