package io.eventplane.controllers.serviceaccount;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.PodRules;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Namespace;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.ServiceAccount;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

/**
 * The service account controller (kube-controller-manager's {@code serviceaccount}): every active namespace has a
 * {@code default} ServiceAccount, created when the namespace appears and again when it is deleted. Keyed by
 * namespace, as upstream's syncNamespace; a terminating namespace gets nothing new.
 */
public final class ServiceAccountReconciler implements Reconciler {
    static final String DEFAULT = PodRules.DEFAULT_SERVICE_ACCOUNT;

    @Override
    public String kind() {
        return Kinds.NAMESPACE.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind()) && change.getType() != ChangeType.DELETED) {
            return List.of(Keys.of(kind(), "", change.getName()));
        }
        if (change.getKind().equals(Kinds.SERVICE_ACCOUNT.kind()) && change.getType() == ChangeType.DELETED
                && change.getName().equals(DEFAULT)) {
            return List.of(Keys.of(kind(), "", change.getNamespace()));
        }
        return List.of();
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null || !active((Namespace) current.getObject())) {
            return Reconciliation.NOTHING;
        }
        String namespace = current.getName();
        if (view.get(Kinds.SERVICE_ACCOUNT.kind(), namespace, DEFAULT).isPresent()) {
            return Reconciliation.NOTHING;
        }
        ServiceAccount sa = ServiceAccount.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(DEFAULT).setNamespace(namespace).build()).build();
        return Reconciliation.of(List.of(new Action.Create(sa, null, null)));
    }

    /** Active, not being deleted: a namespace that may still get new content. */
    public static boolean active(Namespace ns) {
        String phase = ns.getStatus() == null ? null : ns.getStatus().getPhase();
        return ns.getMetadata().getDeletionTimestamp() == null && !"Terminating".equals(phase);
    }
}
