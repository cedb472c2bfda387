package io.eventplane.controllers.resourcequota;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.codec.Quantity;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.quota.QuotaEvaluator;
import io.eventplane.core.quota.QuotaEvaluators;
import io.eventplane.core.quota.QuotaUsage;
import io.eventplane.core.quota.ResourceLists;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaStatus;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * The resource quota controller (kube-controller-manager's {@code resourcequota}): keeps each quota's status.hard
 * equal to spec.hard and status.used equal to what its namespace uses. A quota is recomputed when its spec.hard
 * changes (not when only its status does: quota admission reserves usage there), when an object it counts appears,
 * goes or changes its usage, when a pod stuck terminating stops counting, and every five minutes (Kubernetes'
 * resync, which also returns what an admitted create that then failed had reserved). Objects created by controllers
 * reach the writer without admission, so creates are counted too; a recount within {@link #RESERVATION_WINDOW} of a
 * reservation only raises usage, so it cannot undo a reservation whose object is still on its way.
 */
public final class ResourceQuotaReconciler implements Reconciler {
    static final Duration RESYNC = Duration.ofMinutes(5);
    /**
     * How long after an admission's reservation a recount may raise usage but not lower it: far longer than a create
     * takes to follow its reservation, so a recount between the two never hands the reserved unit to someone else.
     */
    static final Duration RESERVATION_WINDOW = Duration.ofSeconds(10);

    @Override
    public String kind() {
        return Kinds.RESOURCE_QUOTA.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind())) {
            boolean specChanged = previous == null || change.getType() == ChangeType.CREATED
                    || !Objects.equals(hard(previous), hard(change));
            return specChanged && change.getType() != ChangeType.DELETED
                    ? List.of(Keys.of(kind(), change.getNamespace(), change.getName())) : List.of();
        }
        KindInfo kind = Kinds.byKind(change.getKind()).filter(KindInfo::namespaced).orElse(null);
        if (kind == null) {
            return List.of();
        }
        QuotaEvaluator evaluator = QuotaEvaluators.of(kind);
        List<String> keys = new ArrayList<>();
        for (ObjectChanged q : view.list(kind(), change.getNamespace())) {
            Set<String> resources = evaluator.matchingResources(hardOf((ResourceQuota) q.getObject()).keySet());
            if (!resources.isEmpty() && usageChanged(evaluator, resources, change, previous)) {
                keys.add(Keys.of(kind(), q.getNamespace(), q.getName()));
            }
        }
        return keys;
    }

    /** An object appeared or went, or what it uses of the quota's resources changed (a pod finished). */
    private static boolean usageChanged(QuotaEvaluator evaluator, Set<String> resources, ObjectChanged change,
                                        ObjectChanged previous) {
        if (previous == null || change.getType() == ChangeType.CREATED || change.getType() == ChangeType.DELETED) {
            return true;
        }
        Instant now = change.getEnvelope().getTime();
        Map<String, Quantity> before = ResourceLists.mask(
                evaluator.usage((SpecificRecord) previous.getObject(), now), resources);
        Map<String, Quantity> after = ResourceLists.mask(evaluator.usage((SpecificRecord) change.getObject(), now), resources);
        return !ResourceLists.equal(before, after);
    }

    private static Map<String, String> hard(ObjectChanged c) {
        ResourceQuota q = (ResourceQuota) c.getObject();
        return q.getSpec() == null ? null : q.getSpec().getHard();
    }

    private static Map<String, Quantity> hardOf(ResourceQuota q) {
        return ResourceLists.parse(q.getSpec() == null ? null : q.getSpec().getHard());
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            return Reconciliation.NOTHING;
        }
        ResourceQuota quota = (ResourceQuota) current.getObject();
        if (quota.getMetadata().getDeletionTimestamp() != null) {
            return Reconciliation.NOTHING;
        }
        String namespace = current.getNamespace();
        ResourceQuotaStatus status = QuotaUsage.status(quota, kind -> view.objects(kind.kind(), namespace), now);
        Duration requeue = nextRecount(view, namespace, now);
        Instant reservedUntil = reservationWindowEnd(current);
        if (reservedUntil != null && now.isBefore(reservedUntil)) {
            // Admission reserved usage moments ago for an object that may not be here yet: count up, never down.
            Map<String, Quantity> used = ResourceLists.mask(ResourceLists.max(ResourceLists.parse(status.getUsed()),
                    QuotaUsage.used(quota)), ResourceLists.parse(status.getHard()).keySet());
            status = ResourceQuotaStatus.newBuilder(status).setUsed(ResourceLists.format(used)).build();
            Duration untilCount = Duration.between(now, reservedUntil).plusMillis(100);
            requeue = untilCount.compareTo(requeue) < 0 ? untilCount : requeue;
        }
        if (same(quota.getStatus(), status)) {
            return Reconciliation.after(requeue);
        }
        ResourceQuota next = ResourceQuota.newBuilder(quota).setStatus(status).build();
        return new Reconciliation(List.of(new Action.UpdateStatus(next)), List.of(), requeue);
    }

    /** When a reservation quota admission just wrote stops shielding usage from a recount, or null for none. */
    private static Instant reservationWindowEnd(ObjectChanged quota) {
        boolean reserved = quota.getType() == ChangeType.STATUS_UPDATED
                && QuotaUsage.ADMISSION_ACTOR.equals(quota.getEnvelope().getActor());
        return reserved ? quota.getEnvelope().getTime().plus(RESERVATION_WINDOW) : null;
    }

    /** The resync, or sooner when a pod stuck terminating stops counting (its deletion overdue by its grace). */
    private static Duration nextRecount(ClusterView view, String namespace, Instant now) {
        Duration next = RESYNC;
        for (Pod p : view.<Pod>objects(Kinds.POD.kind(), namespace)) {
            ObjectMeta m = p.getMetadata();
            if (m.getDeletionTimestamp() != null && m.getDeletionGracePeriodSeconds() != null) {
                Instant stops = m.getDeletionTimestamp().plusSeconds(m.getDeletionGracePeriodSeconds()).plusSeconds(1);
                if (stops.isAfter(now) && Duration.between(now, stops).compareTo(next) < 0) {
                    next = Duration.between(now, stops);
                }
            }
        }
        return next;
    }

    /** Same hard and used, quantities compared by amount. */
    static boolean same(ResourceQuotaStatus a, ResourceQuotaStatus b) {
        if (a == null || a.getHard() == null || a.getUsed() == null) {
            return false;
        }
        return ResourceLists.equal(ResourceLists.parse(a.getHard()), ResourceLists.parse(b.getHard()))
                && ResourceLists.equal(ResourceLists.parse(a.getUsed()), ResourceLists.parse(b.getUsed()));
    }
}
