package io.eventplane.core.decide;

import io.eventplane.core.kinds.CustomKinds.GroupNames;
import io.eventplane.model.apiextensions.CustomResourceDefinitionNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * apiextensions-apiserver's naming controller as a pure decision: which of the requested names a definition may
 * hold, given the names the rest of its group holds. A name already accepted stays accepted; a fresh name is taken
 * unless another definition of the group (or a compiled kind of the group) uses it. Only names within one group can
 * conflict: two groups may each define {@code Cluster}.
 *
 * @param accepted the names the definition holds after this decision (its status.acceptedNames)
 * @param reason   {@code NoConflicts}, or the last conflict found ({@code PluralConflict}, {@code SingularConflict},
 *                 {@code ShortNamesConflict}, {@code KindConflict}, {@code ListKindConflict}), as upstream reports it
 * @param message  {@code no conflicts found}, or why ({@code "widgets" is already in use})
 */
public record CustomResourceDefinitionNaming(CustomResourceDefinitionNames accepted, String reason, String message) {
    public static final String NO_CONFLICTS = "NoConflicts";

    public boolean namesAccepted() {
        return NO_CONFLICTS.equals(reason);
    }

    /**
     * @param requested   spec.names
     * @param heldBefore  status.acceptedNames before (null for a new definition)
     * @param inUse       the names the group uses but this definition's own
     */
    public static CustomResourceDefinitionNaming decide(CustomResourceDefinitionNames requested,
                                                        CustomResourceDefinitionNames heldBefore, GroupNames inUse) {
        CustomResourceDefinitionNames held = heldBefore == null ? new CustomResourceDefinitionNames() : heldBefore;
        CustomResourceDefinitionNames.Builder out = CustomResourceDefinitionNames.newBuilder(held);
        String reason = NO_CONFLICTS;
        String message = "no conflicts found";
        String conflict = conflict(requested.getPlural(), held.getPlural(), inUse.resources());
        if (conflict != null) {
            reason = "PluralConflict";
            message = conflict;
        } else {
            out.setPlural(requested.getPlural());
        }
        conflict = conflict(requested.getSingular(), held.getSingular(), inUse.resources());
        if (conflict != null) {
            reason = "SingularConflict";
            message = conflict;
        } else {
            out.setSingular(requested.getSingular());
        }
        List<String> shorts = requested.getShortNames() == null ? List.of() : requested.getShortNames();
        List<String> heldShorts = held.getShortNames() == null ? List.of() : held.getShortNames();
        if (!shorts.equals(heldShorts)) {
            List<String> conflicts = new ArrayList<>();
            for (String s : shorts) {
                // Its own names are in use by itself only: a short name equal to its plural or singular is fine.
                if (heldShorts.contains(s) || s.equals(held.getPlural()) || s.equals(held.getSingular())) {
                    continue;
                }
                String c = conflict(s, "", inUse.resources());
                if (c != null) {
                    conflicts.add(c);
                }
            }
            if (!conflicts.isEmpty()) {
                reason = "ShortNamesConflict";
                message = conflicts.size() == 1 ? conflicts.get(0) : conflicts.toString();
            } else {
                out.setShortNames(requested.getShortNames());
            }
        }
        conflict = conflict(requested.getKind(), held.getKind(), inUse.kinds());
        if (conflict != null) {
            reason = "KindConflict";
            message = conflict;
        } else {
            out.setKind(requested.getKind());
        }
        conflict = conflict(requested.getListKind(), held.getListKind(), inUse.kinds());
        if (conflict != null) {
            reason = "ListKindConflict";
            message = conflict;
        } else {
            out.setListKind(requested.getListKind());
        }
        out.setCategories(requested.getCategories());
        return new CustomResourceDefinitionNaming(out.build(), reason, message);
    }

    /** Why {@code requested} cannot be taken, or null: it is the name already held, or nobody else's. */
    private static String conflict(String requested, String held, Set<String> inUse) {
        if (Objects.equals(requested, held) || requested == null || !inUse.contains(requested)) {
            return null;
        }
        return "\"" + requested + "\" is already in use";
    }
}
