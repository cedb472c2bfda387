package io.eventplane.reconcile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Lease;
import io.eventplane.model.LeaseSpec;
import io.eventplane.model.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LeaderElectionTest {
    private static final Instant T0 = Instant.parse("2026-01-01T10:00:00Z");
    private static final LeaderElection.Settings S = new LeaderElection.Settings("kube-system", "kube-scheduler",
            Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1));

    private static Lease held(String holder, Instant renewed) {
        return Lease.newBuilder().setMetadata(ObjectMeta.newBuilder().setNamespace("kube-system").setName("kube-scheduler")
                        .setResourceVersion("12").build())
                .setSpec(LeaseSpec.newBuilder().setHolderIdentity(holder).setLeaseDurationSeconds(6)
                        .setAcquireTime(T0).setRenewTime(renewed).setLeaseTransitions(2).build()).build();
    }

    @Test
    @DisplayName("no lease yet: the candidate creates it, holding it")
    void createsWhenAbsent() {
        Lease l = LeaderElection.next(null, T0, "a", T0, S).orElseThrow();
        assertEquals("a", l.getSpec().getHolderIdentity());
        assertEquals(6, l.getSpec().getLeaseDurationSeconds());
        assertEquals(0, l.getSpec().getLeaseTransitions());
        assertEquals("kube-scheduler", l.getMetadata().getName());
    }

    @Test
    @DisplayName("the holder renews: same resourceVersion (the writer's precondition), renewTime now, transitions unchanged")
    void holderRenews() {
        Lease l = LeaderElection.next(held("a", T0), T0, "a", T0.plusSeconds(2), S).orElseThrow();
        assertEquals("12", l.getMetadata().getResourceVersion());
        assertEquals(T0.plusSeconds(2), l.getSpec().getRenewTime());
        assertEquals(2, l.getSpec().getLeaseTransitions());
    }

    @Test
    @DisplayName("a standby does not touch a lease renewed within its duration, by its own clock since it observed it")
    void standbyWaits() {
        Lease foreign = held("a", T0.minusSeconds(3600)); // a skewed renewTime does not matter
        assertTrue(LeaderElection.next(foreign, T0, "b", T0.plusSeconds(5), S).isEmpty());
    }

    @Test
    @DisplayName("a lease not renewed for its duration is taken over: holder changes, transitions + 1, precondition on its version")
    void takesOverExpired() {
        Lease l = LeaderElection.next(held("a", T0), T0, "b", T0.plusSeconds(6), S).orElseThrow();
        assertEquals("b", l.getSpec().getHolderIdentity());
        assertEquals(3, l.getSpec().getLeaseTransitions());
        assertEquals(T0.plusSeconds(6), l.getSpec().getAcquireTime());
        assertEquals("12", l.getMetadata().getResourceVersion());
    }

    @Test
    @DisplayName("a released lease (no holder) is taken at once")
    void releasedIsFree() {
        Lease released = LeaderElection.released(held("a", T0), "a", T0.plusSeconds(1)).orElseThrow();
        assertNull(released.getSpec().getHolderIdentity());
        assertTrue(LeaderElection.released(held("a", T0), "b", T0).isEmpty(), "only the holder releases");
        assertEquals("b", LeaderElection.next(released, T0.plusSeconds(1), "b", T0.plusSeconds(1), S).orElseThrow()
                .getSpec().getHolderIdentity());
    }
}
