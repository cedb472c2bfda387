package io.eventplane.nodelifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.core.Keys;
import io.eventplane.core.kinds.Kinds;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NodeLifecycleProbeTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 6, 12})
    @DisplayName("the node controller's probes fall one on each command partition, so a verdict on all proves the writer is past every renewal sent before")
    void probesCoverEveryPartition(int partitions) {
        List<String> names = NodeLifecycleService.probeNames(partitions);
        assertEquals(partitions, names.size());
        Set<Integer> seen = new HashSet<>();
        for (int p = 0; p < partitions; p++) {
            byte[] key = Keys.of(Kinds.LEASE.kind(), NodeLifecycleService.LEASE_NAMESPACE, names.get(p))
                    .getBytes(StandardCharsets.UTF_8);
            int partition = Utils.toPositive(Utils.murmur2(key)) % partitions;
            assertEquals(p, partition, names.get(p) + " falls on partition " + p);
            seen.add(partition);
        }
        assertEquals(partitions, seen.size());
        assertEquals(names, NodeLifecycleService.probeNames(partitions), "the same names every time");
    }
}
