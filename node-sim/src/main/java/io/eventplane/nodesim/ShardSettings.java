package io.eventplane.nodesim;

import io.eventplane.client.EventplaneConfig;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * How node-sim instances of one group (the same node prefix) share their nodes ({@link NodeSharding}).
 *
 * @param instanceId           this instance's identity, unique in the group (a DNS label: {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?})
 * @param leaseDurationSeconds how long a member's Lease stays valid without renewal: a crashed instance's nodes are
 *                             taken over this long after its last renewal
 * @param renewInterval        how often an instance renews its Lease and looks at the membership again
 */
public record ShardSettings(String instanceId, int leaseDurationSeconds, Duration renewInterval) {
    /** Where the membership Leases live. */
    public static final String NAMESPACE = "kube-system";
    private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    public ShardSettings {
        if (instanceId == null || instanceId.length() > 63 || !LABEL.matcher(instanceId).matches()) {
            throw new IllegalArgumentException("the node-sim instance id must be a DNS label (lower-case letters, digits"
                    + " and '-', at most 63 characters), not \"" + instanceId + "\"");
        }
        if (leaseDurationSeconds < 1) {
            throw new IllegalArgumentException("the node-sim membership lease lasts at least 1 s, not " + leaseDurationSeconds);
        }
        if (renewInterval.isNegative() || renewInterval.isZero()
                || renewInterval.compareTo(Duration.ofSeconds(leaseDurationSeconds)) >= 0) {
            throw new IllegalArgumentException("the node-sim membership lease is renewed more often than it lasts ("
                    + renewInterval + " vs " + leaseDurationSeconds + " s)");
        }
    }

    /** Instance {@code id}, a 15 s Lease renewed every 5 s. */
    public static ShardSettings of(String id) {
        return new ShardSettings(id, 15, Duration.ofSeconds(5));
    }

    /**
     * {@code EVENTPLANE_NODESIM_ID} (default: {@code HOSTNAME}, a pod's name in Kubernetes, else {@code node-sim}),
     * {@code EVENTPLANE_NODESIM_LEASE_SECONDS} (15), {@code EVENTPLANE_NODESIM_RENEW_SECONDS} (5).
     */
    public static ShardSettings fromEnvironment() {
        String id = EventplaneConfig.setting("EVENTPLANE_NODESIM_ID", hostLabel(EventplaneConfig.setting("HOSTNAME", "")));
        return new ShardSettings(id,
                integer("EVENTPLANE_NODESIM_LEASE_SECONDS", "15"),
                Duration.ofSeconds(integer("EVENTPLANE_NODESIM_RENEW_SECONDS", "5")));
    }

    public ShardSettings withTiming(int leaseDurationSeconds, Duration renewInterval) {
        return new ShardSettings(instanceId, leaseDurationSeconds, renewInterval);
    }

    /** The host name as a DNS label (its first part, lower case, other characters as '-'), or {@code node-sim}. */
    static String hostLabel(String host) {
        String first = host == null ? "" : host.split("\\.")[0];
        String label = first.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("^-+|-+$", "");
        label = label.length() > 63 ? label.substring(0, 63).replaceAll("-+$", "") : label;
        return label.isEmpty() ? "node-sim" : label;
    }

    private static int integer(String env, String fallback) {
        String v = EventplaneConfig.setting(env, fallback);
        try {
            return Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(env + " must be a whole number of seconds, not \"" + v + "\"");
        }
    }
}
