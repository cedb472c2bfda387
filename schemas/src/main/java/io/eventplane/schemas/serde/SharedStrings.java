package io.eventplane.schemas.serde;

/**
 * One instance of each string decoded again and again (namespaces, label keys and values, images, container names,
 * toleration keys, condition types and reasons, managed-field sets): every object a view or cache keeps decoded then
 * shares them instead of holding its own copies. A pod decoded on its own holds some thirty strings, most of them the
 * same as in the pod before it; sharing them halves what a view of many pods keeps and what the garbage collector
 * copies when it promotes them.
 *
 * <p>A direct-mapped table: a string hashes to one slot; when the slot holds an equal string, that one is returned,
 * otherwise the new string takes the slot (a string seen once, such as a uid, is soon displaced by a frequent one).
 * Bounded (128 KiB of references, strings up to {@value #LONGEST} characters) and lock-free: slots hold immutable
 * strings, so a thread that races another sees either string, both equal to what it decoded or its own.
 */
final class SharedStrings {
    private static final int SLOTS = 1 << 15;
    /** Longer strings are returned as they are (hashing them would cost more than sharing saves). */
    static final int LONGEST = 4096;
    private static final String[] TABLE = new String[SLOTS];

    private SharedStrings() {
    }

    /** {@code s}, or an equal string decoded before it. */
    static String shared(String s) {
        if (s.isEmpty() || s.length() > LONGEST) {
            return s;
        }
        int h = s.hashCode();
        int slot = (h ^ (h >>> 15)) & (SLOTS - 1);
        String known = TABLE[slot];
        if (known != null && known.hashCode() == h && known.equals(s)) {
            return known;
        }
        TABLE[slot] = s;
        return s;
    }
}
