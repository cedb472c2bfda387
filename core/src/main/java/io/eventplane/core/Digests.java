package io.eventplane.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.UUID;

/**
 * The hashes computed on hot paths (a created object's uid, a simulated container's and image's ids, an Event's
 * aggregation key), with one {@link MessageDigest} per thread: finding an algorithm among the security providers
 * ({@code MessageDigest.getInstance}) costs more than hashing a short string.
 */
public final class Digests {
    private static final ThreadLocal<MessageDigest> MD5 = ThreadLocal.withInitial(() -> digest("MD5"));
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> digest("SHA-256"));

    private Digests() {
    }

    /** SHA-256 of the UTF-8 bytes of {@code s}. */
    public static byte[] sha256(String s) {
        return SHA_256.get().digest(s.getBytes(StandardCharsets.UTF_8));
    }

    /** SHA-256 of the UTF-8 bytes of {@code s}, in lower-case hex. */
    public static String sha256Hex(String s) {
        return HexFormat.of().formatHex(sha256(s));
    }

    /**
     * The name-based (version 3, MD5) UUID of the UTF-8 bytes of {@code name}, as text: what
     * {@code UUID.nameUUIDFromBytes(name.getBytes(UTF_8)).toString()} gives, without its digest lookup.
     */
    public static String nameUuid(String name) {
        byte[] md5 = MD5.get().digest(name.getBytes(StandardCharsets.UTF_8));
        md5[6] = (byte) ((md5[6] & 0x0f) | 0x30); // version 3
        md5[8] = (byte) ((md5[8] & 0x3f) | 0x80); // IETF variant
        long msb = 0;
        long lsb = 0;
        for (int i = 0; i < 8; i++) {
            msb = (msb << 8) | (md5[i] & 0xff);
            lsb = (lsb << 8) | (md5[i + 8] & 0xff);
        }
        return new UUID(msb, lsb).toString();
    }

    private static MessageDigest digest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is required of every Java platform", e);
        }
    }
}
