package io.eventplane.client.pki;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.operator.jcajce.JcaContentVerifierProviderBuilder;
import org.bouncycastle.pkcs.PKCS10CertificationRequest;
import org.bouncycastle.pkcs.PKCSException;
import org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequest;

/**
 * The cluster's certificate authority: it issues the API's serving certificate, client certificates (CN = user,
 * O = groups, as Kubernetes reads them) and the certificates of approved CertificateSigningRequests.
 */
public record CertificateAuthority(X509Certificate certificate, PrivateKey key) {
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Allowance for clocks that run a little behind (kubeadm back-dates by five minutes too). */
    private static final Duration BACKDATE = Duration.ofMinutes(5);

    /** What an issued certificate is for. */
    public enum Usage { SERVER, CLIENT }

    /** A new self-signed CA, valid ten years. */
    public static CertificateAuthority create(String commonName) {
        KeyPair pair = newKeyPair();
        X500Name name = name(commonName, List.of());
        Instant now = Instant.now();
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(), Date.from(now.minus(BACKDATE)),
                    Date.from(now.plus(Duration.ofDays(3650))), name, pair.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(Extension.keyUsage, true,
                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
            return new CertificateAuthority(sign(b, pair.getPrivate()), pair.getPrivate());
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot create the cluster CA: " + e, e);
        }
    }

    /** A certificate for {@code publicKey}: subject CN = {@code commonName}, O = each of {@code organizations}. */
    public X509Certificate issue(PublicKey publicKey, String commonName, List<String> organizations, Usage usage,
                                 Duration validity, List<String> dnsNames, List<String> ipAddresses) {
        Instant now = Instant.now();
        try {
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate, serial(),
                    Date.from(now.minus(BACKDATE)), Date.from(now.plus(validity)), name(commonName, organizations),
                    publicKey);
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(
                    usage == Usage.SERVER ? KeyPurposeId.id_kp_serverAuth : KeyPurposeId.id_kp_clientAuth));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            List<GeneralName> sans = new ArrayList<>();
            dnsNames.forEach(d -> sans.add(new GeneralName(GeneralName.dNSName, d)));
            ipAddresses.forEach(ip -> sans.add(new GeneralName(GeneralName.iPAddress, ip)));
            if (!sans.isEmpty()) {
                b.addExtension(Extension.subjectAlternativeName, false,
                        new GeneralNames(sans.toArray(GeneralName[]::new)));
            }
            return sign(b, key);
        } catch (GeneralSecurityException | java.io.IOException e) {
            throw new IllegalStateException("cannot issue a certificate for " + commonName + ": " + e, e);
        }
    }

    /** A new key pair and a client certificate for it: what a kubeconfig's user carries. */
    public Credential issueClient(String user, List<String> groups, Duration validity) {
        KeyPair pair = newKeyPair();
        return new Credential(issue(pair.getPublic(), user, groups, Usage.CLIENT, validity, List.of(), List.of()),
                pair.getPrivate());
    }

    /**
     * Signs a PKCS#10 request as a client certificate, taking its subject's CN and O as they are (the
     * kubernetes.io/kube-apiserver-client signer); the request's own signature must verify.
     */
    public X509Certificate signClientRequest(PKCS10CertificationRequest request, Duration validity) {
        try {
            JcaPKCS10CertificationRequest csr = new JcaPKCS10CertificationRequest(request);
            if (!csr.isSignatureValid(new JcaContentVerifierProviderBuilder().build(csr.getPublicKey()))) {
                throw new IllegalArgumentException("the request's signature does not verify");
            }
            Subject s = Subject.of(request.getSubject());
            return issue(csr.getPublicKey(), s.commonName(), s.organizations(), Usage.CLIENT, validity, List.of(),
                    List.of());
        } catch (GeneralSecurityException | OperatorCreationException | PKCSException e) {
            throw new IllegalArgumentException("cannot sign the request: " + e.getMessage(), e);
        }
    }

    /** Whether {@code cert} was signed by this CA and is valid now. */
    public boolean issued(X509Certificate cert) {
        try {
            cert.verify(certificate.getPublicKey());
            cert.checkValidity();
            return true;
        } catch (GeneralSecurityException e) {
            return false;
        }
    }

    /** A certificate and its private key. */
    public record Credential(X509Certificate certificate, PrivateKey key) {
        public String certificatePem() {
            return Pem.encode(certificate);
        }

        public String keyPem() {
            return Pem.encode(key);
        }
    }

    /** The parts of a subject Kubernetes reads: CN as the user, each O as a group. */
    public record Subject(String commonName, List<String> organizations) {
        public static Subject of(X500Name name) {
            String cn = "";
            var cns = name.getRDNs(BCStyle.CN);
            if (cns.length > 0) {
                cn = cns[0].getFirst().getValue().toString();
            }
            List<String> orgs = new ArrayList<>();
            for (var rdn : name.getRDNs(BCStyle.O)) {
                orgs.add(rdn.getFirst().getValue().toString());
            }
            return new Subject(cn, orgs);
        }

        public static Subject of(X509Certificate cert) {
            return of(X500Name.getInstance(cert.getSubjectX500Principal().getEncoded()));
        }
    }

    /** An EC P-256 key pair: quick to make, and Go's TLS and kubectl accept it. */
    public static KeyPair newKeyPair() {
        try {
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
            return g.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static X500Name name(String commonName, List<String> organizations) {
        X500NameBuilder n = new X500NameBuilder(BCStyle.INSTANCE);
        organizations.forEach(o -> n.addRDN(BCStyle.O, o));
        n.addRDN(BCStyle.CN, commonName);
        return n.build();
    }

    private static BigInteger serial() {
        return new BigInteger(127, RANDOM);
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer) throws GeneralSecurityException {
        try {
            String alg = signer.getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder(alg).build(signer)));
        } catch (OperatorCreationException e) {
            throw new GeneralSecurityException(e);
        }
    }
}
