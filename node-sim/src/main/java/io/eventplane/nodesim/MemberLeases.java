package io.eventplane.nodesim;

import io.eventplane.model.Lease;
import io.eventplane.model.LeaseSpec;
import io.eventplane.model.ObjectMeta;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The membership Lease of one node-sim instance ({@link NodeSharding}): {@code kube-system/node-sim.<group>.<id>},
 * holder the instance id, annotated with the node prefix of its group and the members it acts on. Pure.
 */
public final class MemberLeases {
    /** The node prefix of the instance's group: instances share nodes only with the same prefix. */
    public static final String GROUP_ANNOTATION = PodBehavior.PREFIX + "node-prefix";
    /** The live members (comma-separated ids) the instance acts on: it runs only the nodes they give it. */
    public static final String MEMBERS_ANNOTATION = PodBehavior.PREFIX + "members";

    private MemberLeases() {
    }

    /** {@code node-sim.<group>.<id>}, the group being the node prefix as a DNS label ({@code node-} gives {@code node}). */
    public static String name(String prefix, String id) {
        return "node-sim." + group(prefix) + "." + id;
    }

    static String group(String prefix) {
        String g = prefix.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
        return g.isEmpty() ? "nodes" : g;
    }

    /** The Lease to write: created when {@code current} is null, else renewed with the same resourceVersion. */
    public static Lease next(Lease current, String prefix, ShardSettings s, Set<String> members, Instant now) {
        Map<String, String> annotations = new LinkedHashMap<>();
        if (current != null && current.getMetadata().getAnnotations() != null) {
            annotations.putAll(current.getMetadata().getAnnotations());
        }
        annotations.put(GROUP_ANNOTATION, prefix);
        annotations.put(MEMBERS_ANNOTATION, String.join(",", new TreeSet<>(members)));
        if (current == null) {
            return Lease.newBuilder()
                    .setMetadata(ObjectMeta.newBuilder().setNamespace(ShardSettings.NAMESPACE)
                            .setName(name(prefix, s.instanceId())).setAnnotations(annotations).build())
                    .setSpec(LeaseSpec.newBuilder().setHolderIdentity(s.instanceId())
                            .setLeaseDurationSeconds(s.leaseDurationSeconds()).setAcquireTime(now).setRenewTime(now).build())
                    .build();
        }
        LeaseSpec spec = current.getSpec() == null ? new LeaseSpec() : current.getSpec();
        return Lease.newBuilder(current)
                .setMetadata(ObjectMeta.newBuilder(current.getMetadata()).setAnnotations(annotations).build())
                .setSpec(LeaseSpec.newBuilder(spec).setHolderIdentity(s.instanceId())
                        .setLeaseDurationSeconds(s.leaseDurationSeconds()).setRenewTime(now).build())
                .build();
    }

    /** Whether the Lease belongs to the group of {@code prefix}. */
    public static boolean inGroup(Lease lease, String prefix) {
        Map<String, String> a = lease.getMetadata() == null ? null : lease.getMetadata().getAnnotations();
        return a != null && prefix.equals(a.get(GROUP_ANNOTATION)) && ShardSettings.NAMESPACE.equals(lease.getMetadata().getNamespace())
                && lease.getMetadata().getName() != null && lease.getMetadata().getName().startsWith("node-sim.");
    }

    /** The member a Lease of the group stands for, observed at {@code observedAt}; empty when released (no holder). */
    public static Optional<NodeSharding.Member> member(Lease lease, Instant observedAt) {
        LeaseSpec spec = lease.getSpec();
        if (spec == null || spec.getHolderIdentity() == null || spec.getHolderIdentity().isEmpty()) {
            return Optional.empty();
        }
        String members = lease.getMetadata().getAnnotations() == null ? null
                : lease.getMetadata().getAnnotations().get(MEMBERS_ANNOTATION);
        Set<String> ack = new TreeSet<>();
        if (members != null) {
            Arrays.stream(members.split(",")).map(String::trim).filter(x -> !x.isEmpty()).forEach(ack::add);
        }
        int seconds = spec.getLeaseDurationSeconds() == null ? 0 : spec.getLeaseDurationSeconds();
        return Optional.of(new NodeSharding.Member(spec.getHolderIdentity(), observedAt, seconds, ack));
    }
}
