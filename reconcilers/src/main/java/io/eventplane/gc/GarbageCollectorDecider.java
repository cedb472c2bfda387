package io.eventplane.gc;

import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * The garbage collector's decision about one object, level-triggered (Kubernetes' attemptToDeleteItem and
 * attemptToOrphan, workloads.md §6): given the object and the owner graph, the steps to take now. Pure.
 *
 * <ul>
 *   <li>An object being deleted with the {@code orphan} finalizer: its dependents lose their owner reference to it;
 *       once none is left, the finalizer goes (GC-16).</li>
 *   <li>An object being deleted with {@code foregroundDeletion}: once no dependent with {@code blockOwnerDeletion}
 *       is left, the finalizer goes and the writer deletes it (GC-10). Its dependents are deleted by their own
 *       decisions: an owner waiting for its dependents does not count as a live owner.</li>
 *   <li>Any other object with owner references: each is solid (the owner lives with that uid), dangling (no object of
 *       that name, or another uid: GC-X01; GC-05 namespaced owners are looked up in the dependent's namespace) or
 *       waiting (the owner is foreground-deleting and the reference blocks). Without a solid owner the object is
 *       deleted (GC-01, GC-08, GC-12); with one, dangling and waiting references are removed.</li>
 *   <li>A reference that cannot be resolved (an unknown kind, or a cluster-scoped object naming a namespaced kind,
 *       GC-06) keeps the object: it is never collected; the latter is reported as {@code OwnerRefInvalidNamespace}
 *       (GC-07), as is a reference whose uid belongs to an object in another namespace (GC-05).</li>
 * </ul>
 */
public final class GarbageCollectorDecider {
    public static final String INVALID_NAMESPACE = "OwnerRefInvalidNamespace";

    private enum Resolution { SOLID, DANGLING, WAITING, UNRESOLVABLE }

    public List<GcAction> decide(ObjectChanged item, OwnerGraph graph) {
        ObjectMeta meta = meta(item);
        List<GcAction> actions = new ArrayList<>();
        if (meta.getDeletionTimestamp() != null) {
            List<String> finalizers = list(meta.getFinalizers());
            if (finalizers.contains(ObjectDecider.ORPHAN_FINALIZER)) {
                Collection<ObjectChanged> dependents = graph.dependents(meta.getUid());
                if (dependents.isEmpty()) {
                    actions.add(new GcAction.RemoveFinalizer(item, ObjectDecider.ORPHAN_FINALIZER));
                }
                for (ObjectChanged d : dependents) {
                    actions.add(new GcAction.RemoveOwnerReferences(d, Set.of(meta.getUid())));
                }
            } else if (finalizers.contains(ObjectDecider.FOREGROUND_FINALIZER)) {
                boolean blocked = graph.dependents(meta.getUid()).stream()
                        .anyMatch(d -> blocks(d, meta.getUid()));
                if (!blocked) {
                    actions.add(new GcAction.RemoveFinalizer(item, ObjectDecider.FOREGROUND_FINALIZER));
                }
            }
            return actions; // being deleted: one way to its end
        }
        List<OwnerReference> refs = list(meta.getOwnerReferences());
        if (refs.isEmpty()) {
            return actions;
        }
        Set<String> solid = new LinkedHashSet<>();
        Set<String> dangling = new LinkedHashSet<>();
        Set<String> waiting = new LinkedHashSet<>();
        boolean unresolvable = false;
        KindInfo itemKind = Kinds.byKind(item.getKind()).orElse(null);
        boolean itemNamespaced = itemKind == null || itemKind.namespaced();
        for (OwnerReference ref : refs) {
            Resolution r = resolve(item, itemNamespaced, ref, graph, actions);
            switch (r) {
                case SOLID -> solid.add(ref.getUid());
                case DANGLING -> dangling.add(ref.getUid());
                case WAITING -> waiting.add(ref.getUid());
                case UNRESOLVABLE -> unresolvable = true;
            }
        }
        if (unresolvable) {
            return actions;
        }
        if (!solid.isEmpty()) {
            if (!dangling.isEmpty() || !waiting.isEmpty()) {
                Set<String> remove = new LinkedHashSet<>(dangling);
                remove.addAll(waiting);
                actions.add(new GcAction.RemoveOwnerReferences(item, remove));
            }
        } else if (!waiting.isEmpty() && !graph.dependents(meta.getUid()).isEmpty()) {
            // An owner waits for this object, which has dependents of its own: delete it in the foreground too, so
            // the wait covers the whole chain. A dependent already foreground-deleting could close a cycle.
            if (graph.dependents(meta.getUid()).stream().anyMatch(GarbageCollectorDecider::deletingDependents)) {
                actions.add(new GcAction.UnblockOwnerReferences(item));
            }
            actions.add(new GcAction.Delete(item, "Foreground"));
        } else {
            List<String> finalizers = list(meta.getFinalizers());
            String policy = finalizers.contains(ObjectDecider.ORPHAN_FINALIZER) ? "Orphan"
                    : finalizers.contains(ObjectDecider.FOREGROUND_FINALIZER) ? "Foreground" : "Background";
            actions.add(new GcAction.Delete(item, policy));
        }
        return actions;
    }

    private Resolution resolve(ObjectChanged item, boolean itemNamespaced, OwnerReference ref, OwnerGraph graph,
                               List<GcAction> actions) {
        Optional<KindInfo> kind = Kinds.byReference(ref.getApiVersion(), ref.getKind());
        if (kind.isEmpty()) {
            return Resolution.UNRESOLVABLE; // a kind this control plane does not serve: never guess it is absent
        }
        if (!itemNamespaced && kind.get().namespaced()) {
            actions.add(invalidNamespace(item, ref, ""));
            return Resolution.UNRESOLVABLE; // GC-06: never collected
        }
        String namespace = kind.get().namespaced() ? item.getNamespace() : "";
        Optional<ObjectChanged> owner = graph.get(kind.get().kind(), namespace, ref.getName())
                .filter(o -> o.getUid().equals(ref.getUid()));
        if (owner.isEmpty()) {
            if (kind.get().namespaced()) {
                graph.byUid(ref.getUid()).filter(o -> !o.getNamespace().equals(item.getNamespace()))
                        .ifPresent(elsewhere -> actions.add(invalidNamespace(item, ref, item.getNamespace())));
            }
            return Resolution.DANGLING;
        }
        ObjectMeta ownerMeta = meta(owner.get());
        if (ownerMeta.getDeletionTimestamp() != null
                && list(ownerMeta.getFinalizers()).contains(ObjectDecider.FOREGROUND_FINALIZER)
                && Boolean.TRUE.equals(ref.getBlockOwnerDeletion())) {
            return Resolution.WAITING;
        }
        return Resolution.SOLID;
    }

    /** Kubernetes' wording: {@code ownerRef [apps/v1/ReplicaSet, namespace: a, name: rs, uid: u] does not exist in namespace "a"}. */
    private static GcAction.Warn invalidNamespace(ObjectChanged item, OwnerReference ref, String namespace) {
        return new GcAction.Warn(item, INVALID_NAMESPACE, "ownerRef [" + ref.getApiVersion() + "/" + ref.getKind()
                + ", namespace: " + namespace + ", name: " + ref.getName() + ", uid: " + ref.getUid()
                + "] does not exist in namespace \"" + namespace + "\"");
    }

    /** Whether {@code dependent} holds back the foreground deletion of the owner with {@code ownerUid}. */
    static boolean blocks(ObjectChanged dependent, String ownerUid) {
        return list(meta(dependent).getOwnerReferences()).stream()
                .anyMatch(r -> ownerUid.equals(r.getUid()) && Boolean.TRUE.equals(r.getBlockOwnerDeletion()));
    }

    static boolean deletingDependents(ObjectChanged o) {
        ObjectMeta m = meta(o);
        return m.getDeletionTimestamp() != null && list(m.getFinalizers()).contains(ObjectDecider.FOREGROUND_FINALIZER);
    }

    /**
     * The object an update-shaped action writes: owner references removed or unblocked, or a finalizer removed. It
     * keeps the resourceVersion the decision was made on, so the writer rejects it if the object changed since.
     */
    public static SpecificRecord updated(GcAction action) {
        SpecificRecord object = (SpecificRecord) action.item().getObject();
        ObjectMeta m = ObjectAccess.meta(object);
        ObjectMeta.Builder b = ObjectMeta.newBuilder(m);
        if (action instanceof GcAction.RemoveOwnerReferences r) {
            List<OwnerReference> kept = new ArrayList<>();
            for (OwnerReference ref : list(m.getOwnerReferences())) {
                if (!r.ownerUids().contains(ref.getUid())) {
                    kept.add(ref);
                }
            }
            b.setOwnerReferences(kept.isEmpty() ? null : kept);
        } else if (action instanceof GcAction.UnblockOwnerReferences) {
            List<OwnerReference> refs = new ArrayList<>();
            for (OwnerReference ref : list(m.getOwnerReferences())) {
                refs.add(Boolean.TRUE.equals(ref.getBlockOwnerDeletion())
                        ? OwnerReference.newBuilder(ref).setBlockOwnerDeletion(false).build() : ref);
            }
            b.setOwnerReferences(refs);
        } else if (action instanceof GcAction.RemoveFinalizer f) {
            List<String> kept = new ArrayList<>(list(m.getFinalizers()));
            kept.remove(f.finalizer());
            b.setFinalizers(kept);
        } else {
            throw new IllegalArgumentException("not an update: " + action);
        }
        return ObjectAccess.withMeta(object, b.build());
    }

    /** The owner uids {@code item} names. */
    public static Set<String> ownerUids(ObjectChanged item) {
        Set<String> out = new LinkedHashSet<>();
        for (OwnerReference r : list(meta(item).getOwnerReferences())) {
            if (r.getUid() != null) {
                out.add(r.getUid());
            }
        }
        return out;
    }

    static ObjectMeta meta(ObjectChanged c) {
        return ObjectAccess.meta((SpecificRecord) c.getObject());
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
