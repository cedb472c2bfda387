package io.eventplane.core.decide;

import io.eventplane.log.StatusCause;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.OwnerReference;
import java.util.ArrayList;
import java.util.List;

/** Validation of the metadata every kind shares: owner references and finalizers (Kubernetes' ValidateObjectMeta). */
final class MetadataRules {
    private MetadataRules() {
    }

    static List<StatusCause> validate(ObjectMeta meta) {
        List<StatusCause> causes = new ArrayList<>();
        List<OwnerReference> refs = meta.getOwnerReferences() == null ? List.of() : meta.getOwnerReferences();
        int controllers = 0;
        for (int i = 0; i < refs.size(); i++) {
            OwnerReference ref = refs.get(i);
            String f = "metadata.ownerReferences[" + i + "]";
            if (blank(ref.getApiVersion())) {
                causes.add(Causes.invalid(f + ".apiVersion", ref.getApiVersion(), "version must not be empty"));
            }
            if (blank(ref.getKind())) {
                causes.add(Causes.invalid(f + ".kind", ref.getKind(), "kind must not be empty"));
            }
            if (blank(ref.getName())) {
                causes.add(Causes.invalid(f + ".name", ref.getName(), "name must not be empty"));
            }
            if (blank(ref.getUid())) {
                causes.add(Causes.invalid(f + ".uid", ref.getUid(), "uid must not be empty"));
            }
            if (Boolean.TRUE.equals(ref.getController())) {
                controllers++;
            }
        }
        if (controllers > 1) {
            // GC-X01: at most one managing controller.
            causes.add(Causes.invalid("metadata.ownerReferences", null,
                    "Only one reference can have Controller set to true. Found \"true\" in references for more than one owner"));
        }
        List<String> finalizers = meta.getFinalizers() == null ? List.of() : meta.getFinalizers();
        if (finalizers.contains(ObjectDecider.ORPHAN_FINALIZER) && finalizers.contains(ObjectDecider.FOREGROUND_FINALIZER)) {
            causes.add(Causes.invalid("metadata.finalizers", ObjectDecider.FOREGROUND_FINALIZER,
                    "finalizer foregroundDeletion and orphan cannot be both set"));
        }
        return causes;
    }

    private static boolean blank(String s) {
        return s == null || s.isEmpty();
    }
}
