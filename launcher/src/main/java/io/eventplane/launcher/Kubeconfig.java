package io.eventplane.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * A kubeconfig for the local cluster: the server, the cluster CA ({@code certificate-authority-data}) and a client
 * credential (a client certificate and key, or a bearer token); or plain HTTP without credentials
 * ({@code --insecure-http}).
 */
public final class Kubeconfig {
    private Kubeconfig() {
    }

    /** What a kubeconfig's user presents. */
    public record Credential(String clientCertificatePem, String clientKeyPem, String token) {
        public static Credential certificate(String certPem, String keyPem) {
            return new Credential(certPem, keyPem, null);
        }

        public static Credential token(String token) {
            return new Credential(null, null, token);
        }

        public static Credential none() {
            return new Credential(null, null, null);
        }
    }

    static void write(Path file, String serverUrl) throws IOException {
        write(file, serverUrl, null, Credential.none(), "eventplane-admin");
    }

    /**
     * @param caPem the CA that signed the server's certificate, or null (plain HTTP)
     */
    public static void write(Path file, String serverUrl, String caPem, Credential user, String userName)
            throws IOException {
        StringBuilder cluster = new StringBuilder("    server: " + serverUrl + "\n");
        if (caPem != null) {
            cluster.append("    certificate-authority-data: ").append(b64(caPem)).append('\n');
        }
        StringBuilder u = new StringBuilder();
        if (user.clientCertificatePem() != null) {
            u.append("    client-certificate-data: ").append(b64(user.clientCertificatePem())).append('\n');
            u.append("    client-key-data: ").append(b64(user.clientKeyPem())).append('\n');
        }
        if (user.token() != null) {
            u.append("    token: ").append(user.token()).append('\n');
        }
        String yaml = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: eventplane
                  cluster:
                %susers:
                - name: %s
                  user:%s
                contexts:
                - name: eventplane
                  context:
                    cluster: eventplane
                    user: %s
                    namespace: default
                current-context: eventplane
                """.formatted(cluster, userName, u.length() == 0 ? " {}\n" : "\n" + u, userName);
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, yaml.replace("\n\n", "\n"));
    }

    private static String b64(String pem) {
        return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
    }

    /** The server URL of a kubeconfig written by {@link #write}, or null when there is none. */
    static String server(Path file) throws IOException {
        return field(file, "server:");
    }

    /** A field of a kubeconfig written by {@link #write} (first occurrence), base64-decoded when it is {@code *-data}. */
    static String field(Path file, String name) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        for (String line : Files.readAllLines(file)) {
            String t = line.trim();
            if (t.startsWith(name)) {
                String v = t.substring(name.length()).trim();
                return name.endsWith("-data:") ? new String(Base64.getDecoder().decode(v), StandardCharsets.US_ASCII) : v;
            }
        }
        return null;
    }
}
