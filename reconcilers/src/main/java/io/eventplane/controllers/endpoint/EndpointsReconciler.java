package io.eventplane.controllers.endpoint;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Endpoints;
import io.eventplane.model.Pod;
import io.eventplane.model.Service;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The endpoints controller (kube-controller-manager's {@code endpoint}): keyed by Service, it keeps each selecting
 * Service's Endpoints (same name) in step with its pods, and deletes the Endpoints of a Service that is gone.
 * Services without selector and ExternalName Services are left alone: their Endpoints are whoever wrote them. A
 * Service is looked at when it changes, when a pod it selects (now or before) changes, and when its Endpoints are
 * deleted; on start, also for every Endpoints whose Service is gone.
 */
public final class EndpointsReconciler implements Reconciler {
    @Override
    public String kind() {
        return Kinds.SERVICE.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        String kind = change.getKind();
        if (kind.equals(Kinds.SERVICE.kind())) {
            return List.of(Keys.of(kind, change.getNamespace(), change.getName()));
        }
        if (kind.equals(Kinds.POD.kind())) {
            Pod before = previous == null ? null : (Pod) previous.getObject();
            return PodEndpoints.servicesOf((Pod) change.getObject(), before, view);
        }
        if (kind.equals(Kinds.ENDPOINTS.kind()) && change.getType() == ChangeType.DELETED) {
            return List.of(Keys.of(Kinds.SERVICE.kind(), change.getNamespace(), change.getName()));
        }
        return List.of();
    }

    @Override
    public Collection<String> initialKeys(ClusterView view) {
        Set<String> keys = new LinkedHashSet<>(Reconciler.super.initialKeys(view));
        for (ObjectChanged c : view.list(Kinds.ENDPOINTS.kind(), null)) {
            keys.add(Keys.of(Kinds.SERVICE.kind(), c.getNamespace(), c.getName())); // leftovers of deleted Services
        }
        return new ArrayList<>(keys);
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        String namespace = Keys.namespace(key);
        String name = Keys.name(key);
        Optional<ObjectChanged> endpoints = view.get(Kinds.ENDPOINTS.kind(), namespace, name);
        Optional<ObjectChanged> service = view.get(key);
        if (service.isEmpty()) {
            return endpoints.map(e -> Reconciliation.of(List.of(new Action.Delete(Kinds.ENDPOINTS, namespace, name,
                    e.getUid(), null, null)))).orElse(Reconciliation.NOTHING);
        }
        Service svc = (Service) service.get().getObject();
        if (!PodEndpoints.managed(svc)) {
            return Reconciliation.NOTHING;
        }
        Endpoints current = endpoints.map(e -> (Endpoints) e.getObject()).orElse(null);
        Optional<Endpoints> next = EndpointsDecider.decide(svc, PodEndpoints.selected(svc, view), current);
        if (next.isEmpty()) {
            return Reconciliation.NOTHING;
        }
        Action action = current == null ? new Action.Create(next.get(), null, "FailedToCreateEndpoint")
                : new Action.Update(next.get(), null, "FailedToUpdateEndpoint");
        return Reconciliation.of(List.of(action));
    }
}
