package io.eventplane.client.pki;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * A cluster's keys and certificates in one directory, as kubeadm lays out {@code /etc/kubernetes/pki}: the CA
 * ({@code ca.crt}, {@code ca.key}), the API's serving certificate ({@code apiserver.crt}, {@code apiserver.key}), the
 * service account signing key ({@code sa.key}, {@code sa.pub}) and an admin client certificate in
 * {@code system:masters} ({@code admin.crt}, {@code admin.key}). Made once, read again on every start.
 */
public final class ClusterPki {
    /** Kubernetes' names for the API server, always in its serving certificate. */
    public static final List<String> API_DNS_NAMES = List.of("localhost", "kubernetes", "kubernetes.default",
            "kubernetes.default.svc", "kubernetes.default.svc.cluster.local");
    public static final String ADMIN_USER = "kubernetes-admin";
    private static final Duration ISSUED_VALIDITY = Duration.ofDays(365);

    private final Path dir;
    private final CertificateAuthority ca;
    private final CertificateAuthority.Credential serving;
    private final CertificateAuthority.Credential admin;
    private final KeyPair serviceAccountKey;

    private ClusterPki(Path dir, CertificateAuthority ca, CertificateAuthority.Credential serving,
                       CertificateAuthority.Credential admin, KeyPair serviceAccountKey) {
        this.dir = dir;
        this.ca = ca;
        this.serving = serving;
        this.admin = admin;
        this.serviceAccountKey = serviceAccountKey;
    }

    /**
     * Reads the directory, creating what is missing; the serving certificate names {@code extraNames} (host names or
     * IP addresses) besides localhost, 127.0.0.1, ::1 and Kubernetes' own names.
     */
    public static ClusterPki loadOrCreate(Path dir, List<String> extraNames) {
        try {
            Files.createDirectories(dir);
            CertificateAuthority ca;
            if (Files.exists(dir.resolve("ca.crt")) && Files.exists(dir.resolve("ca.key"))) {
                ca = new CertificateAuthority(Pem.certificate(read(dir, "ca.crt")), Pem.privateKey(read(dir, "ca.key")));
            } else {
                ca = CertificateAuthority.create("eventplane-ca");
                write(dir, "ca.key", Pem.encode(ca.key()));
                write(dir, "ca.crt", Pem.encode(ca.certificate()));
            }
            CertificateAuthority.Credential serving = credential(dir, "apiserver", () -> {
                List<String> dns = new ArrayList<>(API_DNS_NAMES);
                LinkedHashSet<String> ips = new LinkedHashSet<>(List.of("127.0.0.1", "::1"));
                for (String n : extraNames) {
                    if (n == null || n.isBlank() || n.equals("0.0.0.0") || n.equals("::")) {
                        continue;
                    }
                    (looksLikeIp(n) ? ips : dns).add(n);
                }
                KeyPair pair = CertificateAuthority.newKeyPair();
                return new CertificateAuthority.Credential(ca.issue(pair.getPublic(), "kube-apiserver", List.of(),
                        CertificateAuthority.Usage.SERVER, ISSUED_VALIDITY, List.copyOf(new LinkedHashSet<>(dns)),
                        List.copyOf(ips)), pair.getPrivate());
            });
            CertificateAuthority.Credential admin = credential(dir, "admin",
                    () -> ca.issueClient(ADMIN_USER, List.of("system:masters"), ISSUED_VALIDITY));
            KeyPair sa;
            if (Files.exists(dir.resolve("sa.key")) && Files.exists(dir.resolve("sa.pub"))) {
                sa = Pem.keyPair(read(dir, "sa.key"), read(dir, "sa.pub"));
            } else {
                KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
                g.initialize(2048);
                sa = g.generateKeyPair();
                write(dir, "sa.key", Pem.encode(sa.getPrivate()));
                write(dir, "sa.pub", Pem.encode(sa.getPublic()));
            }
            return new ClusterPki(dir, ca, serving, admin, sa);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the cluster's certificates in " + dir, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot prepare the cluster's keys: " + e, e);
        }
    }

    public Path directory() {
        return dir;
    }

    public CertificateAuthority ca() {
        return ca;
    }

    public CertificateAuthority.Credential serving() {
        return serving;
    }

    /** A client certificate of {@code kubernetes-admin} in {@code system:masters}: what {@code eventplane up}'s kubeconfig uses. */
    public CertificateAuthority.Credential admin() {
        return admin;
    }

    public KeyPair serviceAccountKey() {
        return serviceAccountKey;
    }

    public String caPem() {
        return Pem.encode(ca.certificate());
    }

    /** The serving certificate and key as a PKCS#12 key store file (what the HTTP server reads). */
    public Path servingKeyStore(String password) {
        return store(dir.resolve("apiserver.p12"), password, ks -> ks.setKeyEntry("apiserver", serving.key(),
                password.toCharArray(), new Certificate[] {serving.certificate(), ca.certificate()}));
    }

    /** The CA as a PKCS#12 trust store file: client certificates must chain to it. */
    public Path caTrustStore(String password) {
        return store(dir.resolve("ca-trust.p12"), password, ks -> ks.setCertificateEntry("ca", ca.certificate()));
    }

    private interface StoreFiller {
        void fill(KeyStore ks) throws GeneralSecurityException;
    }

    private static Path store(Path file, String password, StoreFiller filler) {
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            filler.fill(ks);
            try (OutputStream out = Files.newOutputStream(file)) {
                ks.store(out, password.toCharArray());
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private interface Issuer {
        CertificateAuthority.Credential issue();
    }

    private static CertificateAuthority.Credential credential(Path dir, String name, Issuer issuer) throws IOException {
        Path crt = dir.resolve(name + ".crt");
        Path key = dir.resolve(name + ".key");
        if (Files.exists(crt) && Files.exists(key)) {
            X509Certificate c = Pem.certificate(Files.readString(crt));
            if (c.getNotAfter().toInstant().isAfter(java.time.Instant.now().plus(Duration.ofDays(1)))) {
                return new CertificateAuthority.Credential(c, Pem.privateKey(Files.readString(key)));
            }
        }
        CertificateAuthority.Credential made = issuer.issue();
        write(dir, name + ".key", Pem.encode(made.key()));
        write(dir, name + ".crt", Pem.encode(made.certificate()));
        return made;
    }

    private static boolean looksLikeIp(String n) {
        return n.contains(":") || n.matches("[0-9.]+");
    }

    private static String read(Path dir, String name) throws IOException {
        return Files.readString(dir.resolve(name));
    }

    private static void write(Path dir, String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        if (name.endsWith(".key")) {
            try {
                Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: the directory's own protection is all there is
            }
        }
    }
}
