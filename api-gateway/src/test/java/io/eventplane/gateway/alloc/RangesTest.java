package io.eventplane.gateway.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.HashSet;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The service CIDR and node port range as kube-apiserver's allocators see them (issue 16). */
class RangesTest {

    @ParameterizedTest(name = "{0}: first {1}, {2} usable, {3} in the prefix, {4} allocatable")
    @CsvSource({
            "10.96.0.0/12, 10.96.0.1, 1048574, 10.111.255.255, false",
            "10.96.0.0/12, 10.96.0.1, 1048574, 10.96.0.0, false",
            "10.96.0.0/12, 10.96.0.1, 1048574, 10.111.255.254, true",
            "10.96.5.0/12, 10.96.0.1, 1048574, 10.100.0.1, true",
            "192.168.10.0/28, 192.168.10.1, 14, 192.168.10.15, false",
            "fd00::/108, fd00::1, 1048575, fd00::f:ffff, true"})
    @DisplayName("a CIDR's usable addresses leave out the network address and, for IPv4, the broadcast address")
    void usableAddresses(String cidr, String first, long size, String ip, boolean allocatable) {
        IpRange range = IpRange.parse(cidr);
        assertEquals(first, range.first());
        assertEquals(BigInteger.valueOf(size), range.size());
        assertTrue(range.inPrefix(ip));
        assertEquals(allocatable, range.allocatable(ip));
        assertFalse(range.inPrefix("172.16.0.1"));
    }

    @Test
    @DisplayName("dynamic allocation picks from the upper band first (KEP-3070), then the static band, then none")
    void freeIpSearch() {
        IpRange range = IpRange.parse("10.0.0.0/24"); // 254 usable, a static band of 16
        Random random = new Random(7);
        Set<String> taken = new HashSet<>();
        for (int i = 0; i < 254 - 16; i++) {
            String ip = range.next(taken::contains, random).orElseThrow();
            int last = Integer.parseInt(ip.substring(ip.lastIndexOf('.') + 1));
            assertTrue(last > 16 && last < 255, ip);
            assertTrue(taken.add(ip), "twice: " + ip);
        }
        for (int i = 0; i < 16; i++) {
            String ip = range.next(taken::contains, random).orElseThrow();
            int last = Integer.parseInt(ip.substring(ip.lastIndexOf('.') + 1));
            assertTrue(last >= 1 && last <= 16, ip);
            taken.add(ip);
        }
        assertEquals(Optional.empty(), range.next(taken::contains, random));
    }

    @Test
    @DisplayName("IP literals are read leniently and named canonically; a CIDR must be usable")
    void canonicalNames() {
        assertEquals(Optional.of("10.96.0.10"), IpRange.canonical("10.96.0.010"));
        assertEquals(Optional.of("2001:db8::1"), IpRange.canonical("2001:db8:0:0:0:0:0:1"));
        assertEquals(Optional.empty(), IpRange.canonical("web"));
        assertEquals(Optional.of("IPv6"), IpRange.familyOf("fd00::10"));
        assertEquals("10.96.0.0/12", IpRange.parse("10.100.1.2/12").cidr());
        assertThrows(IllegalArgumentException.class, () -> IpRange.parse("fd00::/48"));
        assertThrows(IllegalArgumentException.class, () -> IpRange.parse("10.96.0.0"));
    }

    @Test
    @DisplayName("node ports: 30000-32767, dynamic ones from above the static band of 86 (KEP-3668), then below")
    void nodePortSearch() {
        PortRange range = PortRange.DEFAULT;
        assertEquals("30000-32767", range.toString());
        assertEquals(86, range.staticBand());
        assertTrue(range.contains(30000) && range.contains(32767) && !range.contains(32768));
        Random random = new Random(3);
        Set<Integer> taken = new HashSet<>();
        for (int i = 0; i < 2768 - 86; i++) {
            int port = range.next(taken::contains, random).orElseThrow();
            assertTrue(port >= 30086, "dynamic from the upper band: " + port);
            taken.add(port);
        }
        int low = range.next(taken::contains, random).orElseThrow();
        assertTrue(low < 30086, String.valueOf(low));
        for (int p = 30000; p < 30086; p++) {
            taken.add(p);
        }
        assertEquals(OptionalInt.empty(), range.next(taken::contains, random));
    }
}
