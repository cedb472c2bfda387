package io.eventplane.controllers.deployment;

import static io.eventplane.controllers.deployment.DeploymentAnnotations.CHANGE_CAUSE;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.DESIRED_REPLICAS;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.MAX_REPLICAS;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.NOT_COPIED;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.POD_TEMPLATE_HASH;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.REVISION;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.REVISION_HISTORY;

import io.eventplane.client.events.EventNotice;
import io.eventplane.client.events.ObjectReferences;
import io.eventplane.reconcile.Action;
import io.eventplane.controllers.Hashes;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.Deployment;
import io.eventplane.model.DeploymentCondition;
import io.eventplane.model.DeploymentStatus;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ObjectReference;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetCondition;
import io.eventplane.model.ReplicaSetSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The Deployment controller's decision (§1): given a Deployment, the ReplicaSets and pods of its namespace and the
 * time, one level-triggered step: adopt or release ReplicaSets, find or create the new ReplicaSet (named
 * {@code <deployment>-<pod-template-hash>}), sync revisions, scale (RollingUpdate, Recreate, proportional scaling
 * while paused or mid-rollout), clean up history, and compute status and conditions. Pure; the clock is {@code now}.
 *
 * <p>As Kubernetes' controller, a step does one thing: when it scaled the new ReplicaSet up, old ones are scaled down
 * on a later step that sees the result. That is what makes the ScalingReplicaSet sequence of DEP-28 come out exactly.
 */
public final class DeploymentDecider {
    public static final String PROGRESSING = "Progressing";
    public static final String AVAILABLE = "Available";
    public static final String REPLICA_FAILURE = "ReplicaFailure";

    private final Deployment d;
    private final Instant now;
    private final ObjectReference involved;
    private final List<Pod> pods;
    private final List<ReplicaSet> namespaceReplicaSets;
    /** The ReplicaSets this Deployment owns, as this step leaves them, by name (in creation order). */
    private final Map<String, ReplicaSet> owned = new LinkedHashMap<>();
    private final Map<String, ReplicaSet> original = new HashMap<>();
    private final Map<String, EventNotice> scalingEvents = new HashMap<>();
    private final List<String> created = new ArrayList<>();
    private final List<Action> actions = new ArrayList<>();
    private final List<EventNotice> events = new ArrayList<>();
    private final Map<String, String> annotations;
    private DeploymentStatus status;
    private Duration requeueAfter;

    private DeploymentDecider(Deployment d, List<ReplicaSet> replicaSets, List<Pod> pods, Instant now) {
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

    /**
     * @param replicaSets every ReplicaSet of the Deployment's namespace
     * @param pods        every pod of the namespace (read for Recreate: no new pod while an old one exists)
     */
    public static Reconciliation decide(Deployment d, List<ReplicaSet> replicaSets, List<Pod> pods, Instant now) {
        if (d.getSpec() == null || d.getMetadata() == null || d.getMetadata().getUid() == null) {
            return Reconciliation.NOTHING;
        }
        DeploymentDecider step = new DeploymentDecider(d, replicaSets, pods, now);
        step.sync();
        return step.result();
    }

    // ------------------------------------------------------------------ the step

    private void sync() {
        if (LabelSelectors.isEmpty(d.getSpec().getSelector())) {
            events.add(EventNotice.warning(involved, "SelectingAll",
                    "This deployment is selecting all pods. A non-empty selector is required."));
            status.setObservedGeneration(d.getMetadata().getGeneration());
            return;
        }
        if (d.getMetadata().getDeletionTimestamp() != null) {
            syncStatusOnly();
            return;
        }
        checkPausedConditions();
        if (paused() || isScalingEvent()) {
            syncScale();
            return;
        }
        if (RolloutMath.isRollingUpdate(d)) {
            rolloutRolling();
        } else {
            rolloutRecreate();
        }
    }

    private boolean paused() {
        return Boolean.TRUE.equals(d.getSpec().getPaused());
    }

    private int desired() {
        return RolloutMath.replicas(d);
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

    static final Comparator<ReplicaSet> BY_CREATION = Comparator
            .comparing((ReplicaSet rs) -> rs.getMetadata().getCreationTimestamp() == null ? Instant.MAX
                    : rs.getMetadata().getCreationTimestamp())
            .thenComparing(rs -> rs.getMetadata().getName());

    // ------------------------------------------------------------------ new and old ReplicaSets, revisions

    /** The oldest owned ReplicaSet whose template is the Deployment's (ignoring pod-template-hash), or null. */
    private ReplicaSet findNew() {
        String wanted = Hashes.canonical(withoutHash(d.getSpec().getTemplate()));
        for (ReplicaSet rs : owned.values()) {
            if (rs.getSpec() != null && wanted.equals(Hashes.canonical(withoutHash(rs.getSpec().getTemplate())))) {
                return rs;
            }
        }
        return null;
    }

    private List<ReplicaSet> olds(ReplicaSet newRs) {
        List<ReplicaSet> out = new ArrayList<>();
        for (ReplicaSet rs : owned.values()) {
            if (newRs == null || !rs.getMetadata().getName().equals(newRs.getMetadata().getName())) {
                out.add(rs);
            }
        }
        return out;
    }

    static PodTemplateSpec withoutHash(PodTemplateSpec t) {
        if (t == null || t.getMetadata() == null || t.getMetadata().getLabels() == null
                || !t.getMetadata().getLabels().containsKey(POD_TEMPLATE_HASH)) {
            return t;
        }
        Map<String, String> labels = new HashMap<>(t.getMetadata().getLabels());
        labels.remove(POD_TEMPLATE_HASH);
        return PodTemplateSpec.newBuilder(t)
                .setMetadata(ObjectMeta.newBuilder(t.getMetadata()).setLabels(labels.isEmpty() ? null : labels).build())
                .build();
    }

    /**
     * The new ReplicaSet with its revision synced (DEP-23: max old revision + 1; a reused one, as after a rollback, is
     * renumbered and its old number goes to revision-history, DEP-42), created if asked and missing.
     */
    private ReplicaSet syncRevision(boolean createIfMissing) {
        ReplicaSet newRs = findNew();
        long maxOld = 0;
        for (ReplicaSet rs : olds(newRs)) {
            maxOld = Math.max(maxOld, DeploymentAnnotations.revision(rs.getMetadata().getAnnotations()));
        }
        String newRevision = Long.toString(maxOld + 1);
        if (newRs != null) {
            ReplicaSet rs = newRs;
            Map<String, String> a = new HashMap<>(annotationsOf(rs));
            boolean changed = copyAnnotations(a);
            changed |= setRevision(a, newRevision, true);
            ReplicaSetSpec spec = rs.getSpec();
            int minReady = minReadySeconds();
            if (changed || !Objects.equals(spec.getMinReadySeconds() == null ? 0 : spec.getMinReadySeconds(), minReady)) {
                rs = ReplicaSet.newBuilder(rs)
                        .setMetadata(ObjectMeta.newBuilder(rs.getMetadata()).setAnnotations(a).build())
                        .setSpec(ReplicaSetSpec.newBuilder(spec).setMinReadySeconds(minReady).build())
                        .build();
                put(rs);
            }
            annotations.put(REVISION, annotationsOf(rs).getOrDefault(REVISION, newRevision));
            if (hasProgressDeadline() && condition(PROGRESSING) == null) {
                setCondition(condition(PROGRESSING, "True", "FoundNewReplicaSet",
                        "Found new replica set \"" + rs.getMetadata().getName() + "\""));
            }
            return rs;
        }
        if (!createIfMissing) {
            return null;
        }
        Integer collisions = status.getCollisionCount();
        String hash = Hashes.templateHash(d.getSpec().getTemplate(), collisions);
        String name = d.getMetadata().getName() + "-" + hash;
        for (ReplicaSet other : otherReplicaSetsNamed(name)) {
            // A ReplicaSet of that name that is not ours or has another template: a hash collision; count it so
            // the next step names a different one (Kubernetes' collisionCount).
            status.setCollisionCount(collisions == null ? 1 : collisions + 1);
            return null;
        }
        int replicas = newReplicasCount(null);
        ReplicaSet rs = newReplicaSet(name, hash, replicas, newRevision);
        owned.put(name, rs);
        created.add(name);
        if (replicas > 0) {
            scalingEvents.put(name, EventNotice.normal(involved, "ScalingReplicaSet",
                    "Scaled up replica set " + name + " to " + replicas));
        }
        annotations.put(REVISION, newRevision);
        if (hasProgressDeadline()) {
            setCondition(condition(PROGRESSING, "True", "NewReplicaSetCreated",
                    "Created new replica set \"" + name + "\""));
        }
        return rs;
    }

    /** Any ReplicaSet of the namespace with that name: not the new one (it would have been found), so a collision. */
    private List<ReplicaSet> otherReplicaSetsNamed(String name) {
        List<ReplicaSet> out = new ArrayList<>();
        for (ReplicaSet rs : namespaceReplicaSets) {
            if (rs.getMetadata().getName().equals(name)) {
                out.add(rs);
            }
        }
        return out;
    }

    private ReplicaSet newReplicaSet(String name, String hash, int replicas, String revision) {
        PodTemplateSpec template = d.getSpec().getTemplate();
        ObjectMeta tm = template.getMetadata() == null ? new ObjectMeta() : template.getMetadata();
        Map<String, String> labels = new HashMap<>(tm.getLabels() == null ? Map.of() : tm.getLabels());
        labels.put(POD_TEMPLATE_HASH, hash);
        PodTemplateSpec rsTemplate = PodTemplateSpec.newBuilder(template)
                .setMetadata(ObjectMeta.newBuilder(tm).setLabels(labels).build()).build();
        LabelSelector selector = LabelSelector.newBuilder(d.getSpec().getSelector()).build();
        Map<String, String> matchLabels = new HashMap<>(selector.getMatchLabels() == null ? Map.of()
                : selector.getMatchLabels());
        matchLabels.put(POD_TEMPLATE_HASH, hash);
        selector.setMatchLabels(matchLabels);
        Map<String, String> a = new HashMap<>();
        copyAnnotations(a);
        a.put(REVISION, revision);
        a.put(DESIRED_REPLICAS, Integer.toString(desired()));
        a.put(MAX_REPLICAS, Integer.toString(desired() + RolloutMath.maxSurge(d)));
        ObjectMeta meta = ObjectMeta.newBuilder()
                .setName(name)
                .setNamespace(d.getMetadata().getNamespace())
                .setLabels(new HashMap<>(labels))
                .setAnnotations(a)
                .setOwnerReferences(List.of(Owners.controllerRef(Kinds.DEPLOYMENT, d.getMetadata())))
                .build();
        return ReplicaSet.newBuilder().setMetadata(meta).setSpec(ReplicaSetSpec.newBuilder()
                .setReplicas(replicas).setMinReadySeconds(minReadySeconds()).setSelector(selector)
                .setTemplate(rsTemplate).build()).build();
    }

    /** Copies the Deployment's annotations (change-cause among them, DEP-24) onto a ReplicaSet's; true if any changed. */
    private boolean copyAnnotations(Map<String, String> rsAnnotations) {
        boolean changed = false;
        Map<String, String> source = d.getMetadata().getAnnotations() == null ? Map.of() : d.getMetadata().getAnnotations();
        for (Map.Entry<String, String> e : source.entrySet()) {
            if (NOT_COPIED.contains(e.getKey()) || e.getValue().equals(rsAnnotations.get(e.getKey()))) {
                continue;
            }
            rsAnnotations.put(e.getKey(), e.getValue());
            changed = true;
        }
        return changed;
    }

    private static boolean setRevision(Map<String, String> a, String revision, boolean exists) {
        String old = a.get(REVISION);
        long oldValue = DeploymentAnnotations.revision(a);
        if (oldValue >= Long.parseLong(revision)) {
            return false;
        }
        a.put(REVISION, revision);
        if (exists && old != null && !old.isEmpty()) {
            String history = a.get(REVISION_HISTORY);
            a.put(REVISION_HISTORY, history == null || history.isEmpty() ? old : history + "," + old);
        }
        return true;
    }

    /** The new ReplicaSet's next size (DEP-32): up to D+S in total and at most D; Recreate goes straight to D. */
    private int newReplicasCount(ReplicaSet newRs) {
        int newSpec = newRs == null ? 0 : spec(newRs);
        if (!RolloutMath.isRollingUpdate(d)) {
            return desired();
        }
        int current = 0;
        for (ReplicaSet rs : owned.values()) {
            current += spec(rs);
        }
        int maxTotal = desired() + RolloutMath.maxSurge(d);
        if (current >= maxTotal) {
            return newSpec;
        }
        int scaleUp = Math.min(maxTotal - current, desired() - newSpec);
        return newSpec + Math.max(0, scaleUp);
    }

    // ------------------------------------------------------------------ scaling

    /** Scales to {@code size} and keeps desired/max-replicas current; true when the size changed. */
    private boolean scale(ReplicaSet rs, int size) {
        ReplicaSet cur = owned.get(rs.getMetadata().getName());
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

    private boolean scaleIfNeeded(ReplicaSet rs, int size) {
        return spec(owned.get(rs.getMetadata().getName())) != size && scale(rs, size);
    }

    private boolean setReplicasAnnotations(Map<String, String> a) {
        String desired = Integer.toString(desired());
        String max = Integer.toString(desired() + RolloutMath.maxSurge(d));
        boolean changed = !desired.equals(a.get(DESIRED_REPLICAS)) || !max.equals(a.get(MAX_REPLICAS));
        a.put(DESIRED_REPLICAS, desired);
        a.put(MAX_REPLICAS, max);
        return changed;
    }

    /** A scaling event: some active ReplicaSet was sized for another replica count than the Deployment's now. */
    private boolean isScalingEvent() {
        ReplicaSet newRs = syncRevision(false);
        for (ReplicaSet rs : active(all(newRs, olds(newRs)))) {
            Integer desired = DeploymentAnnotations.intValue(annotationsOf(rs), DESIRED_REPLICAS);
            if (desired != null && desired != desired()) {
                return true;
            }
        }
        return false;
    }

    /** Paused or scaled: proportional scaling (DEP-36 to DEP-39, DEP-48), history cleanup when paused, status. */
    private void syncScale() {
        ReplicaSet newRs = syncRevision(false);
        List<ReplicaSet> olds = olds(newRs);
        scaleProportionally(newRs, olds);
        if (paused()) {
            cleanup(olds(newRs));
        }
        status = calculateStatus(newRs);
    }

    private void scaleProportionally(ReplicaSet newRs, List<ReplicaSet> olds) {
        ReplicaSet activeOrLatest = activeOrLatest(newRs, olds);
        if (activeOrLatest != null) {
            scaleIfNeeded(activeOrLatest, desired());
            return;
        }
        if (isSaturated(newRs)) {
            for (ReplicaSet old : active(olds)) {
                scaleIfNeeded(old, 0);
            }
            return;
        }
        if (!RolloutMath.isRollingUpdate(d)) {
            return;
        }
        List<ReplicaSet> all = new ArrayList<>(active(all(newRs, olds)));
        int total = 0;
        for (ReplicaSet rs : all) {
            total += spec(rs);
        }
        int allowed = desired() > 0 ? desired() + RolloutMath.maxSurge(d) : 0;
        int toAdd = allowed - total;
        if (toAdd == 0) {
            return;
        }
        // larger first; ties: newer first when adding, older first when removing
        Comparator<ReplicaSet> bySize = Comparator.comparingInt((ReplicaSet rs) -> -spec(rs));
        all.sort(toAdd > 0 ? bySize.thenComparing(BY_CREATION.reversed()) : bySize.thenComparing(BY_CREATION));
        Map<String, Integer> sizes = new LinkedHashMap<>();
        int added = 0;
        for (ReplicaSet rs : all) {
            int proportion = proportion(rs, toAdd, added);
            sizes.put(rs.getMetadata().getName(), spec(rs) + proportion);
            added += proportion;
        }
        String first = all.get(0).getMetadata().getName();
        sizes.put(first, Math.max(0, sizes.get(first) + toAdd - added));
        for (ReplicaSet rs : all) {
            scale(rs, sizes.get(rs.getMetadata().getName()));
        }
    }

    /** DEP-39: round(rs × (D'+S') / previous max), capped by what is left to add or remove. */
    private int proportion(ReplicaSet rs, int toAdd, int added) {
        if (spec(rs) == 0 || toAdd == 0 || toAdd == added) {
            return 0;
        }
        int fraction;
        if (desired() == 0) {
            fraction = -spec(rs);
        } else {
            int allowed = desired() + RolloutMath.maxSurge(d);
            Integer annotated = DeploymentAnnotations.intValue(annotationsOf(rs), MAX_REPLICAS);
            int previous = annotated != null ? annotated : (status.getReplicas() == null ? 0 : status.getReplicas());
            if (previous == 0) {
                fraction = 0;
            } else {
                fraction = (int) Math.round((double) spec(rs) * allowed / previous) - spec(rs);
            }
        }
        int left = toAdd - added;
        return toAdd > 0 ? Math.min(fraction, left) : Math.max(fraction, left);
    }

    private ReplicaSet activeOrLatest(ReplicaSet newRs, List<ReplicaSet> olds) {
        if (newRs == null && olds.isEmpty()) {
            return null;
        }
        List<ReplicaSet> newestFirst = new ArrayList<>(olds);
        newestFirst.sort(BY_CREATION.reversed());
        List<ReplicaSet> active = active(all(newRs, newestFirst));
        if (active.isEmpty()) {
            return newRs != null ? newRs : newestFirst.get(0);
        }
        return active.size() == 1 ? active.get(0) : null;
    }

    private boolean isSaturated(ReplicaSet newRs) {
        if (newRs == null) {
            return false;
        }
        ReplicaSet rs = owned.get(newRs.getMetadata().getName());
        Integer desired = DeploymentAnnotations.intValue(annotationsOf(rs), DESIRED_REPLICAS);
        return desired != null && desired == desired() && spec(rs) == desired() && available(rs) == desired();
    }

    // ------------------------------------------------------------------ RollingUpdate

    private void rolloutRolling() {
        ReplicaSet newRs = syncRevision(true);
        if (newRs == null) {
            status = calculateStatus(null); // a name collision was counted; the next step retries
            return;
        }
        if (reconcileNew(newRs)) {
            syncRolloutStatus(newRs);
            return;
        }
        if (reconcileOld(newRs)) {
            syncRolloutStatus(newRs);
            return;
        }
        if (complete(d.getStatus())) {
            cleanup(olds(newRs));
        }
        syncRolloutStatus(newRs);
    }

    private boolean reconcileNew(ReplicaSet newRs) {
        ReplicaSet rs = owned.get(newRs.getMetadata().getName());
        if (spec(rs) == desired()) {
            return false;
        }
        if (spec(rs) > desired()) {
            return scale(rs, desired());
        }
        return scale(rs, newReplicasCount(rs));
    }

    /** DEP-32: first unhealthy old pods, then old ReplicaSets oldest first, never below D−U available. */
    private boolean reconcileOld(ReplicaSet newRsIn) {
        ReplicaSet newRs = owned.get(newRsIn.getMetadata().getName());
        List<ReplicaSet> olds = active(olds(newRs));
        int oldPods = 0;
        for (ReplicaSet rs : olds) {
            oldPods += spec(rs);
        }
        if (oldPods == 0) {
            return false;
        }
        int allPods = oldPods + spec(newRs);
        int minAvailable = desired() - RolloutMath.maxUnavailable(d);
        int newUnavailable = spec(newRs) - available(newRs);
        int maxScaledDown = allPods - minAvailable - newUnavailable;
        if (maxScaledDown <= 0) {
            return false;
        }
        int cleaned = cleanupUnhealthy(olds, maxScaledDown);
        int scaledDown = scaleDownOldForRolling(newRs, active(olds(newRs)));
        return cleaned + scaledDown > 0;
    }

    private int cleanupUnhealthy(List<ReplicaSet> olds, int maxCleanup) {
        int total = 0;
        for (ReplicaSet rs : olds) {
            if (total >= maxCleanup) {
                break;
            }
            ReplicaSet cur = owned.get(rs.getMetadata().getName());
            if (spec(cur) == 0 || spec(cur) == available(cur)) {
                continue;
            }
            int down = Math.min(maxCleanup - total, spec(cur) - available(cur));
            scale(cur, spec(cur) - down);
            total += down;
        }
        return total;
    }

    private int scaleDownOldForRolling(ReplicaSet newRs, List<ReplicaSet> olds) {
        int minAvailable = desired() - RolloutMath.maxUnavailable(d);
        int available = available(newRs);
        for (ReplicaSet rs : olds) {
            available += available(rs);
        }
        if (available <= minAvailable) {
            return 0;
        }
        int totalDown = available - minAvailable;
        int total = 0;
        for (ReplicaSet rs : olds) {
            if (total >= totalDown) {
                break;
            }
            ReplicaSet cur = owned.get(rs.getMetadata().getName());
            if (spec(cur) == 0) {
                continue;
            }
            int down = Math.min(spec(cur), totalDown - total);
            scale(cur, spec(cur) - down);
            total += down;
        }
        return total;
    }

    // ------------------------------------------------------------------ Recreate

    /** DEP-35: all old pods go first; the new ReplicaSet is created only once none is left in the API. */
    private void rolloutRecreate() {
        ReplicaSet newRs = syncRevision(false);
        boolean scaledDown = false;
        for (ReplicaSet old : active(olds(newRs))) {
            scaledDown |= scaleIfNeeded(old, 0);
        }
        if (scaledDown || oldPodsRunning(newRs)) {
            syncRolloutStatus(newRs);
            return;
        }
        if (newRs == null) {
            newRs = syncRevision(true);
            if (newRs == null) {
                status = calculateStatus(null);
                return;
            }
        }
        scaleIfNeeded(newRs, desired());
        if (complete(d.getStatus())) {
            cleanup(olds(newRs));
        }
        syncRolloutStatus(newRs);
    }

    private boolean oldPodsRunning(ReplicaSet newRs) {
        List<ReplicaSet> olds = olds(newRs);
        for (ReplicaSet rs : olds) {
            if (rs.getStatus() != null && rs.getStatus().getReplicas() != null && rs.getStatus().getReplicas() > 0) {
                return true;
            }
        }
        Set<String> oldUids = new java.util.HashSet<>();
        for (ReplicaSet rs : olds) {
            oldUids.add(rs.getMetadata().getUid());
        }
        for (Pod p : pods) {
            Optional<OwnerReference> c = Owners.controllerOf(p.getMetadata());
            if (c.isPresent() && oldUids.contains(c.get().getUid()) && !PodStates.isTerminal(p)) {
                return true;
            }
        }
        return false;
    }

    // ------------------------------------------------------------------ history

    /** DEP-43: old ReplicaSets beyond revisionHistoryLimit, lowest revision first, only when fully scaled down. */
    private void cleanup(List<ReplicaSet> olds) {
        Integer limit = d.getSpec().getRevisionHistoryLimit();
        if (limit == null) {
            return;
        }
        List<ReplicaSet> cleanable = new ArrayList<>();
        for (ReplicaSet rs : olds) {
            if (rs.getMetadata().getDeletionTimestamp() == null && !created.contains(rs.getMetadata().getName())) {
                cleanable.add(owned.get(rs.getMetadata().getName()));
            }
        }
        int diff = cleanable.size() - limit;
        if (diff <= 0) {
            return;
        }
        cleanable.sort(Comparator.comparingLong((ReplicaSet rs) -> DeploymentAnnotations.revision(annotationsOf(rs)))
                .thenComparing(BY_CREATION));
        for (int i = 0; i < diff; i++) {
            ReplicaSet rs = cleanable.get(i);
            long observed = rs.getStatus() == null || rs.getStatus().getObservedGeneration() == null ? 0
                    : rs.getStatus().getObservedGeneration();
            long generation = rs.getMetadata().getGeneration() == null ? 0 : rs.getMetadata().getGeneration();
            int statusReplicas = rs.getStatus() == null || rs.getStatus().getReplicas() == null ? 0
                    : rs.getStatus().getReplicas();
            if (statusReplicas != 0 || spec(rs) != 0 || generation > observed || !rs.equals(original.get(rs.getMetadata().getName()))) {
                continue;
            }
            ObjectMeta m = rs.getMetadata();
            actions.add(new Action.Delete(Kinds.REPLICA_SET, m.getNamespace(), m.getName(), m.getUid(), null, null));
            owned.remove(m.getName());
        }
    }

    // ------------------------------------------------------------------ status and conditions

    private void syncStatusOnly() {
        ReplicaSet newRs = syncRevision(false);
        status = calculateStatus(newRs);
    }

    /** Progressing=Unknown DeploymentPaused / DeploymentResumed (DEP-47, DEP-48); a timeout is never overwritten. */
    private void checkPausedConditions() {
        if (!hasProgressDeadline()) {
            return;
        }
        DeploymentCondition c = condition(PROGRESSING);
        if (c != null && "ProgressDeadlineExceeded".equals(c.getReason())) {
            return;
        }
        boolean pausedCondition = c != null && "DeploymentPaused".equals(c.getReason());
        if (paused() && !pausedCondition) {
            setCondition(condition(PROGRESSING, "Unknown", "DeploymentPaused", "Deployment is paused"));
        } else if (!paused() && pausedCondition) {
            setCondition(condition(PROGRESSING, "Unknown", "DeploymentResumed", "Deployment is resumed"));
        }
    }

    private DeploymentStatus calculateStatus(ReplicaSet newRsIn) {
        List<ReplicaSet> all = new ArrayList<>(owned.values());
        int available = 0;
        int total = 0;
        int actual = 0;
        int ready = 0;
        for (ReplicaSet rs : all) {
            available += available(rs);
            total += spec(rs);
            actual += statusReplicas(rs);
            ready += rs.getStatus() == null || rs.getStatus().getReadyReplicas() == null ? 0 : rs.getStatus().getReadyReplicas();
        }
        ReplicaSet newRs = newRsIn == null ? null : owned.get(newRsIn.getMetadata().getName());
        DeploymentStatus next = DeploymentStatus.newBuilder(status)
                .setObservedGeneration(d.getMetadata().getGeneration())
                .setReplicas(actual)
                .setUpdatedReplicas(newRs == null ? 0 : statusReplicas(newRs))
                .setReadyReplicas(ready)
                .setAvailableReplicas(available)
                .setUnavailableReplicas(Math.max(0, total - available))
                .setConditions(status.getConditions() == null ? null : new ArrayList<>(status.getConditions()))
                .build();
        DeploymentStatus saved = status;
        status = next;
        if (available >= desired() - RolloutMath.maxUnavailable(d)) {
            setCondition(condition(AVAILABLE, "True", "MinimumReplicasAvailable", "Deployment has minimum availability."));
        } else {
            setCondition(condition(AVAILABLE, "False", "MinimumReplicasUnavailable",
                    "Deployment does not have minimum availability."));
        }
        DeploymentStatus out = status;
        status = saved;
        return out;
    }

    /** DEP-50 to DEP-54: Progressing from the progress made since the last status, the deadline, ReplicaFailure. */
    private void syncRolloutStatus(ReplicaSet newRsIn) {
        ReplicaSet newRs = newRsIn == null ? null : owned.get(newRsIn.getMetadata().getName());
        DeploymentStatus next = calculateStatus(newRs);
        DeploymentStatus before = d.getStatus() == null ? new DeploymentStatus() : d.getStatus();
        status = next;
        if (!hasProgressDeadline()) {
            removeCondition(PROGRESSING);
        }
        DeploymentCondition current = condition(PROGRESSING);
        boolean completeBefore = n(next.getReplicas()) == n(next.getUpdatedReplicas()) && current != null
                && "NewReplicaSetAvailable".equals(current.getReason());
        String rsText = newRs == null ? "Deployment \"" + d.getMetadata().getName() + "\""
                : "ReplicaSet \"" + newRs.getMetadata().getName() + "\"";
        if (hasProgressDeadline() && !completeBefore) {
            if (complete(next)) {
                setCondition(condition(PROGRESSING, "True", "NewReplicaSetAvailable", rsText + " has successfully progressed."));
            } else if (progressing(before, next)) {
                String text = newRs == null ? rsText + " is progressing."
                        : "Replica set \"" + newRs.getMetadata().getName() + "\" is progressing.";
                DeploymentCondition c = condition(PROGRESSING, "True", "ReplicaSetUpdated", text);
                if (current != null && "True".equals(current.getStatus())) {
                    c.setLastTransitionTime(current.getLastTransitionTime());
                }
                removeCondition(PROGRESSING);
                setCondition(c);
            } else if (timedOut()) {
                setCondition(condition(PROGRESSING, "False", "ProgressDeadlineExceeded", rsText + " has timed out progressing."));
            }
        }
        DeploymentCondition failure = replicaFailure(newRs);
        if (failure != null) {
            setCondition(failure);
        } else {
            removeCondition(REPLICA_FAILURE);
        }
        requeueIfStuck();
    }

    private boolean complete(DeploymentStatus s) {
        if (s == null) {
            return false;
        }
        int dd = desired();
        long observed = s.getObservedGeneration() == null ? 0 : s.getObservedGeneration();
        long generation = d.getMetadata().getGeneration() == null ? 0 : d.getMetadata().getGeneration();
        return n(s.getUpdatedReplicas()) == dd && n(s.getReplicas()) == dd && n(s.getAvailableReplicas()) == dd
                && observed >= generation;
    }

    private static boolean progressing(DeploymentStatus before, DeploymentStatus next) {
        int oldBefore = n(before.getReplicas()) - n(before.getUpdatedReplicas());
        int oldNext = n(next.getReplicas()) - n(next.getUpdatedReplicas());
        return n(next.getUpdatedReplicas()) > n(before.getUpdatedReplicas()) || oldNext < oldBefore
                || n(next.getReadyReplicas()) > n(before.getReadyReplicas())
                || n(next.getAvailableReplicas()) > n(before.getAvailableReplicas());
    }

    private boolean timedOut() {
        DeploymentCondition c = condition(PROGRESSING);
        if (!hasProgressDeadline() || c == null || "NewReplicaSetAvailable".equals(c.getReason())) {
            return false;
        }
        if ("ProgressDeadlineExceeded".equals(c.getReason())) {
            return true;
        }
        Instant from = c.getLastUpdateTime() == null ? Instant.EPOCH : c.getLastUpdateTime();
        return from.plusSeconds(d.getSpec().getProgressDeadlineSeconds()).isBefore(now);
    }

    /** Look again when the progress deadline would pass (DEP-53). */
    private void requeueIfStuck() {
        DeploymentCondition c = condition(PROGRESSING);
        if (!hasProgressDeadline() || c == null || complete(status) || timedOut()
                || "NewReplicaSetAvailable".equals(c.getReason())) {
            return;
        }
        Instant from = c.getLastUpdateTime() == null ? now : c.getLastUpdateTime();
        Duration after = Duration.between(now, from.plusSeconds(d.getSpec().getProgressDeadlineSeconds()));
        requeueAfter = after.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ZERO : after.plusSeconds(1);
    }

    /** The new ReplicaSet's ReplicaFailure, else the first old one's (DEP-54). */
    private DeploymentCondition replicaFailure(ReplicaSet newRs) {
        List<ReplicaSet> order = new ArrayList<>();
        if (newRs != null) {
            order.add(newRs);
        }
        order.addAll(olds(newRs));
        for (ReplicaSet rs : order) {
            if (rs.getStatus() == null || rs.getStatus().getConditions() == null) {
                continue;
            }
            for (ReplicaSetCondition c : rs.getStatus().getConditions()) {
                if (REPLICA_FAILURE.equals(c.getType())) {
                    return DeploymentCondition.newBuilder().setType(REPLICA_FAILURE).setStatus(c.getStatus())
                            .setReason(c.getReason()).setMessage(c.getMessage())
                            .setLastUpdateTime(c.getLastTransitionTime()).setLastTransitionTime(c.getLastTransitionTime())
                            .build();
                }
            }
        }
        return null;
    }

    private boolean hasProgressDeadline() {
        Integer p = d.getSpec().getProgressDeadlineSeconds();
        return p != null && p != Integer.MAX_VALUE;
    }

    private int minReadySeconds() {
        return d.getSpec().getMinReadySeconds() == null ? 0 : d.getSpec().getMinReadySeconds();
    }

    private DeploymentCondition condition(String type) {
        if (status.getConditions() == null) {
            return null;
        }
        for (DeploymentCondition c : status.getConditions()) {
            if (type.equals(c.getType())) {
                return c;
            }
        }
        return null;
    }

    private DeploymentCondition condition(String type, String st, String reason, String message) {
        return DeploymentCondition.newBuilder().setType(type).setStatus(st).setReason(reason).setMessage(message)
                .setLastUpdateTime(now).setLastTransitionTime(now).build();
    }

    /** As Kubernetes: the same status and reason is no change; the same status keeps its transition time. */
    private void setCondition(DeploymentCondition c) {
        DeploymentCondition current = condition(c.getType());
        if (current != null && Objects.equals(current.getStatus(), c.getStatus())
                && Objects.equals(current.getReason(), c.getReason())) {
            return;
        }
        if (current != null && Objects.equals(current.getStatus(), c.getStatus())) {
            c = DeploymentCondition.newBuilder(c).setLastTransitionTime(current.getLastTransitionTime()).build();
        }
        removeCondition(c.getType());
        List<DeploymentCondition> list = new ArrayList<>(status.getConditions() == null ? List.of() : status.getConditions());
        list.add(c);
        status.setConditions(list);
    }

    private void removeCondition(String type) {
        if (status.getConditions() == null) {
            return;
        }
        List<DeploymentCondition> list = new ArrayList<>(status.getConditions());
        list.removeIf(c -> type.equals(c.getType()));
        status.setConditions(list.isEmpty() ? null : list);
    }

    // ------------------------------------------------------------------ helpers

    private void put(ReplicaSet rs) {
        owned.put(rs.getMetadata().getName(), rs);
    }

    private List<ReplicaSet> all(ReplicaSet newRs, List<ReplicaSet> olds) {
        List<ReplicaSet> out = new ArrayList<>();
        if (newRs != null) {
            out.add(owned.get(newRs.getMetadata().getName()));
        }
        for (ReplicaSet rs : olds) {
            out.add(owned.get(rs.getMetadata().getName()));
        }
        return out;
    }

    private static List<ReplicaSet> active(List<ReplicaSet> list) {
        return list.stream().filter(rs -> rs != null && spec(rs) > 0).toList();
    }

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

    private static Map<String, String> annotationsOf(ReplicaSet rs) {
        return rs.getMetadata().getAnnotations() == null ? Map.of() : rs.getMetadata().getAnnotations();
    }

    private static int n(Integer i) {
        return i == null ? 0 : i;
    }

    // ------------------------------------------------------------------ the result

    private Reconciliation result() {
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

    /** Only for the decision's callers that look up whether a change-cause is set. */
    static String changeCause(Map<String, String> annotations) {
        return annotations == null ? null : annotations.get(CHANGE_CAUSE);
    }
}
