package io.eventplane.controllers.namespace;

import io.eventplane.core.meta.Conditions;
import io.eventplane.model.NamespaceCondition;
import io.eventplane.model.NamespaceStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The conditions a terminating namespace reports, as Kubernetes' namespace deleter words them: each of its five
 * condition types is False with its "all is well" reason, or True saying what is wrong or left
 * ({@code SomeResourcesRemain: Some resources are remaining: pods. has 2 resource instances}).
 */
final class NamespaceConditions {
    static final String DISCOVERY_FAILURE = "NamespaceDeletionDiscoveryFailure";
    static final String GROUP_VERSION_PARSING_FAILURE = "NamespaceDeletionGroupVersionParsingFailure";
    static final String CONTENT_FAILURE = "NamespaceDeletionContentFailure";
    static final String CONTENT_REMAINING = "NamespaceContentRemaining";
    static final String FINALIZERS_REMAINING = "NamespaceFinalizersRemaining";

    private NamespaceConditions() {
    }

    /** Terminating, with the five conditions for what is left; a condition's time moves only with its status. */
    static NamespaceStatus status(NamespaceStatus current, NamespaceDeleter.Remaining left, Instant now) {
        List<NamespaceCondition> conditions = current == null ? null : current.getConditions();
        // Discovery and group versions come from the kind registry here: they cannot fail.
        conditions = Conditions.set(conditions, condition(DISCOVERY_FAILURE, false, "ResourcesDiscovered",
                "All resources successfully discovered", now));
        conditions = Conditions.set(conditions, condition(GROUP_VERSION_PARSING_FAILURE, false, "ParsedGroupVersions",
                "All legacy kube types successfully parsed", now));
        List<String> errors = new ArrayList<>(left.errors());
        errors.sort(null);
        conditions = Conditions.set(conditions, errors.isEmpty()
                ? condition(CONTENT_FAILURE, false, "ContentDeleted",
                        "All content successfully deleted, may be waiting on finalization", now)
                : condition(CONTENT_FAILURE, true, "ContentDeletionFailed", "Failed to delete all resource types, "
                        + errors.size() + " remaining: " + String.join(", ", errors), now));
        conditions = Conditions.set(conditions, left.byResource().isEmpty()
                ? condition(CONTENT_REMAINING, false, "ContentRemoved", "All content successfully removed", now)
                : condition(CONTENT_REMAINING, true, "SomeResourcesRemain", "Some resources are remaining: "
                        + list(left.byResource(), " has %d resource instances"), now));
        conditions = Conditions.set(conditions, left.byFinalizer().isEmpty()
                ? condition(FINALIZERS_REMAINING, false, "ContentHasNoFinalizers",
                        "All content-preserving finalizers finished", now)
                : condition(FINALIZERS_REMAINING, true, "SomeFinalizersRemain",
                        "Some content in the namespace has finalizers remaining: "
                                + list(left.byFinalizer(), " in %d resource instances"), now));
        NamespaceStatus.Builder b = current == null ? NamespaceStatus.newBuilder() : NamespaceStatus.newBuilder(current);
        return b.setPhase("Terminating").setConditions(conditions).build();
    }

    /** {@code a has 2 resource instances, b has 1 resource instances}, sorted as Kubernetes sorts the phrases. */
    private static String list(Map<String, Integer> counts, String format) {
        List<String> parts = new ArrayList<>();
        counts.forEach((name, n) -> parts.add(name + String.format(format, n)));
        parts.sort(null);
        return String.join(", ", parts);
    }

    private static NamespaceCondition condition(String type, boolean failing, String reason, String message,
                                                Instant now) {
        return NamespaceCondition.newBuilder().setType(type).setStatus(failing ? "True" : "False").setReason(reason)
                .setMessage(message).setLastTransitionTime(now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)).build();
    }

    /** The same phase and conditions, times aside: nothing to write. */
    static boolean same(NamespaceStatus a, NamespaceStatus b) {
        return a != null && b != null && Objects.equals(a.getPhase(), b.getPhase())
                && Conditions.sameIgnoringTimes(a.getConditions(), b.getConditions());
    }
}
