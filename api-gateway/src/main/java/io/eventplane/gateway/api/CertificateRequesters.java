package io.eventplane.gateway.api;

import io.eventplane.gateway.auth.UserInfo;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestSpec;
import java.util.List;
import java.util.Map;

/**
 * Who asked for a certificate: a new CertificateSigningRequest's spec.username, uid, groups and extra are the
 * authenticated (or impersonated) user's, whatever the client sent, as kube-apiserver's PrepareForCreate sets them.
 * Approvers and signers decide on them, so only the API may write them.
 */
final class CertificateRequesters {
    private CertificateRequesters() {
    }

    static CertificateSigningRequest stamp(CertificateSigningRequest csr, UserInfo user) {
        CertificateSigningRequestSpec spec = csr.getSpec() == null ? new CertificateSigningRequestSpec() : csr.getSpec();
        Map<String, List<String>> extra = user.extra().isEmpty() ? null : user.extra();
        return CertificateSigningRequest.newBuilder(csr).setSpec(CertificateSigningRequestSpec.newBuilder(spec)
                .setUsername(user.name()).setUid(user.uid().isEmpty() ? null : user.uid())
                .setGroups(user.groups().isEmpty() ? null : user.groups()).setExtra(extra).build()).build();
    }
}
