package io.eventplane.reconcile;

import io.eventplane.model.Lease;
import io.eventplane.model.LeaseSpec;
import io.eventplane.model.ObjectMeta;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Who may act: client-go's leader election on a coordination.k8s.io Lease, as a pure decision. The Lease is
 * written through the log like any object; every write carries the resourceVersion it was decided on, so of two
 * candidates racing for an expired lease the writer accepts exactly one. Expiry is judged by the candidate's own
 * clock from when it first observed the lease's current version (not from renewTime), so clock skew between
 * schedulers does not matter.
 */
public final class LeaderElection {
    /**
     * @param leaseDuration how long a lease not renewed stays valid for the others (the standby's takeover time)
     * @param renewDeadline how long the leader keeps acting without a successful renewal
     * @param retryPeriod   how often candidates try to acquire and the leader renews
     */
    public record Settings(String namespace, String name, Duration leaseDuration, Duration renewDeadline,
                           Duration retryPeriod) {
        /** kube-system/kube-scheduler; 6 s lease, 4 s renew deadline, 1 s retry: a crashed leader is replaced within ~7 s. */
        public static Settings defaults() {
            return of("kube-scheduler");
        }

        /** kube-system/{@code name}, with the scheduler's quick takeover (6 s lease, 4 s renew deadline, 1 s retry). */
        public static Settings of(String name) {
            return new Settings("kube-system", name, Duration.ofSeconds(6), Duration.ofSeconds(4), Duration.ofSeconds(1));
        }

        public String key() {
            return "Lease/" + namespace + "/" + name;
        }
    }

    private LeaderElection() {
    }

    /**
     * The Lease to write to become or stay leader, or empty when another holder's lease is still valid.
     *
     * @param current    the lease as the view shows it, null if none
     * @param observedAt when this candidate first saw {@code current}'s resourceVersion
     */
    public static Optional<Lease> next(Lease current, Instant observedAt, String identity, Instant now, Settings s) {
        int seconds = (int) Math.max(1, s.leaseDuration().toSeconds());
        if (current == null) {
            return Optional.of(Lease.newBuilder()
                    .setMetadata(ObjectMeta.newBuilder().setNamespace(s.namespace()).setName(s.name()).build())
                    .setSpec(LeaseSpec.newBuilder().setHolderIdentity(identity).setLeaseDurationSeconds(seconds)
                            .setAcquireTime(now).setRenewTime(now).setLeaseTransitions(0).build())
                    .build());
        }
        LeaseSpec spec = current.getSpec() == null ? new LeaseSpec() : current.getSpec();
        if (identity.equals(spec.getHolderIdentity())) {
            return Optional.of(Lease.newBuilder(current).setSpec(LeaseSpec.newBuilder(spec).setRenewTime(now)
                    .setLeaseDurationSeconds(seconds).build()).build());
        }
        if (!isFree(current, observedAt, now)) {
            return Optional.empty();
        }
        int transitions = spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions();
        return Optional.of(Lease.newBuilder(current).setSpec(LeaseSpec.newBuilder(spec).setHolderIdentity(identity)
                .setLeaseDurationSeconds(seconds).setAcquireTime(now).setRenewTime(now)
                .setLeaseTransitions(transitions + 1).build()).build());
    }

    /** Released (no holder), or not renewed for its duration since this candidate observed it. */
    static boolean isFree(Lease lease, Instant observedAt, Instant now) {
        LeaseSpec spec = lease.getSpec();
        if (spec == null || spec.getHolderIdentity() == null || spec.getHolderIdentity().isEmpty()) {
            return true;
        }
        int seconds = spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds();
        return !observedAt.plusSeconds(seconds).isAfter(now);
    }

    /** The lease given up by its holder on a clean shutdown, so a standby takes over at its next retry. */
    public static Optional<Lease> released(Lease current, String identity, Instant now) {
        if (current == null || current.getSpec() == null
                || !Objects.equals(identity, current.getSpec().getHolderIdentity())) {
            return Optional.empty();
        }
        return Optional.of(Lease.newBuilder(current).setSpec(LeaseSpec.newBuilder(current.getSpec())
                .setHolderIdentity(null).setLeaseDurationSeconds(1).setRenewTime(now).build()).build());
    }
}
