package io.eventplane.client.admission;

import io.eventplane.core.kinds.KindInfo;
import org.apache.avro.specific.SpecificRecord;

/**
 * One admission request.
 *
 * @param name   the object's name, or its generateName before a name is drawn (what messages show)
 * @param old    the stored object for an update, else null
 * @param dryRun whether nothing is to be written (quota is checked, not reserved)
 */
public record AdmissionRequest(Operation operation, KindInfo kind, String namespace, String name, SpecificRecord old,
                               boolean dryRun) {
    /** What is being admitted. */
    public enum Operation { CREATE, UPDATE, DELETE }

    /** A create of {@code object} under its own name and namespace (what a controller sends). */
    public static AdmissionRequest create(SpecificRecord object) {
        KindInfo kind = io.eventplane.core.kinds.Kinds.of(object);
        var meta = io.eventplane.core.meta.ObjectAccess.meta(object);
        String name = meta.getName() == null || meta.getName().isEmpty() ? meta.getGenerateName() : meta.getName();
        return new AdmissionRequest(Operation.CREATE, kind, kind.namespaced() ? meta.getNamespace() : "", name, null,
                false);
    }
}
