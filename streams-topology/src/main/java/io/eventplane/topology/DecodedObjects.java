package io.eventplane.topology;

import io.eventplane.log.ObjectChanged;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The writer's recently written objects, decoded: an object changed a moment ago (a pod bound, then its status
 * reported several times) is decided again without decoding its stored bytes. An entry is used only when the store
 * holds exactly the bytes it was decoded from, so a store restored, rolled back or written elsewhere never serves a
 * stale object. The decoded objects are never mutated (the decision copies what it changes).
 */
final class DecodedObjects {
    private record Entry(byte[] bytes, ObjectChanged change) {
    }

    private final Map<String, Entry> recent;

    /** @param capacity how many objects are kept (least recently used go first) */
    DecodedObjects(int capacity) {
        this.recent = new LinkedHashMap<>(Math.min(capacity, 1 << 16), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The object stored as {@code stored} under {@code key}, from the cache when it holds those bytes. */
    ObjectChanged decode(String key, byte[] stored, Function<byte[], ObjectChanged> decoder) {
        if (stored == null) {
            return null;
        }
        Entry e = recent.get(key);
        if (e != null && Arrays.equals(e.bytes(), stored)) {
            return e.change();
        }
        ObjectChanged change = decoder.apply(stored);
        recent.put(key, new Entry(stored, change));
        return change;
    }

    /** {@code change} was stored as {@code bytes} under {@code key} (null bytes: the object is gone). */
    void written(String key, byte[] bytes, ObjectChanged change) {
        if (bytes == null) {
            recent.remove(key);
        } else {
            recent.put(key, new Entry(bytes, change));
        }
    }

    int size() {
        return recent.size();
    }
}
