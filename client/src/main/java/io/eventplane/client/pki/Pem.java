package io.eventplane.client.pki;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;

/** PEM text of certificates, keys and certificate signing requests, as kubeconfigs and kubectl carry them. */
public final class Pem {
    private static final JcaPEMKeyConverter KEYS = new JcaPEMKeyConverter();

    private Pem() {
    }

    public static String encode(Object certificateOrKey) {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            if (certificateOrKey instanceof PrivateKey key) {
                // PKCS#8 ("PRIVATE KEY") keeps an EC key's curve with it; Go and the JDK both read it
                w.writeObject(new org.bouncycastle.openssl.jcajce.JcaPKCS8Generator(key, null));
            } else {
                w.writeObject(certificateOrKey);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** The certificates of a PEM bundle, in order. */
    public static List<X509Certificate> certificates(String pem) {
        try {
            CertificateFactory f = CertificateFactory.getInstance("X.509");
            List<X509Certificate> out = new ArrayList<>();
            for (var c : f.generateCertificates(new ByteArrayInputStream(pem.getBytes(java.nio.charset.StandardCharsets.US_ASCII)))) {
                out.add((X509Certificate) c);
            }
            return out;
        } catch (CertificateException e) {
            throw new IllegalArgumentException("not a PEM certificate: " + e.getMessage(), e);
        }
    }

    public static X509Certificate certificate(String pem) {
        List<X509Certificate> all = certificates(pem);
        if (all.isEmpty()) {
            throw new IllegalArgumentException("no certificate in the PEM data");
        }
        return all.get(0);
    }

    /** A private key in PKCS#8, PKCS#1 (RSA) or SEC1 (EC) PEM form. */
    public static PrivateKey privateKey(String pem) {
        Object o = read(pem);
        try {
            if (o instanceof PEMKeyPair pair) {
                return KEYS.getPrivateKey(pair.getPrivateKeyInfo());
            }
            if (o instanceof PrivateKeyInfo info) {
                return KEYS.getPrivateKey(info);
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a private key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no private key in the PEM data");
    }

    public static PublicKey publicKey(String pem) {
        Object o = read(pem);
        try {
            if (o instanceof SubjectPublicKeyInfo info) {
                return KEYS.getPublicKey(info);
            }
            if (o instanceof PEMKeyPair pair) {
                return KEYS.getPublicKey(pair.getPublicKeyInfo());
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("not a public key: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException("no public key in the PEM data");
    }

    public static KeyPair keyPair(String privatePem, String publicPem) {
        return new KeyPair(publicKey(publicPem), privateKey(privatePem));
    }

    /** A PKCS#10 certificate signing request ({@code CERTIFICATE REQUEST}). */
    public static PKCS10CertificationRequest certificateRequest(String pem) {
        Object o = read(pem);
        if (o instanceof PKCS10CertificationRequest csr) {
            return csr;
        }
        throw new IllegalArgumentException("PEM block type must be CERTIFICATE REQUEST");
    }

    private static Object read(String pem) {
        try (PEMParser p = new PEMParser(new StringReader(pem))) {
            return p.readObject();
        } catch (IOException e) {
            throw new IllegalArgumentException("not PEM data: " + e.getMessage(), e);
        }
    }
}
