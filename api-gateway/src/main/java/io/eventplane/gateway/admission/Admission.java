package io.eventplane.gateway.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.core.decide.KindRules;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.gateway.wire.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * The API's admission chain, kube-apiserver's admission plugins that look at other objects (the writer decides each
 * object alone): first every mutating plugin in order, then the writer's own validation of the result (as Kubernetes
 * validates before its validating plugins), then every validating plugin in order. A plugin refuses by throwing an
 * {@link ApiException} with Kubernetes' Status, which the API answers; nothing is written then.
 *
 * <p>The object is defaulted by the writer's rules first, as Kubernetes defaults what it decodes. Order, as
 * kube-apiserver's: NamespaceLifecycle, LimitRanger, ServiceAccount, Priority, DefaultStorageClass,
 * DefaultIngressClass, then ResourceQuota last, which reserves what it admits in the quota's status.
 */
public final class Admission {
    /** What is being admitted. */
    public enum Operation { CREATE, UPDATE, DELETE }

    /**
     * One admission request.
     *
     * @param name   the object's name, or its generateName before a name is drawn (what messages show)
     * @param old    the stored object for an update, else null
     * @param dryRun whether nothing is to be written (quota is checked, not reserved)
     */
    public record Request(Operation operation, KindInfo kind, String namespace, String name, SpecificRecord old,
                          boolean dryRun) {
    }

    /** A plugin that may change the object; returns it, changed or not. */
    interface Mutating {
        SpecificRecord admit(Request request, SpecificRecord object);
    }

    /** A plugin that accepts the object as it is, or refuses it. */
    interface Validating {
        void validate(Request request, SpecificRecord object);
    }

    private static final RulesRegistry RULES = RulesRegistry.standard();
    private final NamespaceLifecycle lifecycle;
    private final List<Mutating> mutating;
    private final List<Validating> validating;

    /**
     * @param quotaStatus writes a quota's status at the resourceVersion it carries (the reservation)
     * @param serviceAccountWait how long a pod waits for its namespace's default ServiceAccount to appear
     */
    public Admission(ClusterView view, Clock clock, ResourceQuotaAdmission.StatusWriter quotaStatus,
                     Duration serviceAccountWait) {
        this(view, clock, quotaStatus, serviceAccountWait, false);
    }

    /**
     * As above; {@code mountServiceAccountTokens}: new pods get the projected {@code kube-api-access-*} token volume
     * (where the API issues ServiceAccount tokens, i.e. holds the cluster's signing key).
     */
    public Admission(ClusterView view, Clock clock, ResourceQuotaAdmission.StatusWriter quotaStatus,
                     Duration serviceAccountWait, boolean mountServiceAccountTokens) {
        this.lifecycle = new NamespaceLifecycle(view);
        LimitRanger limitRanger = new LimitRanger(view);
        PriorityAdmission priority = new PriorityAdmission(view);
        this.mutating = List.of(limitRanger, new ServiceAccountAdmission(view, serviceAccountWait,
                mountServiceAccountTokens, new java.security.SecureRandom()), priority,
                new DefaultStorageClass(view), new DefaultIngressClass(view));
        this.validating = List.of(limitRanger, priority, new ResourceQuotaAdmission(view, clock, quotaStatus));
    }

    /**
     * Admits a create: returns the object to write.
     *
     * @param writerCheck the writer's validation of the mutated object (a dry-run decision); throws on a refusal
     */
    public SpecificRecord create(Request request, SpecificRecord object, Consumer<SpecificRecord> writerCheck) {
        lifecycle.validate(request, object);
        SpecificRecord admitted = defaults(request, object);
        for (Mutating m : mutating) {
            admitted = m.admit(request, admitted);
        }
        writerCheck.accept(admitted);
        for (Validating v : validating) {
            v.validate(request, admitted);
        }
        return admitted;
    }

    /** Admits an update of {@code request.old()} to {@code object}. */
    public SpecificRecord update(Request request, SpecificRecord object) {
        SpecificRecord admitted = defaults(request, object);
        for (Mutating m : mutating) {
            admitted = m.admit(request, admitted);
        }
        for (Validating v : validating) {
            v.validate(request, admitted);
        }
        return admitted;
    }

    /**
     * The writer's defaulting first, as Kubernetes defaults a request's object when it decodes it: a container's
     * requests default to its limits before LimitRanger looks for what is missing.
     */
    @SuppressWarnings("unchecked")
    private static SpecificRecord defaults(Request request, SpecificRecord object) {
        return ((KindRules<SpecificRecord>) RULES.rulesFor(request.kind())).defaults(object);
    }

    /** Admits a delete (some namespaces may never be deleted). */
    public void delete(Request request) {
        lifecycle.validate(request, null);
    }
}
