package io.eventplane.controllers.endpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.EndpointAddress;
import io.eventplane.model.EndpointSubset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The endpoints controller's truncation of more than 1000 addresses (truncateEndpoints). */
class EndpointsDeciderTest {

    private static List<EndpointAddress> addresses(int n, int from) {
        return IntStream.range(0, n).mapToObj(i -> EndpointAddress.newBuilder().setIp("10.0." + ((from + i) / 250) + "."
                + ((from + i) % 250 + 1)).build()).toList();
    }

    @ParameterizedTest(name = "ready {0}+{1}, not ready {2}+{3}: keeps {4}+{5} ready, {6}+{7} not ready")
    @CsvSource({
            "400, 300, 100, 100, 400, 300, 100, 100, false",
            "600, 300, 100, 100, 600, 300, 50, 50, true",
            "900, 300, 10, 0, 750, 250, 0, 0, true"})
    void truncation(int r1, int r2, int n1, int n2, int kr1, int kr2, int kn1, int kn2, boolean cut) {
        List<EndpointSubset> subsets = new ArrayList<>(List.of(
                EndpointSubset.newBuilder().setAddresses(addresses(r1, 0)).setNotReadyAddresses(addresses(n1, 2000)).build(),
                EndpointSubset.newBuilder().setAddresses(addresses(r2, 4000)).setNotReadyAddresses(addresses(n2, 6000))
                        .build()));
        assertEquals(cut, EndpointsDecider.truncate(subsets));
        assertEquals(List.of(kr1, kn1, kr2, kn2), List.of(size(subsets.get(0).getAddresses()),
                size(subsets.get(0).getNotReadyAddresses()), size(subsets.get(1).getAddresses()),
                size(subsets.get(1).getNotReadyAddresses())));
        int total = subsets.stream().mapToInt(s -> size(s.getAddresses()) + size(s.getNotReadyAddresses())).sum();
        assertTrue(total <= EndpointsDecider.MAX_CAPACITY);
        assertFalse(cut && total < EndpointsDecider.MAX_CAPACITY);
    }

    private static int size(List<?> l) {
        return l == null ? 0 : l.size();
    }
}
