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

    /**
     * A controller's create of {@code object} in its namespace. Messages show its generateName when it has one, as
     * kube-apiserver's do for a controller's pods ({@code pods "web-7c5d8-" is forbidden: ...}, DEP-54): the
     * controllers here draw the name themselves but keep the prefix Kubernetes' controllers send.
     */
    public static AdmissionRequest create(SpecificRecord object) {
        KindInfo kind = io.eventplane.core.kinds.Kinds.of(object);
        var meta = io.eventplane.core.meta.ObjectAccess.meta(object);
        String name = meta.getGenerateName() == null || meta.getGenerateName().isEmpty() ? meta.getName()
                : meta.getGenerateName();
        return new AdmissionRequest(Operation.CREATE, kind, kind.namespaced() ? meta.getNamespace() : "", name, null,
                false);
    }
}
