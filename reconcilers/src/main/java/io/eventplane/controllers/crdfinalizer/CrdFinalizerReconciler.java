package io.eventplane.controllers.crdfinalizer;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.CustomResourceDefinitionRules;
import io.eventplane.core.kinds.CustomKinds;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.apiextensions.CustomObject;
import io.eventplane.model.apiextensions.CustomResourceDefinition;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * apiextensions-apiserver's CRD finalizer: a deleted CustomResourceDefinition first deletes every object of its
 * kind, then drops its {@code customresourcecleanup.apiextensions.k8s.io} finalizer, which lets the writer remove
 * it. Keyed by definition; the deletion of one of its objects wakes it up again.
 */
public final class CrdFinalizerReconciler implements Reconciler {
    static final String FINALIZER = CustomResourceDefinitionRules.CLEANUP_FINALIZER;

    @Override
    public String kind() {
        return Kinds.CUSTOM_RESOURCE_DEFINITION.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (change.getKind().equals(kind()) && change.getType() != ChangeType.DELETED) {
            return List.of(Keys.of(kind(), "", change.getName()));
        }
        if (change.getType() == ChangeType.DELETED && change.getObject() instanceof CustomObject) {
            List<String> keys = new ArrayList<>();
            for (ObjectChanged c : view.list(kind(), null)) {
                CustomResourceDefinition crd = (CustomResourceDefinition) c.getObject();
                if (crd.getMetadata().getDeletionTimestamp() != null
                        && KindInfo.customKind(crd.getSpec().getNames().getKind(), crd.getSpec().getGroup())
                        .equals(change.getKind())) {
                    keys.add(Keys.of(kind(), "", c.getName()));
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
        CustomResourceDefinition crd = (CustomResourceDefinition) current.getObject();
        ObjectMeta meta = crd.getMetadata();
        List<String> finalizers = meta.getFinalizers() == null ? List.of() : meta.getFinalizers();
        if (meta.getDeletionTimestamp() == null || !finalizers.contains(FINALIZER)) {
            return Reconciliation.NOTHING;
        }
        KindInfo kind = CustomKinds.storedKind(crd).orElse(null);
        List<Action> actions = new ArrayList<>();
        if (kind != null) {
            for (ObjectChanged c : view.list(kind.kind(), null)) {
                ObjectMeta m = ((CustomObject) c.getObject()).getMetadata();
                if (m.getDeletionTimestamp() == null) {
                    actions.add(new Action.Delete(kind, c.getNamespace(), c.getName(), m.getUid(), null, null));
                }
            }
            if (!actions.isEmpty() || !view.list(kind.kind(), null).isEmpty()) {
                return Reconciliation.of(actions); // objects still going: woken again by their deletions
            }
        }
        List<String> remaining = new ArrayList<>(finalizers);
        remaining.remove(FINALIZER);
        CustomResourceDefinition released = CustomResourceDefinition.newBuilder(crd)
                .setMetadata(ObjectMeta.newBuilder(meta).setFinalizers(remaining).build()).build();
        return Reconciliation.of(List.of(new Action.Update(released, null, null)));
    }
}
