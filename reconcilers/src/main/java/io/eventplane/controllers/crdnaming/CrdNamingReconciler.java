package io.eventplane.controllers.crdnaming;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.model.apiextensions.CustomResourceDefinitionCondition;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The requeue half of apiextensions-apiserver's naming controller. The writer decides a definition's names when the
 * definition is written ({@code CustomResourceDefinitionNaming}); when a definition of a group changes or goes away,
 * names may have been freed, so every other definition of the group whose names were not all accepted is written
 * again, unchanged, and the writer decides its names once more (a no-op, writing nothing, while they are still taken).
 */
public final class CrdNamingReconciler implements Reconciler {
    @Override
    public String kind() {
        return Kinds.CUSTOM_RESOURCE_DEFINITION.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (!change.getKind().equals(kind())) {
            return List.of();
        }
        CustomResourceDefinition changed = (CustomResourceDefinition) change.getObject();
        String group = changed.getSpec() == null ? null : changed.getSpec().getGroup();
        List<String> keys = new ArrayList<>();
        for (ObjectChanged c : view.list(kind(), null)) {
            CustomResourceDefinition crd = (CustomResourceDefinition) c.getObject();
            if (!c.getName().equals(change.getName()) && crd.getSpec() != null && group != null
                    && group.equals(crd.getSpec().getGroup()) && !namesAccepted(crd)) {
                keys.add(Keys.of(kind(), "", c.getName()));
            }
        }
        return keys;
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (current == null) {
            return Reconciliation.NOTHING;
        }
        CustomResourceDefinition crd = (CustomResourceDefinition) current.getObject();
        if (crd.getMetadata().getDeletionTimestamp() != null || namesAccepted(crd)) {
            return Reconciliation.NOTHING;
        }
        return Reconciliation.of(List.of(new Action.Update(crd, null, null)));
    }

    static boolean namesAccepted(CustomResourceDefinition crd) {
        if (crd.getStatus() == null || crd.getStatus().getConditions() == null) {
            return false;
        }
        for (CustomResourceDefinitionCondition c : crd.getStatus().getConditions()) {
            if ("NamesAccepted".equals(c.getType())) {
                return "True".equals(c.getStatus());
            }
        }
        return false;
    }
}
