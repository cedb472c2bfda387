package io.eventplane.controllers.volume.protection;

import io.eventplane.model.ObjectMeta;
import java.util.ArrayList;
import java.util.List;

/** Adding and removing one finalizer on metadata, as the protection controllers do. Pure. */
final class Finalizers {
    private Finalizers() {
    }

    static boolean has(ObjectMeta meta, String finalizer) {
        return meta.getFinalizers() != null && meta.getFinalizers().contains(finalizer);
    }

    static ObjectMeta add(ObjectMeta meta, String finalizer) {
        List<String> out = meta.getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(meta.getFinalizers());
        out.add(finalizer);
        return ObjectMeta.newBuilder(meta).setFinalizers(out).build();
    }

    static ObjectMeta remove(ObjectMeta meta, String finalizer) {
        List<String> out = new ArrayList<>(meta.getFinalizers());
        out.remove(finalizer);
        return ObjectMeta.newBuilder(meta).setFinalizers(out.isEmpty() ? null : out).build();
    }
}
