package io.eventplane.core.meta;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Owner references (COM-06, RS-06): the controller reference, adding and removing one. Pure. */
public final class Owners {
    private Owners() {
    }

    public static OwnerReference controllerRef(KindInfo kind, ObjectMeta owner) {
        return OwnerReference.newBuilder().setApiVersion(kind.apiVersion()).setKind(kind.objectKind())
                .setName(owner.getName()).setUid(owner.getUid()).setController(true).setBlockOwnerDeletion(true)
                .build();
    }

    /** The reference with {@code controller: true}, if any. */
    public static Optional<OwnerReference> controllerOf(ObjectMeta meta) {
        if (meta == null || meta.getOwnerReferences() == null) {
            return Optional.empty();
        }
        for (OwnerReference r : meta.getOwnerReferences()) { // every controller's keysFor asks: no stream here
            if (Boolean.TRUE.equals(r.getController())) {
                return Optional.of(r);
            }
        }
        return Optional.empty();
    }

    public static boolean isControlledBy(ObjectMeta meta, String ownerUid) {
        return controllerOf(meta).map(r -> ownerUid.equals(r.getUid())).orElse(false);
    }

    /** The metadata with {@code ref} added as controller reference. */
    public static ObjectMeta adopt(ObjectMeta meta, OwnerReference ref) {
        List<OwnerReference> refs = new ArrayList<>(meta.getOwnerReferences() == null ? List.of() : meta.getOwnerReferences());
        refs.removeIf(r -> ref.getUid().equals(r.getUid()));
        refs.add(ref);
        return ObjectMeta.newBuilder(meta).setOwnerReferences(refs).build();
    }

    /** The metadata without any reference to {@code ownerUid} (null when none is left, as Kubernetes omits it). */
    public static ObjectMeta release(ObjectMeta meta, String ownerUid) {
        List<OwnerReference> refs = new ArrayList<>(meta.getOwnerReferences() == null ? List.of() : meta.getOwnerReferences());
        refs.removeIf(r -> ownerUid.equals(r.getUid()));
        return ObjectMeta.newBuilder(meta).setOwnerReferences(refs.isEmpty() ? null : refs).build();
    }
}
