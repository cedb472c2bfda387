package io.eventplane.client.pki;

import io.eventplane.core.decide.NodeRestriction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The credentials services send with the commands they write to Kafka directly (the scheduler, controllers,
 * node-sim), so that the identity a command's envelope names is not merely asserted by whoever could produce to the
 * command topic. A credential is {@code <hex HMAC-SHA256(cluster secret, identity)>:<identity>}, carried in the
 * record header {@value #HEADER}: the writer, which holds the cluster secret, believes a command's actor only when its
 * credential is valid and covers that actor ({@link #covers}); a service holds only its own credential, so it cannot
 * mint another's. Credentials are bearer tokens (like ServiceAccount tokens): only the writer reads the command topic.
 */
public final class CommandCredentials {
    /** The Kafka record header a command's credential travels in. */
    public static final String HEADER = "ep-credential";
    /** The gateway: it stamps the users it authenticated, as kube-apiserver acts for them towards etcd. */
    public static final String APISERVER = "system:apiserver";
    /** node-sim: runs many nodes, so it may act as any {@code system:node:<name>} (and as itself). */
    public static final String NODE_SIM = "system:serviceaccount:kube-system:node-sim";
    private static final HexFormat HEX = HexFormat.of();
    private static final int SECRET_BYTES = 32;

    private final byte[] secret;
    private final Map<String, Optional<String>> verified = new ConcurrentHashMap<>();
    private final Map<String, String> issued = new ConcurrentHashMap<>();

    private CommandCredentials(byte[] secret) {
        this.secret = secret.clone();
    }

    public static CommandCredentials of(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("a command credential secret has at least 16 bytes");
        }
        return new CommandCredentials(secret);
    }

    /** The cluster's secret in {@code file} (hex), made (owner-only) when missing: {@code eventplane up}'s pki. */
    public static CommandCredentials loadOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                byte[] fresh = new byte[SECRET_BYTES];
                new SecureRandom().nextBytes(fresh);
                Files.createDirectories(file.toAbsolutePath().getParent());
                Files.writeString(file, HEX.formatHex(fresh) + "\n", StandardCharsets.US_ASCII);
                try {
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: its default permissions
                }
            }
            return read(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write the command credential secret " + file, e);
        }
    }

    public static CommandCredentials read(Path file) {
        try {
            return of(HEX.parseHex(Files.readString(file, StandardCharsets.US_ASCII).trim()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the command credential secret " + file, e);
        }
    }

    /** The credential of {@code identity}. */
    public String issue(String identity) {
        return issued.computeIfAbsent(identity, id -> HEX.formatHex(mac(id)) + ":" + id);
    }

    /** The identity a credential proves, or empty (malformed, or not made with this cluster's secret). */
    public Optional<String> verify(String credential) {
        if (credential == null) {
            return Optional.empty();
        }
        Optional<String> known = verified.get(credential);
        if (known != null) {
            return known;
        }
        Optional<String> subject = check(credential);
        if (verified.size() < 100_000) { // a flood of forged credentials must not grow the cache without end
            verified.put(credential, subject);
        }
        return subject;
    }

    private Optional<String> check(String credential) {
        int colon = credential.indexOf(':');
        if (colon != 64) {
            return Optional.empty();
        }
        String identity = credential.substring(colon + 1);
        byte[] given;
        try {
            given = HEX.parseHex(credential, 0, colon);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return identity.isEmpty() || !MessageDigest.isEqual(given, mac(identity)) ? Optional.empty()
                : Optional.of(identity);
    }

    /**
     * Whether a credential of {@code subject} may send a command whose envelope names {@code actor} in
     * {@code groups}: its own identity; the gateway any user it authenticated; node-sim any node.
     */
    public static boolean covers(String subject, String actor, List<String> groups) {
        return subject.equals(actor) || subject.equals(APISERVER)
                || subject.equals(NODE_SIM) && NodeRestriction.nodeName(actor, groups) != null;
    }

    private byte[] mac(String identity) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret, "HmacSHA256"));
            return mac.doFinal(identity.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
