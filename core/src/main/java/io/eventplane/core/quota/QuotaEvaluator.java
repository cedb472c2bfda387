package io.eventplane.core.quota;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.model.ScopedResourceSelectorRequirement;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * How quota measures one kind (Kubernetes' quota.Evaluator): which quota resources it accounts for, what one object
 * uses, which quota scopes it falls under, and what an object must declare to be admitted under a quota. Pure; the
 * quota controller sums usage over a namespace, quota admission adds one object's usage to a quota's.
 */
public interface QuotaEvaluator {
    KindInfo kind();

    /** The names among {@code resources} this evaluator accounts for (MatchingResources). */
    Set<String> matchingResources(Collection<String> resources);

    /** What {@code object} uses, as of {@code now} (a pod stuck terminating stops counting). */
    Map<String, Quantity> usage(SpecificRecord object, Instant now);

    /** Whether {@code object} falls under one scope requirement of a quota; only pods fall under any. */
    default boolean matchesScope(ScopedResourceSelectorRequirement scope, SpecificRecord object) {
        return false;
    }

    /**
     * Why {@code object} cannot be admitted under a quota on {@code required} (Constraints), or null. A pod must
     * declare every cpu and memory request and limit a quota covers.
     */
    default String constraints(Set<String> required, SpecificRecord object) {
        return null;
    }
}
