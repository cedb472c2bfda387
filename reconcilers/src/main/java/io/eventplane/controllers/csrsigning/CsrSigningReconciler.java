package io.eventplane.controllers.csrsigning;

import io.eventplane.client.ClusterView;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.client.pki.Pem;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.CertificateSigningRequestRules;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestCondition;
import io.eventplane.model.certificates.CertificateSigningRequestStatus;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * kube-controller-manager's {@code csrsigning} for the {@code kubernetes.io/kube-apiserver-client} signer: an
 * approved request gets a client certificate from the cluster CA in status.certificate (PEM), valid for what it asked
 * ({@code expirationSeconds}); one the signer may not honour gets a Failed condition. The CA is what
 * kube-controller-manager's --cluster-signing-cert-file/--cluster-signing-key-file name: {@code ca.crt} and
 * {@code ca.key} of the directory {@code EVENTPLANE_CLUSTER_SIGNING_DIR} (the data directory's {@code pki}); without
 * one the controller signs nothing.
 */
public final class CsrSigningReconciler implements Reconciler {
    public static final String SIGNING_DIR = "EVENTPLANE_CLUSTER_SIGNING_DIR";
    private static final Logger LOG = LoggerFactory.getLogger(CsrSigningReconciler.class);
    private final CertificateAuthority ca;

    /** Signs with {@code ca}; null signs nothing. */
    public CsrSigningReconciler(CertificateAuthority ca) {
        this.ca = ca;
    }

    /** The CA of {@code EVENTPLANE_CLUSTER_SIGNING_DIR}, when set and readable. */
    public static CsrSigningReconciler fromEnvironment() {
        return new CsrSigningReconciler(signingAuthority(EventplaneConfig.setting(SIGNING_DIR, "")).orElse(null));
    }

    static Optional<CertificateAuthority> signingAuthority(String dir) {
        if (dir.isEmpty()) {
            return Optional.empty();
        }
        Path d = Path.of(dir);
        try {
            return Optional.of(new CertificateAuthority(Pem.certificate(Files.readString(d.resolve("ca.crt"))),
                    Pem.privateKey(Files.readString(d.resolve("ca.key")))));
        } catch (java.io.IOException | RuntimeException e) {
            LOG.warn("no cluster signing CA in {} ({}): CertificateSigningRequests will not be signed", d, e.toString());
            return Optional.empty();
        }
    }

    @Override
    public String kind() {
        return Kinds.CERTIFICATE_SIGNING_REQUEST.kind();
    }

    @Override
    public Collection<String> keysFor(ObjectChanged change, ObjectChanged previous, ClusterView view) {
        if (ca == null || !change.getKind().equals(kind()) || change.getType() == ChangeType.DELETED) {
            return List.of();
        }
        return List.of(Keys.of(kind(), "", change.getName()));
    }

    @Override
    public Collection<String> initialKeys(ClusterView view) {
        return ca == null ? List.of() : Reconciler.super.initialKeys(view);
    }

    @Override
    public Reconciliation reconcile(String key, ClusterView view, Instant now, String lastFailure) {
        ObjectChanged current = view.get(key).orElse(null);
        if (ca == null || current == null) {
            return Reconciliation.NOTHING;
        }
        CertificateSigningRequest csr = (CertificateSigningRequest) current.getObject();
        ClientSignerDecision.Outcome outcome = ClientSignerDecision.decide(csr);
        CertificateSigningRequestStatus status = csr.getStatus() == null ? new CertificateSigningRequestStatus()
                : csr.getStatus();
        if (outcome instanceof ClientSignerDecision.Fail fail) {
            return updateStatus(csr, failed(csr, status, fail.message(), now));
        }
        if (outcome instanceof ClientSignerDecision.Sign sign) {
            X509Certificate cert;
            try {
                cert = ca.signClientRequest(sign.request(), sign.duration());
            } catch (IllegalArgumentException e) {
                return updateStatus(csr, failed(csr, status, e.getMessage(), now));
            }
            ByteBuffer pem = ByteBuffer.wrap(Pem.encode(cert).getBytes(StandardCharsets.UTF_8));
            return updateStatus(csr, CertificateSigningRequestStatus.newBuilder(status).setCertificate(pem).build());
        }
        return Reconciliation.NOTHING;
    }

    private static CertificateSigningRequestStatus failed(CertificateSigningRequest csr,
                                                          CertificateSigningRequestStatus status, String message,
                                                          Instant now) {
        List<CertificateSigningRequestCondition> conditions =
                new ArrayList<>(CertificateSigningRequestRules.conditionsOf(csr));
        conditions.add(CertificateSigningRequestCondition.newBuilder().setType(CertificateSigningRequestRules.FAILED)
                .setStatus("True").setReason("SignerValidationFailure").setMessage(message)
                .setLastUpdateTime(now).setLastTransitionTime(now).build());
        return CertificateSigningRequestStatus.newBuilder(status).setConditions(conditions).build();
    }

    private static Reconciliation updateStatus(CertificateSigningRequest csr, CertificateSigningRequestStatus status) {
        return Reconciliation.of(List.of(new Action.UpdateStatus(
                CertificateSigningRequest.newBuilder(csr).setStatus(status).build())));
    }
}
