package io.eventplane.core.quota;

import io.eventplane.core.codec.Quantity;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaSpec;
import io.eventplane.model.ResourceQuotaStatus;
import io.eventplane.model.ScopedResourceSelectorRequirement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.avro.specific.SpecificRecord;

/**
 * What a quota covers and what its namespace uses (Kubernetes' quota.CalculateUsage and quota.Matches): the status the
 * quota controller keeps, and the test quota admission applies to one object.
 */
public final class QuotaUsage {
    /**
     * Who quota admission's reservations come from in the log (a quota status written by the API before a create):
     * the quota controller does not count below a fresh reservation, whose object may not be in its view yet.
     */
    public static final String ADMISSION_ACTOR = "resourcequota-admission";

    /** The objects of one kind in the quota's namespace. */
    @FunctionalInterface
    public interface Lister {
        List<? extends SpecificRecord> list(KindInfo kind);
    }

    private QuotaUsage() {
    }

    /** spec.scopes (each as {@code Exists}) and then spec.scopeSelector's requirements. */
    public static List<ScopedResourceSelectorRequirement> scopes(ResourceQuota quota) {
        List<ScopedResourceSelectorRequirement> out = new ArrayList<>();
        ResourceQuotaSpec spec = quota.getSpec();
        if (spec == null) {
            return out;
        }
        for (String scope : spec.getScopes() == null ? List.<String>of() : spec.getScopes()) {
            out.add(ScopedResourceSelectorRequirement.newBuilder().setScopeName(scope).setOperator("Exists").build());
        }
        if (spec.getScopeSelector() != null && spec.getScopeSelector().getMatchExpressions() != null) {
            out.addAll(spec.getScopeSelector().getMatchExpressions());
        }
        return out;
    }

    /** Whether the object falls under every scope of the quota (no scopes: every object does). */
    public static boolean inScope(ResourceQuota quota, QuotaEvaluator evaluator, SpecificRecord object) {
        for (ScopedResourceSelectorRequirement scope : scopes(quota)) {
            if (!evaluator.matchesScope(scope, object)) {
                return false;
            }
        }
        return true;
    }

    /** Matches: the quota's status.hard names a resource the evaluator accounts for, and the object is in scope. */
    public static boolean matches(ResourceQuota quota, QuotaEvaluator evaluator, SpecificRecord object) {
        return !evaluator.matchingResources(hard(quota).keySet()).isEmpty() && inScope(quota, evaluator, object);
    }

    /** status.hard as the quota controller last wrote it (what admission enforces). */
    public static Map<String, Quantity> hard(ResourceQuota quota) {
        return ResourceLists.parse(quota.getStatus() == null ? null : quota.getStatus().getHard());
    }

    public static Map<String, Quantity> used(ResourceQuota quota) {
        return ResourceLists.parse(quota.getStatus() == null ? null : quota.getStatus().getUsed());
    }

    /**
     * The status the quota controller writes: hard is spec.hard; used is, for every hard resource some evaluator
     * accounts for, the sum over the namespace's objects in the quota's scope (zero when none), and what status said
     * before for the others.
     */
    public static ResourceQuotaStatus status(ResourceQuota quota, Lister lister, Instant now) {
        Map<String, Quantity> hard = ResourceLists.parse(quota.getSpec() == null ? null : quota.getSpec().getHard());
        Map<String, Quantity> used = new TreeMap<>(used(quota));
        for (QuotaEvaluator e : QuotaEvaluators.all()) {
            Set<String> resources = e.matchingResources(hard.keySet());
            if (resources.isEmpty()) {
                continue;
            }
            Map<String, Quantity> sum = new TreeMap<>();
            resources.forEach(r -> sum.put(r, Quantity.of(0)));
            for (SpecificRecord object : lister.list(e.kind())) {
                if (inScope(quota, e, object)) {
                    sum.putAll(ResourceLists.add(sum, ResourceLists.mask(e.usage(object, now), resources)));
                }
            }
            used.putAll(sum);
        }
        used = ResourceLists.mask(used, hard.keySet());
        return ResourceQuotaStatus.newBuilder().setHard(ResourceLists.format(hard))
                .setUsed(ResourceLists.format(used)).build();
    }
}
