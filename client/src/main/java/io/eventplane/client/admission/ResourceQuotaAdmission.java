package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.codec.Quantity;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.quota.QuotaEvaluator;
import io.eventplane.core.quota.QuotaEvaluators;
import io.eventplane.core.quota.QuotaUsage;
import io.eventplane.core.quota.ResourceLists;
import io.eventplane.model.ResourceQuota;
import io.eventplane.model.ResourceQuotaStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.specific.SpecificRecord;

/**
 * Kubernetes' ResourceQuota plugin, last in the chain. A new object is measured against every quota of its namespace
 * that covers it (its status.hard, as the quota controller wrote it): it must declare what the quota makes it declare
 * ({@code failed quota: q: must specify limits.cpu for: c}), and fit ({@code exceeded quota: q, requested: pods=1,
 * used: pods=2, limited: pods=2}). What it admits it reserves: each quota's status.used is raised through the writer
 * at the resourceVersion it was read at, so two API instances admitting against one quota at once cannot both take its
 * last unit; a conflict is decided again on the newer quota, as kube-apiserver's quota evaluator retries.
 */
public final class ResourceQuotaAdmission implements AdmissionChain.Validating {
    /** Writes a quota's status at the resourceVersion it carries; false on a conflict (someone wrote in between). */
    @FunctionalInterface
    public interface StatusWriter {
        boolean write(ResourceQuota quota);
    }

    /** Conflicting reservations decided again before the create is refused with a Conflict. */
    public static final int RETRIES = 3;
    private final ClusterView view;
    private final Clock clock;
    private final StatusWriter writer;

    ResourceQuotaAdmission(ClusterView view, Clock clock, StatusWriter writer) {
        this.view = view;
        this.clock = clock;
        this.writer = writer;
    }

    @Override
    public void validate(AdmissionRequest request, SpecificRecord object) {
        // Creates only: updates that change usage (a claim's resize) are not charged here.
        if (request.operation() != AdmissionRequest.Operation.CREATE || !request.kind().namespaced()) {
            return;
        }
        QuotaEvaluator evaluator = QuotaEvaluators.of(request.kind());
        Set<String> reserved = new HashSet<>();
        for (int attempt = 0; ; attempt++) {
            List<ResourceQuota> quotas = new ArrayList<>();
            for (ResourceQuota q : view.<ResourceQuota>objects(Kinds.RESOURCE_QUOTA.kind(), request.namespace())) {
                if (!reserved.contains(q.getMetadata().getName())) {
                    quotas.add(q);
                }
            }
            List<ResourceQuota> charged = check(request, evaluator, quotas, object);
            if (charged.isEmpty() || request.dryRun()) {
                return;
            }
            boolean conflicted = false;
            for (ResourceQuota q : charged) {
                if (writer.write(q)) {
                    reserved.add(q.getMetadata().getName());
                } else {
                    conflicted = true;
                    awaitNewer(q);
                }
            }
            if (!conflicted) {
                return;
            }
            if (attempt >= RETRIES) {
                throw AdmissionRefusal.conflict(Kinds.RESOURCE_QUOTA, charged.get(0).getMetadata().getName(),
                        "the object has been modified; please apply your changes to the latest version and try again").thrown();
            }
        }
    }

    /**
     * CheckRequest: the quotas whose usage the object raises, with their raised status.used; refuses when the object
     * does not declare what a quota needs, a quota's usage is not known yet, or a quota would be exceeded.
     */
    List<ResourceQuota> check(AdmissionRequest request, QuotaEvaluator evaluator, List<ResourceQuota> quotas,
                              SpecificRecord object) {
        List<ResourceQuota> interesting = new ArrayList<>();
        for (ResourceQuota q : quotas) {
            if (!QuotaUsage.matches(q, evaluator, object)) {
                continue;
            }
            Set<String> restricted = evaluator.matchingResources(QuotaUsage.hard(q).keySet());
            String missing = evaluator.constraints(restricted, object);
            if (missing != null) {
                throw forbidden(request, "failed quota: " + q.getMetadata().getName() + ": " + missing);
            }
            Map<String, Quantity> used = QuotaUsage.used(q);
            for (String r : restricted) {
                if (!used.containsKey(r)) {
                    throw forbidden(request, "status unknown for quota: " + q.getMetadata().getName() + ", resources: "
                            + String.join(",", new java.util.TreeSet<>(restricted)));
                }
            }
            interesting.add(q);
        }
        Map<String, Quantity> usage = evaluator.usage(object, clock.instant());
        Set<String> negative = ResourceLists.negative(usage);
        if (!negative.isEmpty()) {
            throw forbidden(request, "quota usage is negative for resource(s): " + String.join(",", negative));
        }
        Map<String, Quantity> delta = ResourceLists.nonZero(usage);
        List<ResourceQuota> charged = new ArrayList<>();
        if (delta.isEmpty()) {
            return charged;
        }
        for (ResourceQuota q : interesting) {
            Map<String, Quantity> hard = QuotaUsage.hard(q);
            Map<String, Quantity> used = QuotaUsage.used(q);
            Map<String, Quantity> requested = ResourceLists.mask(delta, hard.keySet());
            if (requested.isEmpty()) {
                continue;
            }
            Map<String, Quantity> newUsage = ResourceLists.add(used, requested);
            List<String> exceeded = ResourceLists.exceeded(ResourceLists.mask(newUsage, requested.keySet()), hard);
            if (!exceeded.isEmpty()) {
                throw forbidden(request, "exceeded quota: " + q.getMetadata().getName()
                        + ", requested: " + ResourceLists.pretty(ResourceLists.mask(requested, exceeded))
                        + ", used: " + ResourceLists.pretty(ResourceLists.mask(used, exceeded))
                        + ", limited: " + ResourceLists.pretty(ResourceLists.mask(hard, exceeded)));
            }
            ResourceQuotaStatus status = ResourceQuotaStatus.newBuilder(q.getStatus())
                    .setUsed(ResourceLists.format(newUsage)).build();
            charged.add(ResourceQuota.newBuilder(q).setStatus(status).build());
        }
        return charged;
    }

    private static AdmissionRefusal.Refused forbidden(AdmissionRequest request, String why) {
        return AdmissionRefusal.forbidden(request.kind(), request.name(), why).thrown();
    }

    /** After a conflict, a short wait for the view to show the newer quota (up to a second). */
    private void awaitNewer(ResourceQuota stale) {
        String rv = stale.getMetadata().getResourceVersion();
        long deadline = System.nanoTime() + 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            String now = view.get(Kinds.RESOURCE_QUOTA.kind(), stale.getMetadata().getNamespace(),
                    stale.getMetadata().getName()).map(c -> String.valueOf(c.getResourceVersion())).orElse(null);
            if (now == null || !now.equals(rv)) {
                return;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
