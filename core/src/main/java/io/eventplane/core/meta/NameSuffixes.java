package io.eventplane.core.meta;

import java.util.Random;

/**
 * Kubernetes' "safe" alphabet for generated name suffixes (generateName's five characters, pod-template-hash):
 * consonants and digits only, without vowels (so no words appear) and without 0, 1 and 3 (which read as o, l and e).
 */
public final class NameSuffixes {
    public static final String SAFE_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private NameSuffixes() {
    }

    /** {@code length} random characters of the safe alphabet (apiserver's generateName suffix: 5). */
    public static String random(Random random, int length) {
        StringBuilder sb = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            sb.append(SAFE_ALPHABET.charAt(random.nextInt(SAFE_ALPHABET.length())));
        }
        return sb.toString();
    }
}
