package io.eventplane.gateway.admission;

import io.eventplane.client.ClusterView;
import io.eventplane.client.admission.AdmissionChain;
import io.eventplane.client.admission.AdmissionRefusal;
import io.eventplane.client.admission.AdmissionRequest;
import io.eventplane.client.admission.AdmissionResult;
import io.eventplane.client.admission.ResourceQuotaAdmission;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.gateway.wire.KubeStatus;
import io.eventplane.gateway.wire.Statuses;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * The API's admission: the shared {@link AdmissionChain} (io.eventplane.client.admission, which the controller runtime
 * runs too), its refusals answered as Kubernetes' Status by throwing an {@link ApiException}; nothing is written then.
 */
public final class Admission {
    private final AdmissionChain chain;

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
        this.chain = AdmissionChain.forApi(view, clock, quotaStatus, serviceAccountWait, mountServiceAccountTokens);
    }

    /**
     * Admits a create: returns the object to write.
     *
     * @param writerCheck the writer's validation of the mutated object (a dry-run decision); throws on a refusal
     */
    public SpecificRecord create(AdmissionRequest request, SpecificRecord object, Consumer<SpecificRecord> writerCheck) {
        return orThrow(chain.create(request, object, writerCheck));
    }

    /** Admits an update of {@code request.old()} to {@code object}. */
    public SpecificRecord update(AdmissionRequest request, SpecificRecord object) {
        return orThrow(chain.update(request, object));
    }

    /** Admits a delete (some namespaces may never be deleted). */
    public void delete(AdmissionRequest request) {
        AdmissionRefusal refusal = chain.delete(request);
        if (refusal != null) {
            throw new ApiException(status(refusal));
        }
    }

    private static SpecificRecord orThrow(AdmissionResult result) {
        if (result.isRefused()) {
            throw new ApiException(status(result.refusal()));
        }
        return result.object();
    }

    /** A refusal as the Status kube-apiserver answers it. */
    static KubeStatus status(AdmissionRefusal r) {
        return switch (r.code()) {
            case 404 -> Statuses.notFound(r.kind(), r.name());
            case 409 -> Statuses.conflict(r.kind(), r.name(), r.why());
            default -> r.causes().isEmpty() ? Statuses.forbidden(r.kind(), r.name(), r.why())
                    : Statuses.forbidden(r.kind(), r.name(), r.why(), r.causes().stream()
                            .map(c -> new KubeStatus.Cause(c.reason(), c.message(), c.field())).toList());
        };
    }
}
