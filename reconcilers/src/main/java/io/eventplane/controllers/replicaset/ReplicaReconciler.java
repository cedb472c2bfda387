package io.eventplane.controllers.replicaset;

import io.eventplane.client.ClusterView;
import io.eventplane.reconcile.Action;
import io.eventplane.core.meta.Owners;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Conditions;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import io.eventplane.model.Pod;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicaSetCondition;
import io.eventplane.model.ReplicaSetStatus;
import io.eventplane.model.ReplicationController;
import io.eventplane.model.ReplicationControllerCondition;
import io.eventplane.model.ReplicationControllerStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.avro.specific.SpecificRecord;
import org.apache.avro.specific.SpecificRecordBase;

/**
 * The ReplicaSet controller (§2) and the ReplicationController manager (§9) as {@link Reconciler}s: they read the
 * owner and its namespace's pods from the view, ask {@link ReplicaSetDecider}, and turn the counts into the kind's
 * status. Two instances, one per kind, each run by its own {@link io.eventplane.reconcile.Controller}.
 */
public abstract class ReplicaReconciler implements Reconciler {
    private final KindInfo kind;
    private final Supplier<? extends SpecificRecordBase> newStatus;
    private final Supplier<? extends SpecificRecordBase> newCondition;

    ReplicaReconciler(KindInfo kind, Supplier<? extends SpecificRecordBase> newStatus,
                      Supplier<? extends SpecificRecordBase> newCondition) {
        this.kind = kind;
        this.newStatus = newStatus;
        this.newCondition = newCondition;
    }

    public static ReplicaReconciler replicaSets() {
        return new ReplicaSets();
    }

    public static ReplicaReconciler replicationControllers() {
        return new ReplicationControllers();
    }

    @Override
    public String kind() {
        return kind.kind();
    }

    /** The owner as the decision sees it, or empty when the object is not there. */
    abstract Optional<ReplicaOwner> owner(SpecificRecord object);

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind.kind())) {
            return List.of(Keys.of(kind.kind(), change.getNamespace(), change.getName()));
        }
        if (!change.getKind().equals(Kinds.POD.kind())) {
            return List.of();
        }
        Pod pod = (Pod) change.getObject();
        Set<String> keys = new LinkedHashSet<>();
        Optional<OwnerReference> controller = Owners.controllerOf(pod.getMetadata());
        if (controller.isPresent()) {
            if (kind.kind().equals(controller.get().getKind())) {
                keys.add(Keys.of(kind.kind(), change.getNamespace(), controller.get().getName()));
            }
        } else if (change.getType() != ChangeType.DELETED) {
            // an orphan: every owner whose selector it matches may adopt it (RS-08)
            for (ObjectChanged c : view.list(kind.kind(), change.getNamespace())) {
                owner((SpecificRecord) c.getObject()).filter(o -> o.selector().test(pod.getMetadata().getLabels()))
                        .ifPresent(o -> keys.add(Keys.of(kind.kind(), c.getNamespace(), c.getName())));
            }
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        Optional<ObjectChanged> current = view.get(key);
        if (current.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        SpecificRecord object = (SpecificRecord) current.get().getObject();
        return decide(object, candidates(view, Keys.namespace(key), object), now, lastFailure);
    }

    /** Pods by their controller's uid, or {@code orphan/<namespace>} for pods without a controller. */
    static final String PODS_BY_CONTROLLER = "pods-by-controller";

    @Override
    public void index(ClusterView view) {
        if (!view.hasIndex(PODS_BY_CONTROLLER)) {
            view.addIndex(PODS_BY_CONTROLLER, Kinds.POD.kind(), c -> Owners.controllerOf(((Pod) c.getObject()).getMetadata())
                    .map(OwnerReference::getUid).orElse("orphan/" + c.getNamespace()));
        }
    }

    /**
     * The pods a decision for {@code object} can concern: those it controls, the namespace's orphans (it may adopt
     * them) and those whose names start with its pods' name prefix (a new pod's name must be free). Reading these
     * instead of the whole namespace keeps a step's cost to the owner's size with 100,000 pods in one namespace.
     */
    List<Pod> candidates(ClusterView view, String namespace, SpecificRecord object) {
        List<Pod> pods = new ArrayList<>();
        Optional<ReplicaOwner> owner = owner(object);
        if (owner.isEmpty() || !view.hasIndex(PODS_BY_CONTROLLER)) {
            for (ObjectChanged c : view.list(Kinds.POD.kind(), namespace)) {
                pods.add((Pod) c.getObject());
            }
            return pods;
        }
        java.util.Map<String, Pod> byName = new java.util.TreeMap<>();
        for (ObjectChanged c : view.indexed(PODS_BY_CONTROLLER, owner.get().meta().getUid())) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        for (ObjectChanged c : view.indexed(PODS_BY_CONTROLLER, "orphan/" + namespace)) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        for (ObjectChanged c : view.listByNamePrefix(Kinds.POD.kind(), namespace,
                ReplicaSetDecider.namePrefix(owner.get().meta().getName()))) {
            byName.put(c.getName(), (Pod) c.getObject());
        }
        pods.addAll(byName.values());
        return pods;
    }

    /** One step for one owner given every pod of its namespace: pod commands plus the status update, if any. */
    public Reconciliation decide(SpecificRecord object, List<Pod> pods, Instant now, String lastFailure) {
        Optional<ReplicaOwner> owner = owner(object);
        if (owner.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        ReplicaDecision d = ReplicaSetDecider.decide(owner.get(), pods, now, lastFailure);
        List<Action> actions = new ArrayList<>(d.actions());
        withStatus(object, d.status()).ifPresent(s -> actions.add(new Action.UpdateStatus(s)));
        return new Reconciliation(actions, List.of(), d.requeueAfter());
    }

    /**
     * The object with {@code counts} as its status, or empty when the status already says so. ReplicaSetStatus and
     * ReplicationControllerStatus are different Avro records with the same fields (a ReplicaSet's has
     * terminatingReplicas as well, kept as it is), so one function serves both through their field names.
     */
    Optional<SpecificRecord> withStatus(SpecificRecord object, ReplicaCounts counts) {
        SpecificRecord current = (SpecificRecord) ObjectAccess.field(object, "status");
        SpecificRecordBase next = (SpecificRecordBase) ObjectAccess.shallow(current == null ? newStatus.get() : current);
        @SuppressWarnings("unchecked")
        List<SpecificRecord> conditions = Conditions.remove((List<SpecificRecord>) next.get("conditions"),
                ReplicaFailure.TYPE);
        if (counts.failure() != null) {
            ReplicaFailure f = counts.failure();
            SpecificRecordBase c = newCondition.get();
            c.put("type", ReplicaFailure.TYPE);
            c.put("status", "True");
            c.put("reason", f.reason());
            c.put("message", f.message());
            c.put("lastTransitionTime", f.lastTransitionTime());
            conditions.add(c);
        }
        next.put("replicas", counts.replicas());
        next.put("fullyLabeledReplicas", counts.fullyLabeledReplicas());
        next.put("readyReplicas", counts.readyReplicas());
        next.put("availableReplicas", counts.availableReplicas());
        next.put("observedGeneration", counts.observedGeneration());
        next.put("conditions", conditions.isEmpty() ? null : conditions);
        if (Objects.equals(next, current)) {
            return Optional.empty();
        }
        // without a resourceVersion precondition: the status is recomputed from the view on every step
        ObjectMeta meta = ObjectMeta.newBuilder(ObjectAccess.meta(object)).setResourceVersion(null).build();
        return Optional.of(ObjectAccess.with(ObjectAccess.withMeta(object, meta), "status", next));
    }

    /** The ReplicaFailure=True condition the object reports (the last one, should there be several), or null. */
    static ReplicaFailure currentFailure(SpecificRecord status) {
        @SuppressWarnings("unchecked")
        List<SpecificRecord> conditions = status == null ? null
                : (List<SpecificRecord>) ObjectAccess.field(status, "conditions");
        ReplicaFailure failure = null;
        for (SpecificRecord c : conditions == null ? List.<SpecificRecord>of() : conditions) {
            if (ReplicaFailure.TYPE.equals(ObjectAccess.field(c, "type"))
                    && "True".equals(ObjectAccess.field(c, "status"))) {
                failure = new ReplicaFailure((String) ObjectAccess.field(c, "reason"),
                        (String) ObjectAccess.field(c, "message"), Conditions.transitionTime(c));
            }
        }
        return failure;
    }

    private static final class ReplicaSets extends ReplicaReconciler {
        ReplicaSets() {
            super(Kinds.REPLICA_SET, ReplicaSetStatus::new, ReplicaSetCondition::new);
        }

        @Override
        Optional<ReplicaOwner> owner(SpecificRecord object) {
            ReplicaSet rs = (ReplicaSet) object;
            if (rs.getSpec() == null || rs.getMetadata() == null || rs.getMetadata().getUid() == null) {
                return Optional.empty();
            }
            var selector = rs.getSpec().getSelector();
            // an empty selector selects nothing for a controller
            Predicate<Map<String, String>> matches = labels -> !LabelSelectors.isEmpty(selector)
                    && LabelSelectors.matches(selector, labels);
            return Optional.of(new ReplicaOwner(Kinds.REPLICA_SET, rs, rs.getMetadata(),
                    rs.getSpec().getReplicas() == null ? 1 : rs.getSpec().getReplicas(),
                    rs.getSpec().getMinReadySeconds() == null ? 0 : rs.getSpec().getMinReadySeconds(),
                    matches, rs.getSpec().getTemplate(), currentFailure(rs.getStatus()), "replicaset-controller"));
        }
    }

    private static final class ReplicationControllers extends ReplicaReconciler {
        ReplicationControllers() {
            super(Kinds.REPLICATION_CONTROLLER, ReplicationControllerStatus::new, ReplicationControllerCondition::new);
        }

        @Override
        Optional<ReplicaOwner> owner(SpecificRecord object) {
            ReplicationController rc = (ReplicationController) object;
            if (rc.getSpec() == null || rc.getMetadata() == null || rc.getMetadata().getUid() == null) {
                return Optional.empty();
            }
            Map<String, String> selector = rc.getSpec().getSelector();
            Predicate<Map<String, String>> matches = labels -> selector != null && !selector.isEmpty()
                    && LabelSelectors.matches(selector, labels);
            return Optional.of(new ReplicaOwner(Kinds.REPLICATION_CONTROLLER, rc, rc.getMetadata(),
                    rc.getSpec().getReplicas() == null ? 1 : rc.getSpec().getReplicas(),
                    rc.getSpec().getMinReadySeconds() == null ? 0 : rc.getSpec().getMinReadySeconds(),
                    matches, rc.getSpec().getTemplate(), currentFailure(rc.getStatus()), "replication-controller"));
        }
    }
}
