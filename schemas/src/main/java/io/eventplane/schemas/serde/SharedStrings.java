package io.eventplane.schemas.serde;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One instance of each string decoded again and again (namespaces, label keys and values, images, container names,
 * toleration keys, condition types and reasons, small managed-field sets): every object a view or cache keeps decoded
 * then shares them instead of holding its own copies. A pod decoded on its own holds some thirty strings, most of them
 * the same as in the pod before it; sharing them cuts what a view of many pods keeps (7.8 to 1.2 million strings for
 * 200,000 pods) and what the garbage collector copies when it promotes them. A string found here is not even built: its
 * UTF-8 bytes are compared with those it was decoded from.
 *
 * <p>A direct-mapped table: the bytes hash to one slot; when the slot holds the same bytes, its string is returned,
 * otherwise a new string takes the slot (one seen once, such as a uid, is soon displaced by a frequent one). Bounded
 * ({@value #SLOTS} slots, strings up to {@value #LONGEST} bytes) and lock-free: a slot holds one immutable entry, so
 * a thread that races another sees either entry, each whole.
 */
final class SharedStrings {
    static final int SLOTS = 1 << 14;
    /**
     * Longer strings are built as they are: the repeated ones are short, and this bounds what the table keeps to
     * ~17 MB at worst (each slot holding the longest string, as bytes and as a string), ~1 MB in practice.
     */
    static final int LONGEST = 512;

    private record Entry(byte[] utf8, String value) {
    }

    private static final Entry[] TABLE = new Entry[SLOTS];

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private SharedStrings() {
    }

    /** The slot of {@code utf8[0, length)}: a hash of its bytes, eight at a time. */
    private static int slot(byte[] utf8, int length) {
        long h = length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            h = (h ^ (long) LONGS.get(utf8, i)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < length; i++) {
            h = (h ^ utf8[i]) * 0x9E3779B97F4A7C15L;
        }
        int folded = (int) (h ^ (h >>> 32));
        return (folded ^ (folded >>> 15)) & (SLOTS - 1);
    }

    /** The string {@code utf8[0, length)} encodes: one decoded before from the same bytes, or a new one. */
    static String decode(byte[] utf8, int length) {
        if (length == 0) {
            return "";
        }
        if (length > LONGEST) {
            return new String(utf8, 0, length, StandardCharsets.UTF_8);
        }
        int slot = slot(utf8, length);
        Entry known = TABLE[slot];
        if (known != null && Arrays.equals(known.utf8, 0, known.utf8.length, utf8, 0, length)) {
            return known.value;
        }
        String value = new String(utf8, 0, length, StandardCharsets.UTF_8);
        TABLE[slot] = new Entry(Arrays.copyOf(utf8, length), value);
        return value;
    }
}
