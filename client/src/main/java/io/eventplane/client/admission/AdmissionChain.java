package io.eventplane.client.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.decide.KindRules;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.Kinds;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * kube-apiserver's admission plugins that look at other objects (the writer decides each object alone), shared by
 * the API and the controller runtime (controllers create through it as Kubernetes' create through kube-apiserver):
 * first every mutating plugin in order, then the writer's own validation of the result (as Kubernetes validates before
 * its validating plugins), then every validating plugin in order. A plugin refuses with an {@link AdmissionRefusal};
 * nothing is written then. The plugins read the view and write nothing but a quota's status (the reservation).
 * The writer's validation is a dry run of its decision: it runs first only where a quota would reserve (nothing is
 * reserved for an object the writer refuses); elsewhere only when a validating plugin refuses, so that the writer's
 * refusal still comes first, and an object every plugin admits is decided once, by the writer, when it is sent.
 *
 * <p>The object is defaulted by the writer's rules first, as Kubernetes defaults what it decodes. Order, as
 * kube-apiserver's: NamespaceLifecycle, LimitRanger, ServiceAccount, Priority, DefaultStorageClass,
 * DefaultIngressClass, then ResourceQuota last, which reserves what it admits in the quota's status.
 */
public final class AdmissionChain {
    /** A plugin that may change the object; returns it, changed or not. */
    interface Mutating {
        SpecificRecord admit(AdmissionRequest request, SpecificRecord object);
    }

    /** A plugin that accepts the object as it is, or refuses it (throws {@link AdmissionRefusal.Refused}). */
    interface Validating {
        void validate(AdmissionRequest request, SpecificRecord object);
    }

    private static final RulesRegistry RULES = RulesRegistry.standard();
    private final ClusterView view;
    private final NamespaceLifecycle lifecycle;
    private final List<Mutating> mutating;
    private final List<Validating> validating;

    private AdmissionChain(ClusterView view, Clock clock, ResourceQuotaAdmission.StatusWriter quotaStatus,
                           NamespaceLifecycle lifecycle, ServiceAccountAdmission serviceAccounts) {
        this.view = view;
        this.lifecycle = lifecycle;
        LimitRanger limitRanger = new LimitRanger(view);
        PriorityAdmission priority = new PriorityAdmission(view);
        this.mutating = List.of(limitRanger, serviceAccounts, priority, new DefaultStorageClass(view),
                new DefaultIngressClass(view));
        this.validating = List.of(limitRanger, priority, new ResourceQuotaAdmission(view, clock, quotaStatus));
    }

    /**
     * The API's chain.
     *
     * @param quotaStatus        writes a quota's status at the resourceVersion it carries (the reservation)
     * @param serviceAccountWait how long a pod waits for its namespace's default ServiceAccount to appear
     */
    public static AdmissionChain forApi(ClusterView view, Clock clock, ResourceQuotaAdmission.StatusWriter quotaStatus,
                                        Duration serviceAccountWait) {
        return forApi(view, clock, quotaStatus, serviceAccountWait, false);
    }

    /**
     * As above; {@code mountServiceAccountTokens}: new pods get the projected {@code kube-api-access-*} token volume
     * (where the API issues ServiceAccount tokens, i.e. holds the cluster's signing key).
     */
    public static AdmissionChain forApi(ClusterView view, Clock clock, ResourceQuotaAdmission.StatusWriter quotaStatus,
                                        Duration serviceAccountWait, boolean mountServiceAccountTokens) {
        return new AdmissionChain(view, clock, quotaStatus, new NamespaceLifecycle(view),
                new ServiceAccountAdmission(view, serviceAccountWait, true, namespace -> mountServiceAccountTokens,
                        new SecureRandom()));
    }

    /**
     * The chain a controller's creates go through: the same plugins, except that namespace lifecycle is left to the
     * namespace controller and the writer, and a namespace's missing {@code default} ServiceAccount does not hold a
     * controller's pods back (a named account that is missing does); a controller never blocks waiting for one. Pods
     * get the projected token volume where the cluster CA is published (see {@link ServiceAccountAdmission}).
     */
    public static AdmissionChain forControllers(ClusterView view, Clock clock,
                                                ResourceQuotaAdmission.StatusWriter quotaStatus) {
        return new AdmissionChain(view, clock, quotaStatus, null,
                new ServiceAccountAdmission(view, Duration.ZERO, false,
                        ServiceAccountAdmission.whereRootCaPublished(view), new SecureRandom()));
    }

    /**
     * Admits a create: the object to write, or the refusal.
     *
     * @param writerCheck the writer's validation of the mutated object (a dry-run decision; see the class comment for
     *                    when it runs); throws on a refusal, which passes through unchanged
     */
    public AdmissionResult create(AdmissionRequest request, SpecificRecord object, Consumer<SpecificRecord> writerCheck) {
        try {
            if (lifecycle != null) {
                lifecycle.validate(request, object);
            }
            SpecificRecord admitted = defaults(request, object);
            for (Mutating m : mutating) {
                admitted = m.admit(request, admitted);
            }
            if (quotaReserves(request)) {
                writerCheck.accept(admitted);
                validate(request, admitted);
            } else {
                try {
                    validate(request, admitted);
                } catch (AdmissionRefusal.Refused r) {
                    writerCheck.accept(admitted);
                    throw r;
                }
            }
            return AdmissionResult.admitted(admitted);
        } catch (AdmissionRefusal.Refused r) {
            return AdmissionResult.refused(r.refusal);
        }
    }

    private void validate(AdmissionRequest request, SpecificRecord admitted) {
        for (Validating v : validating) {
            v.validate(request, admitted);
        }
    }

    /** Whether a quota in the request's namespace would reserve what it admits. */
    public boolean quotaReserves(AdmissionRequest request) {
        return request.kind().namespaced()
                && !view.objects(Kinds.RESOURCE_QUOTA.kind(), request.namespace()).isEmpty();
    }

    /** Admits an update of {@code request.old()} to {@code object}. */
    public AdmissionResult update(AdmissionRequest request, SpecificRecord object) {
        try {
            SpecificRecord admitted = defaults(request, object);
            for (Mutating m : mutating) {
                admitted = m.admit(request, admitted);
            }
            for (Validating v : validating) {
                v.validate(request, admitted);
            }
            return AdmissionResult.admitted(admitted);
        } catch (AdmissionRefusal.Refused r) {
            return AdmissionResult.refused(r.refusal);
        }
    }

    /** Admits a delete (some namespaces may never be deleted); null when allowed. */
    public AdmissionRefusal delete(AdmissionRequest request) {
        try {
            if (lifecycle != null) {
                lifecycle.validate(request, null);
            }
            return null;
        } catch (AdmissionRefusal.Refused r) {
            return r.refusal;
        }
    }

    /**
     * The writer's defaulting first, as Kubernetes defaults a request's object when it decodes it: a container's
     * requests default to its limits before LimitRanger looks for what is missing.
     */
    @SuppressWarnings("unchecked")
    private static SpecificRecord defaults(AdmissionRequest request, SpecificRecord object) {
        return ((KindRules<SpecificRecord>) RULES.rulesFor(request.kind())).defaults(object);
    }
}
