package io.eventplane.controllers.csrsigning;

import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.core.decide.CertificateSigningRequestRules;
import io.eventplane.core.meta.CertificateRequests;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestCondition;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.bouncycastle.asn1.pkcs.Attribute;
import org.bouncycastle.asn1.pkcs.PKCSObjectIdentifiers;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.Extensions;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/**
 * What kube-controller-manager's csrsigning controller does with one request for the
 * {@code kubernetes.io/kube-apiserver-client} signer: nothing until it is approved (and never once denied, failed or
 * issued); a request the signer may not honour fails (Failed, SignerValidationFailure); otherwise it is signed for
 * the duration asked ({@code expirationSeconds}) capped at the cluster signing duration. Pure.
 */
public final class ClientSignerDecision {
    public static final String SIGNER = "kubernetes.io/kube-apiserver-client";
    /** kube-controller-manager's --cluster-signing-duration default. */
    public static final Duration MAX_DURATION = Duration.ofDays(365);
    private static final Set<String> ALLOWED_USAGES = Set.of("digital signature", "key encipherment", "client auth");

    /** Leave the request alone, fail it with a message, or sign it for a duration. */
    public sealed interface Outcome {
    }

    public record Skip() implements Outcome {
    }

    public record Fail(String message) implements Outcome {
    }

    public record Sign(PKCS10CertificationRequest request, Duration duration) implements Outcome {
    }

    private ClientSignerDecision() {
    }

    public static Outcome decide(CertificateSigningRequest csr) {
        if (csr.getSpec() == null || !SIGNER.equals(csr.getSpec().getSignerName())
                || csr.getMetadata().getDeletionTimestamp() != null) {
            return new Skip();
        }
        List<CertificateSigningRequestCondition> conditions = CertificateSigningRequestRules.conditionsOf(csr);
        boolean approved = has(conditions, CertificateSigningRequestRules.APPROVED);
        if (!approved || has(conditions, CertificateSigningRequestRules.DENIED)
                || has(conditions, CertificateSigningRequestRules.FAILED)
                || CertificateSigningRequestRules.certificateOf(csr).length > 0) {
            return new Skip();
        }
        PKCS10CertificationRequest request;
        try {
            request = CertificateRequests.parse(CertificateSigningRequestRules.bytes(csr.getSpec().getRequest()));
        } catch (IllegalArgumentException e) {
            return new Fail("unable to parse csr \"" + csr.getMetadata().getName() + "\": " + e.getMessage());
        }
        String problem = clientProblem(request, csr.getSpec().getUsages());
        if (problem != null) {
            return new Fail(problem);
        }
        Duration duration = MAX_DURATION;
        if (csr.getSpec().getExpirationSeconds() != null) {
            Duration asked = Duration.ofSeconds(csr.getSpec().getExpirationSeconds());
            duration = asked.compareTo(MAX_DURATION) < 0 ? asked : MAX_DURATION;
        }
        return new Sign(request, duration);
    }

    /** The kube-apiserver-client signer's checks: client usages only (client auth among them), no SANs. */
    static String clientProblem(PKCS10CertificationRequest request, List<String> usages) {
        List<String> u = usages == null ? List.of() : usages;
        if (!u.contains("client auth")) {
            return "invalid usage for client certificate: missing \"client auth\"";
        }
        for (String usage : u) {
            if (!ALLOWED_USAGES.contains(usage)) {
                return "invalid usage for client certificate: " + usage;
            }
        }
        if (CertificateAuthority.Subject.of(request.getSubject()).commonName().isEmpty()) {
            return "subject common name must not be empty";
        }
        for (Attribute a : request.getAttributes(PKCSObjectIdentifiers.pkcs_9_at_extensionRequest)) {
            Extensions extensions = Extensions.getInstance(a.getAttrValues().getObjectAt(0));
            if (extensions.getExtension(Extension.subjectAlternativeName) != null) {
                return "DNS, IP, email and URI subjectAltNames are not allowed";
            }
        }
        return null;
    }

    private static boolean has(List<CertificateSigningRequestCondition> conditions, String type) {
        return conditions.stream().anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
