package io.eventplane.reconcile;

import io.eventplane.client.ClusterView;
import io.eventplane.core.Keys;
import io.eventplane.core.meta.LabelSelectors;
import io.eventplane.core.meta.Owners;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Which owners of one kind a change of an owned object (a pod, a ControllerRevision) concerns, as every workload
 * controller's event handlers work it out upstream: its controller, and the previous one when that changed; for an
 * orphan that appeared or whose labels changed, every owner of its namespace whose selector matches it (it may be
 * adopted). A deleted orphan concerns nobody.
 */
public final class OwnerKeys {
    private OwnerKeys() {
    }

    /**
     * @param ownerKind the owners' kind ({@code DaemonSet}, {@code StatefulSet}, ...)
     * @param selector  an owner's selector, or null when it has none
     */
    public static Collection<String> of(String ownerKind, Function<ObjectChanged, LabelSelector> selector, ObjectMeta meta,
                                        ObjectMeta before, ObjectChanged change, ClusterView view) {
        Set<String> keys = new LinkedHashSet<>();
        Optional<OwnerReference> controller = Owners.controllerOf(meta);
        Optional<OwnerReference> previousController = before == null ? Optional.empty() : Owners.controllerOf(before);
        previousController.filter(r -> !previousController.equals(controller))
                .ifPresent(r -> add(keys, ownerKind, r, change));
        if (controller.isPresent()) {
            add(keys, ownerKind, controller.get(), change);
            return keys;
        }
        boolean relabelled = before == null || !Objects.equals(before.getLabels(), meta.getLabels())
                || previousController.isPresent();
        if (change.getType() != ChangeType.DELETED && relabelled) {
            for (ObjectChanged c : view.list(ownerKind, change.getNamespace())) {
                LabelSelector s = selector.apply(c);
                if (s != null && !LabelSelectors.isEmpty(s) && LabelSelectors.matches(s, meta.getLabels())) {
                    keys.add(Keys.of(c.getKind(), c.getNamespace(), c.getName()));
                }
            }
        }
        return keys;
    }

    private static void add(Set<String> keys, String ownerKind, OwnerReference ref, ObjectChanged change) {
        if (ownerKind.equals(ref.getKind())) {
            keys.add(Keys.of(ownerKind, change.getNamespace(), ref.getName()));
        }
    }
}
