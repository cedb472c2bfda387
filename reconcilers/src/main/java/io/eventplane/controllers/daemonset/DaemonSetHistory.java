package io.eventplane.controllers.daemonset;

import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ControllerRevisionData;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A DaemonSet's ControllerRevisions (Kubernetes' constructHistory and cleanupHistory in update.go), on the shared
 * {@link Revisions}: the revision whose data restores the current template is the current one, named
 * {@code <ds>-<template hash>} and labelled {@code controller-revision-hash: <hash>}, the label its pods carry; a
 * template seen before (a rollback, {@code kubectl rollout undo}) takes its old revision back with the next number; the
 * oldest revisions no pod uses go beyond revisionHistoryLimit. Pure.
 */
final class DaemonSetHistory {
    private DaemonSetHistory() {
    }

    /**
     * @param current        the current revision, or null while it is being created (or its name collided)
     * @param hash           the current revision's hash label
     * @param collisionCount the DaemonSet's new collision count after a name collision, else null
     */
    record Constructed(ControllerRevision current, String hash, List<ControllerRevision> old, List<Action> actions,
                       Integer collisionCount) {
    }

    static Constructed construct(DaemonSet ds, Collection<ControllerRevision> revisions, List<Pod> pods) {
        ObjectMeta meta = ds.getMetadata();
        Revisions.Claim claim = Revisions.claim(Kinds.DAEMON_SET, meta,
                labels -> LabelSelectors.matches(ds.getSpec().getSelector(), labels), revisions);
        List<Action> actions = new ArrayList<>(claim.actions());
        ControllerRevisionData data = Revisions.templatePatch(ds.getSpec().getTemplate());
        List<ControllerRevision> current = new ArrayList<>();
        List<ControllerRevision> old = new ArrayList<>();
        for (ControllerRevision r : claim.owned()) {
            if (hashOf(r) == null) {
                // Kubernetes labels a revision without the hash label with its name
                Map<String, String> labels = r.getMetadata().getLabels() == null ? new HashMap<>()
                        : new HashMap<>(r.getMetadata().getLabels());
                labels.put(Revisions.HASH_LABEL, r.getMetadata().getName());
                r = ControllerRevision.newBuilder(r).setMetadata(ObjectMeta.newBuilder(r.getMetadata())
                        .setLabels(labels).build()).build();
                actions.add(new Action.Update(r));
            }
            (Revisions.matches(r, data) ? current : old).add(r);
        }
        long next = Revisions.maxRevision(old) + 1;
        if (current.isEmpty()) {
            Integer collisions = ds.getStatus() == null ? null : ds.getStatus().getCollisionCount();
            String hash = Revisions.hash(ds.getSpec().getTemplate(), collisions);
            String name = Revisions.name(meta.getName(), hash);
            boolean taken = revisions.stream().anyMatch(r -> name.equals(r.getMetadata().getName()));
            if (taken) {
                // a revision of that name with other data, or not ours: count the collision, the next hash differs
                return new Constructed(null, null, old, actions, collisions == null ? 1 : collisions + 1);
            }
            Map<String, String> templateLabels = ds.getSpec().getTemplate().getMetadata() == null ? null
                    : ds.getSpec().getTemplate().getMetadata().getLabels();
            actions.add(new Action.Create(Revisions.newRevision(Kinds.DAEMON_SET, meta, name, hash, templateLabels,
                    meta.getAnnotations(), data, next), null, null));
            return new Constructed(null, null, old, actions, null);
        }
        ControllerRevision keep = current.stream().max(Revisions.BY_REVISION).orElseThrow();
        for (ControllerRevision dup : current) {
            if (dup != keep) {
                // twins of the current revision: their pods take the kept one's hash, then they go
                for (Pod p : pods) {
                    if (hashOf(dup).equals(DaemonSetDecider.label(p, Revisions.HASH_LABEL))) {
                        Map<String, String> labels = new HashMap<>(p.getMetadata().getLabels());
                        labels.put(Revisions.HASH_LABEL, hashOf(keep));
                        actions.add(new Action.Update(Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(
                                p.getMetadata()).setLabels(labels).build()).build()));
                    }
                }
                actions.add(Revisions.delete(dup));
            }
        }
        if (Revisions.number(keep) < next) {
            // a template seen before is current again (a rollback): its revision gets the next number
            actions.add(new Action.Update(ControllerRevision.newBuilder(keep).setRevision(next).build()));
        }
        return new Constructed(keep, hashOf(keep), old, actions, null);
    }

    /**
     * Kubernetes' cleanupHistory: old revisions beyond revisionHistoryLimit, oldest first, except those whose hash a
     * pod of the DaemonSet still carries.
     */
    static List<Action> cleanup(DaemonSet ds, List<ControllerRevision> old, List<Pod> pods) {
        int limit = ds.getSpec().getRevisionHistoryLimit() == null ? 10 : ds.getSpec().getRevisionHistoryLimit();
        if (old.size() <= limit) {
            return List.of();
        }
        Set<String> live = new HashSet<>();
        for (Pod p : pods) {
            String h = DaemonSetDecider.label(p, Revisions.HASH_LABEL);
            if (h != null) {
                live.add(h);
            }
        }
        List<Action> out = new ArrayList<>();
        for (ControllerRevision r : Revisions.toDelete(old, limit, live)) {
            out.add(Revisions.delete(r));
        }
        return out;
    }

    static String hashOf(ControllerRevision r) {
        Map<String, String> labels = r.getMetadata().getLabels();
        return labels == null ? null : labels.get(Revisions.HASH_LABEL);
    }
}
