package io.eventplane.controllers;

import io.eventplane.core.meta.NameSuffixes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Deterministic names: the pod-template-hash of a template (DEP-15, DEP-16) and the suffixes of pod names. Kubernetes
 * hashes with FNV-32a and spells the number in an alphabet without vowels (so no words appear); so do we, over a
 * canonical text of the Avro record (fields in schema order, map keys sorted).
 */
public final class Hashes {
    private static final String ALPHABET = NameSuffixes.SAFE_ALPHABET;

    private Hashes() {
    }

    public static int fnv32a(byte[] data) {
        int hash = 0x811c9dc5;
        for (byte b : data) {
            hash ^= (b & 0xff);
            hash *= 0x01000193;
        }
        return hash;
    }

    /** The decimal form of the unsigned hash, each digit mapped into the safe alphabet (as rand.SafeEncodeString). */
    public static String safeEncode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            out.append(ALPHABET.charAt(text.charAt(i) % ALPHABET.length()));
        }
        return out.toString();
    }

    /** The pod-template-hash of a template, with a collision count mixed in when there was a collision. */
    public static String templateHash(GenericRecord template, Integer collisionCount) {
        String text = canonical(template) + (collisionCount == null ? "" : "#" + collisionCount);
        return safeEncode(Integer.toUnsignedString(fnv32a(text.getBytes(StandardCharsets.UTF_8))));
    }

    /** A five-character suffix for the {@code n}-th name an owner gives out: the same owner and n, the same suffix. */
    public static String suffix(String ownerUid, long n) {
        long h = Integer.toUnsignedLong(fnv32a((ownerUid + "/" + n).getBytes(StandardCharsets.UTF_8)));
        h = h * 31 + Integer.toUnsignedLong(fnv32a((n + "/" + ownerUid).getBytes(StandardCharsets.UTF_8)));
        StringBuilder out = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            out.append(ALPHABET.charAt((int) Math.floorMod(h, (long) ALPHABET.length())));
            h /= ALPHABET.length();
        }
        return out.toString();
    }

    /**
     * A stable text of any Avro value: records in field order, maps sorted by key. Absent and empty are the same
     * ({@code resources: {}} as kubectl sends a template back on {@code rollout undo} equals no resources), so a
     * template compares equal however it travelled.
     */
    public static String canonical(Object value) {
        String text = canon(value);
        return text == null ? "~" : text;
    }

    /** The text of a value, or null when it is absent or empty. */
    private static String canon(Object value) {
        if (value == null) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        if (value instanceof GenericRecord r) {
            for (Schema.Field f : r.getSchema().getFields()) {
                String v = canon(r.get(f.pos()));
                if (v != null) {
                    out.append(f.name()).append(':').append(v).append(',');
                }
            }
            return out.length() == 0 ? null : "{" + out + "}";
        }
        if (value instanceof Map<?, ?> m) {
            Map<String, Object> sorted = new TreeMap<>();
            m.forEach((k, v) -> sorted.put(String.valueOf(k), v));
            sorted.forEach((k, v) -> {
                String text = canon(v);
                out.append(quote(k)).append(':').append(text == null ? "~" : text).append(',');
            });
            return out.length() == 0 ? null : "{" + out + "}";
        }
        if (value instanceof List<?> l) {
            for (Object v : new ArrayList<>(l)) {
                String text = canon(v);
                out.append(text == null ? "~" : text).append(',');
            }
            return out.length() == 0 ? null : "[" + out + "]";
        }
        if (value instanceof CharSequence cs) {
            return quote(cs.toString());
        }
        return String.valueOf(value);
    }

    private static String quote(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
