package io.eventplane.controllers.namespace;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Namespace;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * The namespace controller (kube-controller-manager's {@code namespace}): a deleted namespace's content (objects of
 * every namespaced kind, custom kinds included) goes, its conditions say what is left, and the namespace goes when it
 * is empty. A terminating namespace is looked at again whenever something in it changes (content going away), and
 * after its pods' grace period.
 */
public final class NamespaceReconciler implements Reconciler {
    @Override
    public String kind() {
        return Kinds.NAMESPACE.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind())) {
            return List.of(Keys.of(kind(), "", change.getName()));
        }
        if (change.getNamespace() == null || change.getNamespace().isEmpty()) {
            return List.of();
        }
        String key = Keys.of(kind(), "", change.getNamespace());
        boolean terminating = view.get(key)
                .map(c -> ((Namespace) c.getObject()).getMetadata().getDeletionTimestamp() != null).orElse(false);
        return terminating ? List.of(key) : List.of();
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            return Reconciliation.NOTHING;
        }
        Namespace ns = (Namespace) current.getObject();
        if (ns.getMetadata().getDeletionTimestamp() == null) {
            return Reconciliation.NOTHING;
        }
        NamespaceDeleter.Step step = NamespaceDeleter.decide(ns, content(view, current.getName()), now);
        return new Reconciliation(step.actions(), List.of(), step.requeueAfter());
    }

    /**
     * Every object in the namespace, by kind: the compiled kinds in the registry's order, then the custom kinds of the
     * CustomResourceDefinitions in the view (Kubernetes finds both through discovery). The definitions are read from
     * the view rather than from {@link CustomKinds} so that the kinds and their objects come from one reading; a
     * terminating definition counts too, since its objects are still there until the crd-finalizer removes them.
     */
    static Map<KindInfo, List<SpecificRecord>> content(ClusterView view, String namespace) {
        Map<KindInfo, List<SpecificRecord>> out = new LinkedHashMap<>();
        Set<String> stored = new HashSet<>();
        for (KindInfo kind : Kinds.all()) {
            if (kind.namespaced()) {
                out.put(kind, view.objects(kind.kind(), namespace));
            }
            stored.add(kind.kind());
        }
        for (ObjectChanged c : view.list(Kinds.CUSTOM_RESOURCE_DEFINITION.kind(), null)) {
            KindInfo kind = CustomKinds.storedKind((CustomResourceDefinition) c.getObject()).orElse(null);
            // A Kind defined twice is stored once: its objects are listed once.
            if (kind != null && kind.namespaced() && stored.add(kind.kind())) {
                out.put(kind, view.objects(kind.kind(), namespace));
            }
        }
        return out;
    }
}
