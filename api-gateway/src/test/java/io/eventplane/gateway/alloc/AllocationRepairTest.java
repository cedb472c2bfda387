package io.eventplane.gateway.alloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.model.Service;
import io.eventplane.model.networking.IPAddress;
import io.eventplane.testkit.VirtualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The repair loop of cluster IPs and node ports on the allocation objects (issue 16). */
class AllocationRepairTest {
    private final VirtualClock clock = new VirtualClock(Instant.now());
    private final MemoryLog log = new MemoryLog();
    private final ServiceAllocator allocator = new ServiceAllocator(ServiceNetwork.defaults(), log.store, log,
            new Commands("gateway", clock), new Random(5));
    private final AllocationRepair repair = new AllocationRepair(allocator, clock, Duration.ofMinutes(1));

    @Test
    @DisplayName("what a Service that never arrived took is given back after the grace period, not before")
    void orphansAfterGrace() {
        String yaml = "metadata: {name: ghost, namespace: default}\nspec: {type: NodePort, ports: [{port: 80}]}";
        allocator.allocate(null, log.decided(yaml), MemoryLog.parse(yaml), false); // the write never came
        String web = "metadata: {name: web, namespace: default}\nspec: {type: NodePort, ports: [{port: 80}]}";
        log.write(allocator.allocate(null, log.decided(web), MemoryLog.parse(web), false).service());
        assertEquals(List.of(), repair.run().released());
        clock.advance(Duration.ofMinutes(2));
        AllocationRepair.Pass pass = repair.run();
        assertEquals(2, pass.released().size(), pass.toString());
        assertEquals(1, log.store.list("IPAddress", null).size(), "the Service that exists keeps its IP");
        assertEquals(1, log.store.list("NodePortAllocation", null).size());
    }

    @Test
    @DisplayName("a Service whose IP and port nobody holds gets them back; one using another's IP is reported")
    void restoresAndReports() {
        log.write(MemoryLog.parse("metadata: {name: old, namespace: default}\nspec: {type: NodePort, "
                + "clusterIP: 10.96.0.77, ports: [{port: 80, nodePort: 30777}]}"));
        AllocationRepair.Pass pass = repair.run();
        assertEquals(List.of("IPAddress 10.96.0.77", "NodePortAllocation 30777"), pass.restored());
        IPAddress ip = (IPAddress) log.store.get("IPAddress", "", "10.96.0.77").orElseThrow().getObject();
        assertEquals("old", ip.getSpec().getParentRef().getName());
        log.write(MemoryLog.parse("metadata: {name: twin, namespace: default}\nspec: {clusterIP: 10.96.0.77, "
                + "ports: [{port: 80}]}"));
        pass = repair.run();
        assertEquals(List.of("Cluster IP 10.96.0.77 of Service default/twin is held by default/old"), pass.conflicts());
        clock.advance(Duration.ofMinutes(5));
        assertEquals(List.of(), repair.run().released(), "in use: never given back");
        assertTrue(log.store.get("Service", "default", "twin").map(c -> (Service) c.getObject()).isPresent());
    }
}
