package io.eventplane.core.meta;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemReader;

/**
 * A CertificateSigningRequest's {@code spec.request}: the first PEM block must be a CERTIFICATE REQUEST holding a
 * PKCS#10 request whose signature verifies (Kubernetes' ParseCSR and CheckSignature); errors read as Go's.
 */
public final class CertificateRequests {
    private CertificateRequests() {
    }

    /** The parsed, signature-checked request; IllegalArgumentException with Kubernetes' message otherwise. */
    public static PKCS10CertificationRequest parse(byte[] pem) {
        PemObject block = firstBlock(pem, "CERTIFICATE REQUEST");
        if (block == null) {
            throw new IllegalArgumentException("PEM block type must be CERTIFICATE REQUEST");
        }
        PKCS10CertificationRequest request;
        try {
            request = new PKCS10CertificationRequest(block.getContent());
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("asn1: structure error: " + e.getMessage());
        }
        try {
            JcaPKCS10CertificationRequest jca = new JcaPKCS10CertificationRequest(request);
            if (!request.isSignatureValid(new JcaContentVerifierProviderBuilder().build(jca.getPublicKey()))) {
                throw new IllegalArgumentException("x509: signature verification failure");
            }
        } catch (OperatorCreationException | PKCSException | java.security.GeneralSecurityException
                 | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IllegalArgumentException("x509: cannot verify signature: " + e.getMessage());
        }
        return request;
    }

    /**
     * A PEM CERTIFICATE REQUEST for CN={@code commonName}, O={@code organizations}, signed by {@code key} (what
     * {@code openssl req -new -subj "/O=.../CN=..."} writes): for clients and tests that ask for a certificate.
     */
    public static String create(java.security.KeyPair key, String commonName, List<String> organizations) {
        X500NameBuilder subject = new X500NameBuilder(BCStyle.INSTANCE);
        organizations.forEach(o -> subject.addRDN(BCStyle.O, o));
        subject.addRDN(BCStyle.CN, commonName);
        String algorithm = key.getPrivate().getAlgorithm().equals("EC") ? "SHA256withECDSA" : "SHA256withRSA";
        try {
            byte[] der = new org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder(
                    subject.build(), key.getPublic())
                    .build(new org.bouncycastle.operator.jcajce.JcaContentSignerBuilder(algorithm).build(key.getPrivate()))
                    .getEncoded();
            java.io.StringWriter out = new java.io.StringWriter();
            try (org.bouncycastle.util.io.pem.PemWriter w = new org.bouncycastle.util.io.pem.PemWriter(out)) {
                w.writeObject(new PemObject("CERTIFICATE REQUEST", der));
            }
            return out.toString();
        } catch (OperatorCreationException | IOException e) {
            throw new IllegalStateException("cannot write a certificate request: " + e.getMessage(), e);
        }
    }

    /**
     * Whether {@code pem} is one or more CERTIFICATE blocks (what status.certificate may hold); the Go message of the
     * first problem, or null when it is fine (or empty).
     */
    public static String certificateProblem(byte[] pem) {
        if (pem == null || pem.length == 0) {
            return null;
        }
        int blocks = 0;
        try (PemReader reader = new PemReader(new StringReader(new String(pem, StandardCharsets.UTF_8)))) {
            for (PemObject block = reader.readPemObject(); block != null; block = reader.readPemObject()) {
                if (!block.getType().equals("CERTIFICATE")) {
                    return "only CERTIFICATE PEM blocks are allowed, found \"" + block.getType() + "\"";
                }
                if (!block.getHeaders().isEmpty()) {
                    return "no PEM block headers are permitted";
                }
                try {
                    java.security.cert.CertificateFactory.getInstance("X.509")
                            .generateCertificate(new java.io.ByteArrayInputStream(block.getContent()));
                } catch (java.security.cert.CertificateException e) {
                    return "x509: malformed certificate";
                }
                blocks++;
            }
        } catch (IOException e) {
            return "x509: malformed certificate";
        }
        return blocks == 0 ? "must contain at least one CERTIFICATE PEM block" : null;
    }

    private static PemObject firstBlock(byte[] pem, String type) {
        if (pem == null) {
            return null;
        }
        try (PemReader reader = new PemReader(new StringReader(new String(pem, StandardCharsets.UTF_8)))) {
            PemObject block = reader.readPemObject();
            return block != null && block.getType().equals(type) ? block : null;
        } catch (IOException e) {
            return null;
        }
    }
}
