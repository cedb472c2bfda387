package io.eventplane.schemas;

import java.util.List;
import java.util.Map;

/**
 * Every topic of the log, named in one place. A prefix keeps sandboxes (what-if replays, tests) apart from the live
 * cluster. Keys are object keys ({@code Kind/namespace/name}) except on the outcome topic (request ids).
 *
 * @param prefix topic name prefix, {@code ep} for the live cluster
 */
public record Topics(String prefix) {
    public static final Topics DEFAULT = new Topics("ep");

    /** Commands to the single writer (retained 7 days: the audit of rejected commands reads them). */
    public String commands() {
        return prefix + ".commands";
    }

    /** The event log: every accepted change, kept forever. The source of truth. */
    public String events() {
        return prefix + ".events";
    }

    /** The writer's verdict on each command, for the requester waiting on it (retained 7 days: the audit of rejections). */
    public String outcomes() {
        return prefix + ".outcomes";
    }

    /** Records nobody could read or process, with the reason in headers. */
    public String deadLetters() {
        return prefix + ".dlq";
    }

    /** Snapshots of the complete state (derived: deletable, rebuilt from the log), in chunks. */
    public String snapshots() {
        return prefix + ".snapshots";
    }

    /** One manifest per complete snapshot: what time travel and audit look up first. */
    public String snapshotIndex() {
        return prefix + ".snapshot-index";
    }

    /**
     * Every CustomResourceDefinition's latest change (the event log's record, keyed like it), compacted: what every
     * writer instance reads whole to know every definition, whichever partition decided it. Derived from the event
     * log: the writer appends to both in one transaction.
     */
    public String definitions() {
        return prefix + ".definitions";
    }

    /**
     * Resource usage the simulated kubelets measure (io.eventplane.usage.NodeUsage), keyed by node name: one sample
     * per node per window, read from its recent end by the metrics API and the autoscaler. Measurements, not state:
     * they never pass through the writer, and are kept only for minutes.
     */
    public String usage() {
        return prefix + ".usage";
    }

    public List<String> all() {
        return List.of(commands(), events(), outcomes(), deadLetters(), snapshots(), snapshotIndex(), usage(),
                definitions());
    }

    /** Topic-level configuration each topic is created with. */
    public Map<String, String> config(String topic) {
        if (topic.equals(events())) {
            return Map.of("retention.ms", "-1", "retention.bytes", "-1", "cleanup.policy", "delete");
        }
        if (topic.equals(snapshots())) {
            // Chunks of up to a few MB; old snapshots age out, the index skips manifests whose chunks are gone.
            return Map.of("retention.ms", Long.toString(7L * 24 * 3600 * 1000), "cleanup.policy", "delete",
                    "max.message.bytes", Integer.toString(8 * 1024 * 1024));
        }
        if (topic.equals(snapshotIndex())) {
            return Map.of("retention.ms", "-1", "cleanup.policy", "delete");
        }
        if (topic.equals(usage())) {
            // Readers start a minute back from the end: older samples are never read again.
            return Map.of("retention.ms", Long.toString(15L * 60 * 1000), "segment.ms", Long.toString(5L * 60 * 1000),
                    "cleanup.policy", "delete");
        }
        if (topic.equals(definitions())) {
            return Map.of("cleanup.policy", "compact", "retention.ms", "-1");
        }
        if (topic.equals(commands()) || topic.equals(outcomes())) {
            return Map.of("retention.ms", Long.toString(7L * 24 * 3600 * 1000), "cleanup.policy", "delete");
        }
        return Map.of("retention.ms", Long.toString(24L * 3600 * 1000), "cleanup.policy", "delete");
    }

    /** Commands and events are co-partitioned (same key, same count): an object's rv encodes its partition. */
    public boolean partitionedByKey(String topic) {
        return topic.equals(commands()) || topic.equals(events());
    }
}
