package io.eventplane.controllers.csrsigning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.eventplane.client.pki.CertificateAuthority;
import io.eventplane.core.meta.CertificateRequests;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.certificates.CertificateSigningRequest;
import io.eventplane.model.certificates.CertificateSigningRequestCondition;
import io.eventplane.model.certificates.CertificateSigningRequestSpec;
import io.eventplane.model.certificates.CertificateSigningRequestStatus;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What the simulated kube-apiserver-client signer does with a request (issue 26 item 4). */
class ClientSignerDecisionTest {
    private static final String PEM = CertificateRequests.create(CertificateAuthority.newKeyPair(), "jane",
            List.of("devs"));

    private static CertificateSigningRequest csr(String signer, List<String> usages, Integer seconds,
                                                 String... conditions) {
        List<CertificateSigningRequestCondition> list = java.util.Arrays.stream(conditions).map(t ->
                CertificateSigningRequestCondition.newBuilder().setType(t).setStatus("True").build()).toList();
        return CertificateSigningRequest.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName("jane").build())
                .setSpec(CertificateSigningRequestSpec.newBuilder().setSignerName(signer).setUsages(usages)
                        .setExpirationSeconds(seconds)
                        .setRequest(ByteBuffer.wrap(PEM.getBytes(StandardCharsets.UTF_8))).build())
                .setStatus(CertificateSigningRequestStatus.newBuilder().setConditions(list).build())
                .build();
    }

    @Test
    @DisplayName("issue 26: only approved kube-apiserver-client requests without a certificate are signed")
    void signsApprovedOnly() {
        String client = ClientSignerDecision.SIGNER;
        List<String> usages = List.of("client auth", "digital signature");
        assertInstanceOf(ClientSignerDecision.Skip.class, ClientSignerDecision.decide(csr(client, usages, null)));
        assertInstanceOf(ClientSignerDecision.Skip.class, ClientSignerDecision.decide(csr(client, usages, null, "Denied")));
        assertInstanceOf(ClientSignerDecision.Skip.class,
                ClientSignerDecision.decide(csr("example.com/other", usages, null, "Approved")));
        assertInstanceOf(ClientSignerDecision.Skip.class,
                ClientSignerDecision.decide(csr(client, usages, null, "Approved", "Failed")));
        ClientSignerDecision.Sign sign = assertInstanceOf(ClientSignerDecision.Sign.class,
                ClientSignerDecision.decide(csr(client, usages, 3600, "Approved")));
        assertEquals(Duration.ofHours(1), sign.duration(), "expirationSeconds is honoured");
        sign = assertInstanceOf(ClientSignerDecision.Sign.class,
                ClientSignerDecision.decide(csr(client, usages, null, "Approved")));
        assertEquals(ClientSignerDecision.MAX_DURATION, sign.duration());
    }

    @Test
    @DisplayName("issue 26: a request the client signer may not honour fails (server usages)")
    void failsServerUsages() {
        ClientSignerDecision.Fail fail = assertInstanceOf(ClientSignerDecision.Fail.class, ClientSignerDecision.decide(
                csr(ClientSignerDecision.SIGNER, List.of("server auth"), null, "Approved")));
        assertEquals("invalid usage for client certificate: missing \"client auth\"", fail.message());
    }

    @Test
    @DisplayName("issue 26: the certificate is the cluster CA's, for the request's CN and O, valid for expirationSeconds")
    void certificateFromTheCa() {
        CertificateAuthority ca = CertificateAuthority.create("test-ca");
        ClientSignerDecision.Sign sign = (ClientSignerDecision.Sign) ClientSignerDecision.decide(
                csr(ClientSignerDecision.SIGNER, List.of("client auth"), 7200, "Approved"));
        X509Certificate cert = ca.signClientRequest(sign.request(), sign.duration());
        assertEquals(new CertificateAuthority.Subject("jane", List.of("devs")), CertificateAuthority.Subject.of(cert));
        assertEquals(true, ca.issued(cert));
        long validFor = cert.getNotAfter().getTime() - System.currentTimeMillis();
        assertEquals(true, validFor <= Duration.ofHours(2).toMillis() && validFor > Duration.ofMinutes(110).toMillis(),
                "valid for about two hours: " + validFor);
    }
}
