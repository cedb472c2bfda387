package io.eventplane.gateway.select;

import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ObjectChanged;
import org.apache.avro.specific.SpecificRecord;

/**
 * Which objects a list or watch is about: a kind, a namespace (null: all, or cluster-scoped) and the selectors.
 */
public record Selection(KindInfo kind, String namespace, LabelSelector labels, FieldSelector fields) {

    /** The namespace as the view keys it: null for all namespaces and for cluster-scoped kinds. */
    public String viewNamespace() {
        return namespace;
    }

    /** Kind and namespace (and a pinned name) only: what a change must be about to concern this selection at all. */
    public boolean inScope(ObjectChanged c) {
        if (!c.getKind().equals(kind.kind()) || (namespace != null && !namespace.equals(c.getNamespace()))) {
            return false;
        }
        String name = fields.exactName();
        return name == null || name.equals(c.getName());
    }

    public boolean matches(ObjectChanged c) {
        return inScope(c) && matchesSelectors((SpecificRecord) c.getObject());
    }

    public boolean matchesSelectors(SpecificRecord object) {
        return labels.matches(ObjectAccess.meta(object).getLabels()) && fields.matches(object);
    }

    /** Whether an object can enter or leave the selection by changing (label or mutable-field selectors). */
    public boolean selectsOnMutableFields() {
        return !labels.isEmpty() || !fields.onlyIdentity();
    }
}
