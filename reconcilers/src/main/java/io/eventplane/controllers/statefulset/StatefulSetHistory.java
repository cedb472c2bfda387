package io.eventplane.controllers.statefulset;

import io.eventplane.controllers.history.Revisions;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.ControllerRevisionData;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.StatefulSet;
import io.eventplane.reconcile.Action;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A StatefulSet's ControllerRevisions (STS-X01; Kubernetes' getStatefulSetRevisions and truncateHistory), on the
 * shared {@link Revisions}: each revision stores the patch that restores spec.template, is named
 * {@code <set>-<hash of that patch>} and labelled {@code controller-revision-hash: <hash>}, while the set's pods carry
 * the revision's whole name in that label. The update revision is the one whose data is the current template: the
 * newest revision when it is, an older equal one renumbered to the next revision when the template went back to it
 * (a rollback, {@code kubectl rollout undo}), else a new one. The current revision is the one status.currentRevision
 * names (the update revision at first). Pure.
 */
final class StatefulSetHistory {
    private StatefulSetHistory() {
    }

    /**
     * The set's revisions this step.
     *
     * @param current        the current revision, null while the update revision is on its way
     * @param update         the update revision, null while it is on its way (or its name collided)
     * @param collisionCount the collision count status carries from now on
     * @param owned          the revisions the set controls (after claiming)
     * @param actions        adoptions and releases, the renumbering or creation of the update revision
     */
    record Revs(ControllerRevision current, ControllerRevision update, int collisionCount,
                List<ControllerRevision> owned, List<Action> actions) {
        boolean ready() {
            return update != null;
        }
    }

    static Revs revisions(StatefulSet set, Collection<ControllerRevision> namespaceRevisions) {
        ObjectMeta meta = set.getMetadata();
        Revisions.Claim claim = Revisions.claim(Kinds.STATEFUL_SET, meta,
                labels -> LabelSelectors.matches(set.getSpec().getSelector(), labels), namespaceRevisions);
        List<Action> actions = new ArrayList<>(claim.actions());
        List<ControllerRevision> owned = claim.owned().stream().sorted(Revisions.BY_REVISION).toList();
        int collisions = set.getStatus() == null || set.getStatus().getCollisionCount() == null ? 0
                : set.getStatus().getCollisionCount();
        ControllerRevisionData data = Revisions.templatePatch(set.getSpec().getTemplate());
        long next = Revisions.maxRevision(owned) + 1;

        ControllerRevision equal = null;
        for (ControllerRevision r : owned) {
            if (Revisions.matches(r, data)) {
                equal = r; // the newest equal one: owned is oldest first
            }
        }
        ControllerRevision update;
        if (equal != null && equal == owned.get(owned.size() - 1)) {
            update = equal; // the template has not changed
        } else if (equal != null) {
            update = ControllerRevision.newBuilder(equal).setRevision(next).build();
            actions.add(new Action.Update(update));
        } else {
            String hash = Revisions.hash(data, collisions == 0 ? null : collisions);
            String name = Revisions.name(meta.getName(), hash);
            boolean taken = namespaceRevisions.stream().anyMatch(r -> name.equals(r.getMetadata().getName()));
            if (taken) {
                // the name is another revision's (other data, or not ours): the next hash differs
                return new Revs(null, null, collisions + 1, owned, actions);
            }
            Map<String, String> templateLabels = set.getSpec().getTemplate().getMetadata() == null ? null
                    : set.getSpec().getTemplate().getMetadata().getLabels();
            actions.add(new Action.Create(Revisions.newRevision(Kinds.STATEFUL_SET, meta, name, hash, templateLabels,
                    meta.getAnnotations(), data, next), null, null));
            return new Revs(null, null, collisions, owned, actions);
        }
        String currentName = set.getStatus() == null ? null : set.getStatus().getCurrentRevision();
        ControllerRevision current = update;
        for (ControllerRevision r : owned) {
            if (r.getMetadata().getName().equals(currentName)) {
                current = r.getMetadata().getName().equals(update.getMetadata().getName()) ? update : r;
            }
        }
        return new Revs(current, update, collisions, owned, actions);
    }

    /**
     * Kubernetes' truncateHistory: beyond revisionHistoryLimit, the oldest revisions that are not live go (live: the
     * current and update revisions and every revision a pod of the set carries).
     */
    static List<Action> truncate(StatefulSet set, Revs revs, Collection<Pod> pods) {
        Set<String> live = new HashSet<>();
        if (revs.current() != null) {
            live.add(revs.current().getMetadata().getName());
        }
        if (revs.update() != null) {
            live.add(revs.update().getMetadata().getName());
        }
        pods.forEach(p -> live.add(StatefulPods.revision(p)));
        List<ControllerRevision> history = revs.owned().stream()
                .filter(r -> !live.contains(r.getMetadata().getName())).toList();
        Integer limit = set.getSpec().getRevisionHistoryLimit();
        List<Action> out = new ArrayList<>();
        for (ControllerRevision r : Revisions.beyondLimit(history, limit == null ? 10 : limit)) {
            out.add(Revisions.delete(r));
        }
        return out;
    }
}
