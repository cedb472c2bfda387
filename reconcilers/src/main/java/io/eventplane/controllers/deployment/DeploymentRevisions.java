package io.eventplane.controllers.deployment;

import static io.eventplane.controllers.deployment.DeploymentAnnotations.DESIRED_REPLICAS;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.MAX_REPLICAS;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.NOT_COPIED;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.POD_TEMPLATE_HASH;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.REVISION;
import static io.eventplane.controllers.deployment.DeploymentAnnotations.REVISION_HISTORY;
import static io.eventplane.controllers.deployment.DeploymentDecider.PROGRESSING;
import static io.eventplane.controllers.deployment.DeploymentStep.annotationsOf;

import io.eventplane.client.events.EventNotice;
import io.eventplane.controllers.Hashes;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.model.Deployment;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetSpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The new ReplicaSet and the revisions (upstream's getNewReplicaSet in sync.go): finds the owned ReplicaSet whose
 * template is the Deployment's, or creates it as {@code <deployment>-<pod-template-hash>} (counting a name collision
 * instead), and keeps the revision annotations (DEP-23, DEP-24, DEP-42) and the Progressing condition that says so.
 * A rollback needs nothing more: a ReplicaSet with the old template is found again and renumbered.
 */
final class DeploymentRevisions {
    private DeploymentRevisions() {
    }

    /** The template without its pod-template-hash label: what says whether a ReplicaSet runs the Deployment's. */
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

    /** The oldest owned ReplicaSet whose template is the Deployment's (ignoring pod-template-hash), or null. */
    private static ReplicaSet findNew(DeploymentStep step) {
        String wanted = Hashes.canonical(withoutHash(step.d.getSpec().getTemplate()));
        for (ReplicaSet rs : step.owned.values()) {
            if (rs.getSpec() != null && wanted.equals(Hashes.canonical(withoutHash(rs.getSpec().getTemplate())))) {
                return rs;
            }
        }
        return null;
    }

    /**
     * The new ReplicaSet with its revision synced (DEP-23: max old revision + 1; a reused one, as after a rollback, is
     * renumbered and its old number goes to revision-history, DEP-42), created if asked and missing. Null when there
     * is none, or when its name is taken (the collision is counted in the status; the next step tries another name).
     */
    static ReplicaSet syncRevision(DeploymentStep step, boolean createIfMissing) {
        ReplicaSet newRs = findNew(step);
        long maxOld = 0;
        for (ReplicaSet rs : step.olds(newRs)) {
            maxOld = Math.max(maxOld, DeploymentAnnotations.revision(rs.getMetadata().getAnnotations()));
        }
        String newRevision = Long.toString(maxOld + 1);
        if (newRs != null) {
            return syncExisting(step, newRs, newRevision);
        }
        if (!createIfMissing) {
            return null;
        }
        Integer collisions = step.status.getCollisionCount();
        String hash = Hashes.templateHash(step.d.getSpec().getTemplate(), collisions);
        String name = step.d.getMetadata().getName() + "-" + hash;
        if (nameTaken(step, name)) {
            // A ReplicaSet of that name that is not ours or has another template: a hash collision; count it so
            // the next step names a different one (Kubernetes' collisionCount).
            step.status.setCollisionCount(collisions == null ? 1 : collisions + 1);
            return null;
        }
        int replicas = RolloutMath.newReplicas(step.d, 0, step.ownedReplicas());
        ReplicaSet rs = newReplicaSet(step, name, hash, replicas, newRevision);
        step.owned.put(name, rs);
        step.created.add(name);
        if (replicas > 0) {
            step.scalingEvents.put(name, EventNotice.normal(step.involved, "ScalingReplicaSet",
                    "Scaled up replica set " + name + " to " + replicas));
        }
        step.annotations.put(REVISION, newRevision);
        if (step.hasProgressDeadline()) {
            DeploymentConditions.set(step.status, DeploymentConditions.of(PROGRESSING, "True", "NewReplicaSetCreated",
                    "Created new replica set \"" + name + "\"", step.now));
        }
        return rs;
    }

    private static ReplicaSet syncExisting(DeploymentStep step, ReplicaSet newRs, String newRevision) {
        ReplicaSet rs = newRs;
        Map<String, String> a = new HashMap<>(annotationsOf(rs));
        boolean changed = copyAnnotations(step.d, a);
        changed |= setRevision(a, newRevision, true);
        ReplicaSetSpec spec = rs.getSpec();
        int minReady = step.minReadySeconds();
        if (changed || !Objects.equals(spec.getMinReadySeconds() == null ? 0 : spec.getMinReadySeconds(), minReady)) {
            rs = ReplicaSet.newBuilder(rs)
                    .setMetadata(ObjectMeta.newBuilder(rs.getMetadata()).setAnnotations(a).build())
                    .setSpec(ReplicaSetSpec.newBuilder(spec).setMinReadySeconds(minReady).build())
                    .build();
            step.put(rs);
        }
        step.annotations.put(REVISION, annotationsOf(rs).getOrDefault(REVISION, newRevision));
        if (step.hasProgressDeadline() && DeploymentConditions.get(step.status, PROGRESSING) == null) {
            DeploymentConditions.set(step.status, DeploymentConditions.of(PROGRESSING, "True", "FoundNewReplicaSet",
                    "Found new replica set \"" + rs.getMetadata().getName() + "\"", step.now));
        }
        return rs;
    }

    /** Any ReplicaSet of the namespace with that name: not the new one (it would have been found), so a collision. */
    private static boolean nameTaken(DeploymentStep step, String name) {
        for (ReplicaSet rs : step.namespaceReplicaSets) {
            if (rs.getMetadata().getName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static ReplicaSet newReplicaSet(DeploymentStep step, String name, String hash, int replicas,
                                            String revision) {
        Deployment d = step.d;
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
        copyAnnotations(d, a);
        a.put(REVISION, revision);
        a.put(DESIRED_REPLICAS, Integer.toString(step.desired()));
        a.put(MAX_REPLICAS, Integer.toString(step.desired() + RolloutMath.maxSurge(d)));
        ObjectMeta meta = ObjectMeta.newBuilder()
                .setName(name)
                .setNamespace(d.getMetadata().getNamespace())
                .setLabels(new HashMap<>(labels))
                .setAnnotations(a)
                .setOwnerReferences(List.of(Owners.controllerRef(Kinds.DEPLOYMENT, d.getMetadata())))
                .build();
        return ReplicaSet.newBuilder().setMetadata(meta).setSpec(ReplicaSetSpec.newBuilder()
                .setReplicas(replicas).setMinReadySeconds(step.minReadySeconds()).setSelector(selector)
                .setTemplate(rsTemplate).build()).build();
    }

    /** Copies the Deployment's annotations (change-cause among them, DEP-24) onto a ReplicaSet's; true if any changed. */
    private static boolean copyAnnotations(Deployment d, Map<String, String> rsAnnotations) {
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
}
