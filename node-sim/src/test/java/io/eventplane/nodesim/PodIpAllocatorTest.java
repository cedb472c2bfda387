package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PodIpAllocatorTest {
    private final PodIpAllocator ips = new PodIpAllocator();

    @Test
    @DisplayName("each pod gets the lowest free address of its node, and keeps it")
    void lowestFree() {
        assertEquals(Optional.of("10.244.1.1"), ips.addressFor("a", "10.244.1", null));
        assertEquals(Optional.of("10.244.1.2"), ips.addressFor("b", "10.244.1", null));
        assertEquals(Optional.of("10.244.2.1"), ips.addressFor("c", "10.244.2", null));
        assertEquals(Optional.of("10.244.1.1"), ips.addressFor("a", "10.244.1", null));
    }

    @Test
    @DisplayName("a released address is handed out again")
    void reuse() {
        ips.addressFor("a", "10.244.1", null);
        ips.addressFor("b", "10.244.1", null);
        ips.release("a");

        assertEquals(Optional.of("10.244.1.1"), ips.addressFor("c", "10.244.1", null));
    }

    @Test
    @DisplayName("after a restart a pod keeps the address it reports, and no one else gets it")
    void adoptsExisting() {
        assertEquals(Optional.of("10.244.1.9"), ips.addressFor("a", "10.244.1", "10.244.1.9"));
        for (int i = 0; i < 8; i++) {
            ips.addressFor("p" + i, "10.244.1", null);
        }
        assertEquals(Optional.of("10.244.1.10"), ips.addressFor("next", "10.244.1", null));
    }

    @Test
    @DisplayName("a node has 254 pod addresses")
    void exhaustion() {
        for (int i = 0; i < 254; i++) {
            assertTrue(ips.addressFor("p" + i, "10.244.1", null).isPresent());
        }
        assertEquals(Optional.empty(), ips.addressFor("one-too-many", "10.244.1", null));
    }
}
