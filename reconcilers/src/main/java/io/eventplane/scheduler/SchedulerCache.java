package io.eventplane.scheduler;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The worker's incremental picture of the cluster, as kube-scheduler's cache keeps it: every node's offer and the pods
 * counted on it (bound pods from the view plus this scheduler's assumed bindings), kept up to date from what changed
 * since the last cycle rather than rebuilt. The view's thread only notes which pods, nodes or workload metadata
 * changed ({@link #podChanged}, {@link #nodeChanged}, {@link #metadataChanged}); the worker applies them in
 * {@link #refresh()}, so the cost of a cycle is proportional to the changes. Rebuilt from the whole view at the start
 * and when a node is added or removed (rare).
 */
final class SchedulerCache {
    private final ClusterView view;
    private final AssumedPods assumed;
    /** Nodes' parsed offers and pods' parsed infos, recomputed when their resourceVersion changes. */
    private final SnapshotBuilder snapshots = new SnapshotBuilder();
    /** Pods and nodes changed since the worker last brought the cache up to date (the view's thread adds). */
    private final ConcurrentLinkedQueue<String> dirtyPods = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<String> dirtyNodes = new ConcurrentLinkedQueue<>();
    private volatile boolean metadataDirty = true;
    /** The snapshot; null until built (and after a node is added or removed). */
    private ClusterSnapshot cache;
    /** The pods counted in {@link #cache}, by key: bound pods from the view and this scheduler's assumed bindings. */
    private final Map<String, Tracked> tracked = new HashMap<>();
    private int nextStartNodeIndex;

    private record Tracked(PodInfo info, String node, boolean assumed) {
    }

    SchedulerCache(ClusterView view, AssumedPods assumed) {
        this.view = view;
        this.assumed = assumed;
    }

    // ---- the view's thread

    void podChanged(String key) {
        dirtyPods.add(key);
    }

    void nodeChanged(String name) {
        dirtyNodes.add(name);
    }

    /** Namespaces' labels or workloads' selectors changed: read them again on the next refresh. */
    void metadataChanged() {
        metadataDirty = true;
    }

    void podDeleted(String uid) {
        snapshots.forget(uid);
    }

    // ---- the worker

    PodInfo info(Pod pod) {
        return snapshots.info(pod);
    }

    /** Counts {@code info} on {@code node} as this scheduler's assumed binding (in place of what was counted before). */
    void assume(String key, String node, PodInfo info) {
        cache.add(node, info);
        Tracked previous = tracked.put(key, new Tracked(info, node, true));
        if (previous != null) {
            cache.remove(previous.node(), previous.info());
        }
    }

    /** Brings the snapshot up to date with what changed since the last cycle and returns it. */
    ClusterSnapshot refresh() {
        if (cache != null) {
            for (String name; (name = dirtyNodes.poll()) != null; ) {
                Optional<Node> node = view.get(Kinds.NODE.kind(), null, name).map(c -> (Node) c.getObject());
                if (node.isEmpty() || !cache.hasNode(name)) {
                    nextStartNodeIndex = cache.nextStartNodeIndex();
                    cache = null; // the node set changed
                    break;
                }
                cache.update(snapshots.offer(node.get()));
            }
        }
        if (cache == null) {
            dirtyNodes.clear();
            dirtyPods.clear();
            metadataDirty = true;
            int start = nextStartNodeIndex;
            cache = build();
            cache.startAt(start);
        }
        for (String key; (key = dirtyPods.poll()) != null; ) {
            recount(key);
        }
        if (metadataDirty) {
            metadataDirty = false;
            SnapshotBuilder.readMetadata(cache.clearMetadata(), kind -> view.list(kind, null));
        }
        return cache;
    }

    /** Counts the pod under {@code key} as the view and this scheduler's assumptions say it should be counted now. */
    private void recount(String key) {
        Tracked have = tracked.get(key);
        Tracked want = null;
        Optional<Pod> pod = view.get(key).map(c -> (Pod) c.getObject());
        if (pod.isPresent() && AssumedPods.isBound(pod.get())) {
            Pod p = pod.get();
            if (!SchedulerDecider.isTerminal(p)) {
                String node = p.getSpec().getNodeName();
                // Our assumed binding confirmed, or a new status of a counted pod: nothing the cache counts changed, so
                // keep what is counted (and the PreFilter counts built on it).
                boolean confirmed = have != null && have.node().equals(node) && have.info().countsSameAs(p);
                want = confirmed ? new Tracked(have.info(), node, false) : new Tracked(snapshots.info(p), node, false);
            }
        } else if (have != null && have.assumed() && pod.isPresent()
                && assumed.isAssumed(key, pod.get().getMetadata().getUid())) {
            want = have;
        }
        if (have != null && want != null && have.info() == want.info() && have.node().equals(want.node())) {
            tracked.put(key, want);
            return;
        }
        if (have != null) {
            cache.remove(have.node(), have.info());
            tracked.remove(key);
        }
        if (want != null) {
            cache.add(want.node(), want.info());
            tracked.put(key, want);
        }
    }

    /** The whole cluster from the view, plus this scheduler's bindings the view does not show yet. */
    private ClusterSnapshot build() {
        List<NodeState.Offer> nodes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ObjectChanged c : view.list(Kinds.NODE.kind(), null)) {
            nodes.add(snapshots.offer((Node) c.getObject()));
            names.add(c.getName());
        }
        snapshots.retainNodes(names);
        ClusterSnapshot snapshot = new ClusterSnapshot(nodes);
        tracked.clear();
        for (ObjectChanged c : view.list(Kinds.POD.kind(), null)) {
            Pod p = (Pod) c.getObject();
            if (AssumedPods.isBound(p) && !SchedulerDecider.isTerminal(p)) {
                PodInfo info = snapshots.info(p);
                snapshot.add(p.getSpec().getNodeName(), info);
                tracked.put(Keys.of(c.getKind(), c.getNamespace(), c.getName()),
                        new Tracked(info, p.getSpec().getNodeName(), false));
            }
        }
        for (AssumedPods.Assumed a : assumed.all()) {
            if (!tracked.containsKey(a.key())) {
                snapshot.add(a.node(), a.pod());
                tracked.put(a.key(), new Tracked(a.pod(), a.node(), true));
            }
        }
        return snapshot;
    }
}
