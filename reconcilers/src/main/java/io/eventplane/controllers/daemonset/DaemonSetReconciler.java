package io.eventplane.controllers.daemonset;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ControllerRevision;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.OwnerKeys;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The DaemonSet controller (workloads.md §4) as a {@link Reconciler}, with Kubernetes' event handlers: a DaemonSet is
 * looked at when it changes; when a pod it controls changes (or an orphan it could adopt appears or is relabelled);
 * when one of its ControllerRevisions changes; and when a node appears, goes, or changes so that the DaemonSet's
 * verdict on it changes (labels, taints; status heartbeats do not count). The step is {@link DaemonSetDecider}'s.
 */
public final class DaemonSetReconciler implements Reconciler {
    /** Pods by their controller's uid, or {@code orphan/<namespace>} for pods without a controller. */
    static final String PODS_BY_CONTROLLER = "daemonset-pods-by-controller";

    /** The one piece of memory, as Kubernetes' failedPodsBackoff; only the worker thread uses it. */
    private final FailedPodBackoff backoff = new FailedPodBackoff();

    @Override
    public String kind() {
        return Kinds.DAEMON_SET.kind();
    }

    @Override
    public void index(ClusterView view) {
        if (!view.hasIndex(PODS_BY_CONTROLLER)) {
            view.addIndex(PODS_BY_CONTROLLER, Kinds.POD.kind(), c -> Owners.controllerOf(((Pod) c.getObject())
                    .getMetadata()).map(OwnerReference::getUid).orElse("orphan/" + c.getNamespace()));
        }
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        String kind = change.getKind();
        if (kind.equals(Kinds.DAEMON_SET.kind())) {
            return List.of(Keys.of(kind, change.getNamespace(), change.getName()));
        }
        if (kind.equals(Kinds.POD.kind())) {
            return ownedKeys(((Pod) change.getObject()).getMetadata(),
                    previous == null ? null : ((Pod) previous.getObject()).getMetadata(), change, view);
        }
        if (kind.equals(Kinds.CONTROLLER_REVISION.kind())) {
            return ownedKeys(((ControllerRevision) change.getObject()).getMetadata(),
                    previous == null ? null : ((ControllerRevision) previous.getObject()).getMetadata(), change, view);
        }
        if (kind.equals(Kinds.NODE.kind())) {
            return nodeKeys((Node) change.getObject(), previous == null ? null : (Node) previous.getObject(),
                    change.getType(), view);
        }
        return List.of();
    }

    /**
     * A pod's or revision's controlling DaemonSet (and the previous one when it changed); for an orphan that appeared
     * or whose labels changed, every DaemonSet of its namespace that selects it (it may adopt it).
     */
    private static Collection<String> ownedKeys(ObjectMeta meta, ObjectMeta before, ObjectChanged change, ClusterView view) {
        return OwnerKeys.of(Kinds.DAEMON_SET.kind(), c -> {
            DaemonSet owner = (DaemonSet) c.getObject();
            return owner.getSpec() == null ? null : owner.getSpec().getSelector();
        }, meta, before, change, view);
    }

    /**
     * Kubernetes' addNode/updateNode: the DaemonSets whose verdict on the node changed (a new node: those that want
     * it). A node that is gone concerns those that may have pods pinned to it.
     */
    private static Collection<String> nodeKeys(Node node, Node before, ChangeType type, ClusterView view) {
        if (before != null && type != ChangeType.DELETED && sameForDaemons(before, node)) {
            return List.of(); // a status heartbeat
        }
        Set<String> keys = new LinkedHashSet<>();
        for (ObjectChanged c : view.list(Kinds.DAEMON_SET.kind(), null)) {
            DaemonSet ds = (DaemonSet) c.getObject();
            if (ds.getSpec() == null) {
                continue;
            }
            NodeEligibility eligibility = NodeEligibility.of(ds);
            NodeEligibility.Verdict now = eligibility.on(node);
            boolean concerned = type == ChangeType.DELETED ? now.shouldContinueRunning()
                    : before == null ? now.shouldRun() : !now.equals(eligibility.on(before));
            if (concerned) {
                keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
            }
        }
        return keys;
    }

    /** What the verdict reads off a node (its name, labels and taints) is the same. */
    private static boolean sameForDaemons(Node a, Node b) {
        return Objects.equals(a.getMetadata().getLabels(), b.getMetadata().getLabels())
                && Objects.equals(a.getSpec() == null ? null : a.getSpec().getTaints(),
                b.getSpec() == null ? null : b.getSpec().getTaints());
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        Optional<ObjectChanged> current = view.get(key);
        if (current.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        DaemonSet ds = (DaemonSet) current.get().getObject();
        String namespace = Keys.namespace(key);
        List<Node> nodes = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.NODE.kind(), null)) {
            nodes.add((Node) c.getObject());
        }
        List<ControllerRevision> revisions = new ArrayList<>();
        for (ObjectChanged c : view.list(Kinds.CONTROLLER_REVISION.kind(), namespace)) {
            revisions.add((ControllerRevision) c.getObject());
        }
        return DaemonSetDecider.sync(new DaemonSetDecider.Observed(ds, nodes, candidates(view, namespace, ds), revisions),
                now, backoff);
    }

    /**
     * The pods a step for {@code ds} can concern: those it controls, the namespace's orphans (it may adopt them) and
     * those whose names start with its pods' prefix (a new pod's name must be free). Reading these instead of the
     * namespace keeps a step's cost to the DaemonSet's size.
     */
    static List<Pod> candidates(ClusterView view, String namespace, DaemonSet ds) {
        Map<String, Pod> byName = new TreeMap<>();
        String uid = ds.getMetadata() == null ? null : ds.getMetadata().getUid();
        if (uid == null || !view.hasIndex(PODS_BY_CONTROLLER)) {
            for (ObjectChanged c : view.list(Kinds.POD.kind(), namespace)) {
                byName.put(c.getName(), (Pod) c.getObject());
            }
            return new ArrayList<>(byName.values());
        }
        for (ObjectChanged c : view.indexed(PODS_BY_CONTROLLER, uid)) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        for (ObjectChanged c : view.indexed(PODS_BY_CONTROLLER, "orphan/" + namespace)) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        for (ObjectChanged c : view.listByNamePrefix(Kinds.POD.kind(), namespace,
                DaemonSetDecider.namePrefix(ds.getMetadata().getName()))) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        return new ArrayList<>(byName.values());
    }
}
