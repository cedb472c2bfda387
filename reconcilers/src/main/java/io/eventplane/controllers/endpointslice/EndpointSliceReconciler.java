package io.eventplane.controllers.endpointslice;

import static io.eventplane.controllers.endpointslice.EndpointSliceDecider.CONTROLLER_NAME;
import static io.eventplane.controllers.endpointslice.EndpointSliceDecider.MANAGED_BY_LABEL;
import static io.eventplane.controllers.endpointslice.EndpointSliceDecider.SERVICE_NAME_LABEL;

import io.eventplane.client.ClusterView;
import io.eventplane.controllers.endpoint.PodEndpoints;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.Service;
import io.eventplane.model.discovery.EndpointSlice;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The EndpointSlice controller (kube-controller-manager's {@code endpointslice}): keyed by Service, it keeps each
 * selecting Service's EndpointSlices in step with its pods ({@link EndpointSliceDecider}). A Service is looked at when
 * it changes, when a pod it selects (now or before) changes, and when one of the slices this controller manages is
 * changed or deleted by someone else. Slices of a deleted Service go with it (their owner reference); Services without
 * selector and ExternalName Services are left alone.
 */
public final class EndpointSliceReconciler implements Reconciler {
    static final String BY_SERVICE = "endpointslices-by-service";

    @Override
    public String kind() {
        return Kinds.SERVICE.kind();
    }

    @Override
    public void index(ClusterView view) {
        view.addIndex(BY_SERVICE, Kinds.ENDPOINT_SLICE.kind(), c -> {
            Map<String, String> labels = ((EndpointSlice) c.getObject()).getMetadata().getLabels();
            return labels == null || !CONTROLLER_NAME.equals(labels.get(MANAGED_BY_LABEL))
                    || labels.get(SERVICE_NAME_LABEL) == null ? null : c.getNamespace() + "/" + labels.get(SERVICE_NAME_LABEL);
        });
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
        if (kind.equals(Kinds.ENDPOINT_SLICE.kind())) {
            List<String> keys = new ArrayList<>();
            for (ObjectChanged c : previous == null ? List.of(change) : List.of(change, previous)) {
                Map<String, String> labels = ((EndpointSlice) c.getObject()).getMetadata().getLabels();
                if (labels != null && labels.get(SERVICE_NAME_LABEL) != null) {
                    String key = Keys.of(Kinds.SERVICE.kind(), c.getNamespace(), labels.get(SERVICE_NAME_LABEL));
                    if (!keys.contains(key)) {
                        keys.add(key);
                    }
                }
            }
            return keys;
        }
        return List.of();
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            return Reconciliation.NOTHING;
        }
        Service service = (Service) current.getObject();
        if (!PodEndpoints.managed(service)) {
            return Reconciliation.NOTHING;
        }
        List<EndpointSlice> slices = new ArrayList<>();
        for (ObjectChanged c : view.indexed(BY_SERVICE, current.getNamespace() + "/" + current.getName())) {
            EndpointSlice s = (EndpointSlice) c.getObject();
            if (s.getMetadata().getDeletionTimestamp() == null) {
                slices.add(s);
            }
        }
        return Reconciliation.of(EndpointSliceDecider.decide(service, PodEndpoints.selected(service, view), slices,
                node -> zone(view, node)));
    }

    private static String zone(ClusterView view, String node) {
        return view.get(Kinds.NODE.kind(), "", node).map(c -> ((Node) c.getObject()).getMetadata().getLabels())
                .map(labels -> labels.get(EndpointSliceDecider.ZONE_LABEL)).orElse(null);
    }
}
