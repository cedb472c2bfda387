package io.eventplane.scheduler;

import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.Namespace;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.Service;
import io.eventplane.model.StatefulSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Builds a scheduling cycle's {@link ClusterSnapshot} from a state, wherever the state comes from (the scheduler's
 * live view, or a fold of recorded history in a what-if replay): the nodes (offers parsed once per node version), the
 * namespaces' labels, the selectors of the workloads (for default spread constraints) and every bound pod that is not
 * finished. Parsed node offers and pod infos are cached across cycles by resourceVersion.
 */
public final class SnapshotBuilder {
    /** Each node's parsed offer and the resourceVersion it was last confirmed for. */
    private final Map<String, CachedOffer> offers = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, PodInfo> infos = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @param list    the objects of one kind, in key order
     * @param onBound called with each bound, unfinished pod's key and pod, after it was added
     */
    public ClusterSnapshot build(Function<String, Collection<ObjectChanged>> list, BiConsumer<ObjectChanged, Pod> onBound) {
        List<NodeState.Offer> nodes = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ObjectChanged c : list.apply(Kinds.NODE.kind())) {
            nodes.add(offer((Node) c.getObject()));
            names.add(c.getName());
        }
        retainNodes(names);
        ClusterSnapshot snapshot = new ClusterSnapshot(nodes);
        readMetadata(snapshot, list);
        for (ObjectChanged c : list.apply(Kinds.POD.kind())) {
            Pod p = (Pod) c.getObject();
            if (AssumedPods.isBound(p) && !SchedulerDecider.isTerminal(p)) {
                snapshot.add(p.getSpec().getNodeName(), info(p));
                onBound.accept(c, p);
            }
        }
        return snapshot;
    }

    /**
     * The node's parsed offer, cached by name and resourceVersion. A new version that offers the same (a status
     * heartbeat, a Lease-like condition refresh) keeps the cached instance, so the snapshot and its memos stay as they
     * are: 5,000 nodes report status every 5 minutes, which would otherwise reset them 17 times a second.
     */
    public NodeState.Offer offer(Node n) {
        String name = n.getMetadata().getName();
        String rv = n.getMetadata().getResourceVersion();
        CachedOffer cached = offers.get(name);
        if (cached != null && Objects.equals(cached.resourceVersion(), rv)) {
            return cached.offer();
        }
        NodeState.Offer parsed = NodeState.Offer.of(n);
        NodeState.Offer o = cached != null && cached.offer().equals(parsed) ? cached.offer() : parsed;
        offers.put(name, new CachedOffer(rv, o));
        return o;
    }

    private record CachedOffer(String resourceVersion, NodeState.Offer offer) {
    }

    /** Forgets the offers of nodes that are gone. */
    public void retainNodes(Set<String> names) {
        offers.keySet().retainAll(names);
    }

    /**
     * Namespaces' labels (namespaceSelector) and the selectors of what a pod belongs to for the default spread
     * constraints (POD-16.14): its Services, ReplicationControllers, ReplicaSets and StatefulSets.
     */
    public static void readMetadata(ClusterSnapshot snapshot, Function<String, Collection<ObjectChanged>> list) {
        for (ObjectChanged c : list.apply(Kinds.NAMESPACE.kind())) {
            Namespace ns = (Namespace) c.getObject();
            snapshot.namespace(c.getName(), ns.getMetadata() == null ? null : ns.getMetadata().getLabels());
        }
        for (ObjectChanged c : list.apply(Kinds.SERVICE.kind())) {
            // a Service without selector selects no pod: it takes no part in spreading (as Kubernetes' selector helper)
            Service svc = (Service) c.getObject();
            if (svc.getSpec() != null && svc.getSpec().getSelector() != null && !svc.getSpec().getSelector().isEmpty()) {
                snapshot.workload(c.getNamespace(), LabelSelector.newBuilder()
                        .setMatchLabels(svc.getSpec().getSelector()).build());
            }
        }
        for (ObjectChanged c : list.apply(Kinds.REPLICA_SET.kind())) {
            ReplicaSet rs = (ReplicaSet) c.getObject();
            if (rs.getSpec() != null && rs.getSpec().getSelector() != null) {
                snapshot.workload(c.getNamespace(), rs.getSpec().getSelector());
            }
        }
        for (ObjectChanged c : list.apply(Kinds.STATEFUL_SET.kind())) {
            StatefulSet ss = (StatefulSet) c.getObject();
            if (ss.getSpec() != null && ss.getSpec().getSelector() != null) {
                snapshot.workload(c.getNamespace(), ss.getSpec().getSelector());
            }
        }
        for (ObjectChanged c : list.apply(Kinds.REPLICATION_CONTROLLER.kind())) {
            ReplicationController rc = (ReplicationController) c.getObject();
            if (rc.getSpec() != null && rc.getSpec().getSelector() != null && !rc.getSpec().getSelector().isEmpty()) {
                snapshot.workload(c.getNamespace(), LabelSelector.newBuilder()
                        .setMatchLabels(rc.getSpec().getSelector()).build());
            }
        }
        snapshot.metadataRead();
    }

    /** The pod's parsed scheduling info, cached by uid and resourceVersion. */
    public PodInfo info(Pod pod) {
        String uid = pod.getMetadata().getUid();
        if (uid == null) {
            return PodInfo.of(pod);
        }
        PodInfo cached = infos.get(uid);
        String rv = pod.getMetadata().getResourceVersion();
        if (cached == null || !Objects.equals(cached.resourceVersion(), rv)) {
            cached = PodInfo.of(pod);
            infos.put(uid, cached);
        }
        return cached;
    }

    /** Forgets the cached info of a deleted pod. */
    public void forget(String uid) {
        infos.remove(uid);
    }
}
