package io.eventplane.client.pki;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CertificateAuthorityTest {

    @Test
    @DisplayName("issue 23: the cluster PKI is made once and read back; client certificates carry CN = user, O = groups")
    void pkiRoundTrip(@TempDir Path dir) {
        ClusterPki first = ClusterPki.loadOrCreate(dir, List.of("10.0.0.5", "api.example"));
        ClusterPki again = ClusterPki.loadOrCreate(dir, List.of());
        assertEquals(first.ca().certificate(), again.ca().certificate());
        assertEquals(first.admin().certificate(), again.admin().certificate());
        assertTrue(first.ca().issued(first.serving().certificate()));
        CertificateAuthority.Subject admin = CertificateAuthority.Subject.of(first.admin().certificate());
        assertEquals(new CertificateAuthority.Subject("kubernetes-admin", List.of("system:masters")), admin);
        assertFalse(CertificateAuthority.create("other").issued(first.admin().certificate()));
    }

    @Test
    @DisplayName("issue 26: a PKCS#10 request is signed as a client certificate with its subject's CN and O")
    void signsRequests() throws Exception {
        CertificateAuthority ca = CertificateAuthority.create("ca");
        KeyPair pair = CertificateAuthority.newKeyPair();
        var csr = new JcaPKCS10CertificationRequestBuilder(new X500Name("O=devs,CN=jane"), pair.getPublic())
                .build(new JcaContentSignerBuilder("SHA256withECDSA").build(pair.getPrivate()));
        X509Certificate cert = ca.signClientRequest(Pem.certificateRequest(Pem.encode(csr)), Duration.ofHours(1));
        assertTrue(ca.issued(cert));
        assertEquals(new CertificateAuthority.Subject("jane", List.of("devs")), CertificateAuthority.Subject.of(cert));
    }
}
