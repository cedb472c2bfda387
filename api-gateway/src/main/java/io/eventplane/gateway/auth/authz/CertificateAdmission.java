package io.eventplane.gateway.auth.authz;

import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.core.meta.CertificateRequests;
import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.gateway.wire.ApiException;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestSpec;
import io.eventplane.model.certificates.CertificateSigningRequestStatus;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/**
 * kube-apiserver's admission plugins for CertificateSigningRequests, which ask the authorizer about the synthetic
 * {@code signers} resource of certificates.k8s.io, named by the request's signerName or by its domain with {@code /*}
 * ({@code kubernetes.io/*}): CertificateApproval (an update of {@code approval} needs {@code approve}),
 * CertificateSigning (an update of {@code status} that changes the certificate or the conditions needs {@code sign})
 * and CertificateSubjectRestriction (no {@code system:masters} organization in a request to the
 * kube-apiserver-client signer). Both checks that change state read the signerName of the stored request, so that an
 * approver cannot change it on the way.
 */
public final class CertificateAdmission {
    public static final String KUBE_APISERVER_CLIENT = "kubernetes.io/kube-apiserver-client";
    static final String GROUP = "certificates.k8s.io";
    private static final String RESOURCE = "certificatesigningrequests";
    private static final String MASTERS = UserInfo.MASTERS;

    private final Authorization authorization;

    public CertificateAdmission(Authorization authorization) {
        this.authorization = authorization;
    }

    /**
     * CertificateSubjectRestriction on a create. A request that does not parse is left to validation, which refuses
     * it (Kubernetes validates before its validating admission).
     *
     * @throws ApiException Kubernetes' 403
     */
    public void admitCreate(UserInfo user, String name, CertificateSigningRequest csr) {
        CertificateSigningRequestSpec spec = csr.getSpec();
        if (spec == null || !KUBE_APISERVER_CLIENT.equals(spec.getSignerName()) || spec.getRequest() == null) {
            return;
        }
        PKCS10CertificationRequest request;
        try {
            request = CertificateRequests.parse(bytes(spec.getRequest()));
        } catch (IllegalArgumentException e) {
            return;
        }
        if (CertificateAuthority.Subject.of(request.getSubject()).organizations().contains(MASTERS)) {
            throw refused(user, "create", "", name, "use of " + KUBE_APISERVER_CLIENT + " signer with " + MASTERS
                    + " group is not allowed");
        }
    }

    /**
     * CertificateApproval on an update of the approval subresource of {@code stored}.
     *
     * @throws ApiException Kubernetes' 403
     */
    public void admitApproval(UserInfo user, CertificateSigningRequest stored) {
        String signer = signerName(stored);
        if (!mayActOn(user, "approve", signer)) {
            throw refused(user, "update", "approval", stored.getMetadata().getName(),
                    "user not permitted to approve requests with signerName \"" + signer + "\"");
        }
    }

    /**
     * CertificateSigning on an update of the status subresource of {@code stored} to {@code updated}: only when it
     * changes the certificate or the conditions.
     *
     * @throws ApiException Kubernetes' 403
     */
    public void admitStatus(UserInfo user, CertificateSigningRequest stored, CertificateSigningRequest updated) {
        CertificateSigningRequestStatus before = stored.getStatus() == null ? new CertificateSigningRequestStatus()
                : stored.getStatus();
        CertificateSigningRequestStatus after = updated.getStatus() == null ? new CertificateSigningRequestStatus()
                : updated.getStatus();
        if (Objects.equals(before.getCertificate(), after.getCertificate())
                && Objects.equals(orEmpty(before.getConditions()), orEmpty(after.getConditions()))) {
            return;
        }
        String signer = signerName(stored);
        if (!mayActOn(user, "sign", signer)) {
            throw refused(user, "update", "status", stored.getMetadata().getName(),
                    "user not permitted to sign requests with signerName \"" + signer + "\"");
        }
    }

    /** Whether {@code user} may {@code verb} the signer, by its name or by its domain's wildcard. */
    boolean mayActOn(UserInfo user, String verb, String signerName) {
        if (authorization.decide(Attributes.resource(user, verb, GROUP, "signers", "", "", signerName)).allowed()) {
            return true;
        }
        String domain = signerName.split("/", -1)[0];
        return authorization.decide(Attributes.resource(user, verb, GROUP, "signers", "", "", domain + "/*"))
                .allowed();
    }

    private static ApiException refused(UserInfo user, String verb, String subresource, String name, String why) {
        Attributes a = Attributes.resource(user, verb, GROUP, RESOURCE, subresource, "", name);
        return new ApiException(Authorization.forbidden(a, Decision.refuse(why)));
    }

    private static String signerName(CertificateSigningRequest csr) {
        return csr.getSpec() == null || csr.getSpec().getSignerName() == null ? "" : csr.getSpec().getSignerName();
    }

    private static java.util.List<?> orEmpty(java.util.List<?> list) {
        return list == null ? java.util.List.of() : list;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        ByteBuffer b = buffer.duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
