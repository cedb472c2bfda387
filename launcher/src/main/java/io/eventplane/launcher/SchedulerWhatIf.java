package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.log.RawChange;
import io.eventplane.client.log.StateFold;
import io.eventplane.client.log.AppendOrder;
import io.eventplane.client.log.LogCodec;
import io.eventplane.client.log.LogReader;
import io.eventplane.core.Keys;
import io.eventplane.log.ChangeType;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Pod;
import io.eventplane.scheduler.ClusterSnapshot;
import io.eventplane.scheduler.Placement;
import io.eventplane.scheduler.SchedulerDecider;
import io.eventplane.scheduler.SnapshotBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A what-if replay of the scheduler: walks the recorded event log in order and, at every binding the live scheduler
 * made, asks two deciders what they would have done in exactly the state the log shows just before it: the baseline
 * (today's scheduler with the default profile) and the changed one. Nothing is written anywhere: the sandbox is the
 * fold in this process, which reads the live topics and never writes to them.
 *
 * <p>Each decider sees the history as recorded (the changed scheduler's earlier choices are not fed back), so each
 * difference is a decision taken differently in the same situation.
 */
final class SchedulerWhatIf {
    /** One recorded binding and what each decider would have chosen. */
    record Decision(String pod, String recorded, String baseline, String changed) {
    }

    /** The report: every decision, and how the recorded, baseline and changed placements compare. */
    record Report(List<Decision> decisions, Map<String, Integer> recordedPerNode, Map<String, Integer> changedPerNode) {
        long baselineAgrees() {
            return decisions.stream().filter(d -> d.recorded().equals(d.baseline())).count();
        }

        long changedAgrees() {
            return decisions.stream().filter(d -> d.recorded().equals(d.changed())).count();
        }

        List<Decision> differences() {
            return decisions.stream().filter(d -> !d.recorded().equals(d.changed())).toList();
        }
    }

    private final SchedulerDecider baseline;
    private final SchedulerDecider changed;

    SchedulerWhatIf(SchedulerDecider.Profile baseline, SchedulerDecider.Profile changed) {
        this.baseline = new SchedulerDecider(baseline);
        this.changed = new SchedulerDecider(changed);
    }

    Report run(EventplaneConfig config) {
        StateFold fold = new StateFold(config.partitions());
        SnapshotBuilder builder = new SnapshotBuilder();
        List<Decision> decisions = new ArrayList<>();
        Map<String, Integer> recordedPerNode = new TreeMap<>();
        Map<String, Integer> changedPerNode = new TreeMap<>();
        // Each binding is decided again on the cluster as the log had it just before: across partitions that needs
        // causes before effects (the nodes before a binding that chose among them), not the order of fetching.
        List<org.apache.kafka.clients.consumer.ConsumerRecord<String, byte[]>> records = new ArrayList<>();
        new LogReader<>(config, config.topics().events(), new org.apache.kafka.common.serialization.ByteArrayDeserializer())
                .readAll(r -> {
                    if (r.value() != null) {
                        records.add(r);
                    }
                    return true;
                });
        LogCodec codec = new LogCodec(config);
        for (var r : AppendOrder.merge(records)) {
            RawChange raw = codec.parse(r.value());
            if (raw.type() == ChangeType.BOUND && raw.kind().equals("Pod")) {
                decisions.add(decide(fold, builder, raw, recordedPerNode, changedPerNode));
            }
            fold.apply(raw, r.partition(), r.offset());
        }
        return new Report(decisions, recordedPerNode, changedPerNode);
    }

    private Decision decide(StateFold fold, SnapshotBuilder builder, RawChange raw, Map<String, Integer> recordedPerNode,
                            Map<String, Integer> changedPerNode) {
        String key = Keys.of(raw.kind(), raw.namespace(), raw.name());
        ObjectChanged before = fold.get(key);
        Pod bound = (Pod) raw.decode().getObject();
        String recorded = bound.getSpec().getNodeName();
        String base = "-";
        String alt = "-";
        if (before != null) {
            Pod pod = (Pod) before.getObject();
            base = placement(baseline.decide(builder.info(pod), snapshot(fold, builder)));
            alt = placement(changed.decide(builder.info(pod), snapshot(fold, builder)));
        }
        recordedPerNode.merge(recorded, 1, Integer::sum);
        changedPerNode.merge(alt, 1, Integer::sum);
        return new Decision(raw.namespace() + "/" + raw.name(), recorded, base, alt);
    }

    private static ClusterSnapshot snapshot(StateFold fold, SnapshotBuilder builder) {
        return builder.build(kind -> fold.range(Keys.prefix(kind, null)), (c, p) -> { });
    }

    private static String placement(Placement p) {
        return p instanceof Placement.Bind b ? b.node() : "(unschedulable)";
    }
}
