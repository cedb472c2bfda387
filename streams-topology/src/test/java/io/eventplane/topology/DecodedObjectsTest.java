package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.eventplane.log.ObjectChanged;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class DecodedObjectsTest {
    private final AtomicInteger decodes = new AtomicInteger();
    private final Function<byte[], ObjectChanged> decoder = b -> {
        decodes.incrementAndGet();
        return new ObjectChanged();
    };

    @Test
    @DisplayName("the writer decodes an object it just wrote only when the store holds other bytes than it wrote")
    void servesWhatItWroteWhileTheStoreHoldsThoseBytes() {
        DecodedObjects cache = new DecodedObjects(10);
        ObjectChanged written = new ObjectChanged();
        cache.written("Pod/a/x", new byte[] {1, 2, 3}, written);

        assertSame(written, cache.decode("Pod/a/x", new byte[] {1, 2, 3}, decoder), "same bytes, another array");
        assertEquals(0, decodes.get());

        ObjectChanged restored = cache.decode("Pod/a/x", new byte[] {1, 2, 4}, decoder);
        assertEquals(1, decodes.get(), "other bytes (a restored or rolled-back store) are decoded");
        assertSame(restored, cache.decode("Pod/a/x", new byte[] {1, 2, 4}, decoder));
        assertEquals(1, decodes.get());
        assertNull(cache.decode("Pod/a/x", null, decoder));
    }

    @Test
    @DisplayName("a deleted object leaves the cache, and the least recently used go first when it is full")
    void forgetsDeletedAndOldest() {
        DecodedObjects cache = new DecodedObjects(2);
        cache.written("a", new byte[] {1}, new ObjectChanged());
        cache.written("b", new byte[] {2}, new ObjectChanged());
        cache.written("a", null, null);
        assertEquals(1, cache.size());
        cache.written("c", new byte[] {3}, new ObjectChanged());
        cache.written("d", new byte[] {4}, new ObjectChanged());
        assertEquals(2, cache.size());
        cache.decode("b", new byte[] {2}, decoder);
        assertEquals(1, decodes.get(), "b was the eldest and went");
    }
}
