package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.log.LogCodec;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.RawChange;
import io.eventplane.log.ChangeType;
import io.eventplane.model.Pod;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Each load-test pod's life as the event log recorded it: when it was created (the API's command time), bound (the
 * scheduler's) and first reported Running (the simulated kubelet's). Read after the run from the log itself, from the
 * offsets the run started at, so the phases are the system's own timestamps, not the load generator's impressions.
 */
final class LoadTestTimeline {
    /** One pod's recorded moments (null when the log does not show it). */
    static final class Moments {
        Instant created;
        Instant bound;
        Instant running;
    }

    final Map<String, Moments> pods = new HashMap<>();
    /** Every change of the run by kind and type ("Pod STATUS_UPDATED"): where the writer's work went. */
    final Map<String, Long> changesByKind = new java.util.TreeMap<>();
    long changesRead;
    /** Changes appended between the run's start and its end ({@code untilOffsets}): what its CPU time paid for. */
    long changesInRun;

    static LoadTestTimeline read(EventplaneConfig config, String namespace, Map<Integer, Long> fromOffsets,
                                 Map<Integer, Long> untilOffsets) {
        LoadTestTimeline t = new LoadTestTimeline();
        LogCodec codec = new LogCodec(config);
        t.changesRead = new LogReader<>(config, config.topics().events(), new ByteArrayDeserializer())
                .readFromOffsets(fromOffsets, r -> {
                    if (r.value() == null) {
                        return true;
                    }
                    if (r.offset() < untilOffsets.getOrDefault(r.partition(), Long.MAX_VALUE)) {
                        t.changesInRun++;
                    }
                    RawChange c = codec.parse(r.value());
                    t.changesByKind.merge(c.kind() + " " + c.type(), 1L, Long::sum);
                    if (!c.kind().equals("Pod") || !c.namespace().equals(namespace)) {
                        return true;
                    }
                    Moments m = t.pods.computeIfAbsent(c.name(), n -> new Moments());
                    if (c.type() == ChangeType.CREATED && m.created == null) {
                        m.created = c.time();
                    } else if (c.type() == ChangeType.BOUND && m.bound == null) {
                        m.bound = c.time();
                    } else if (c.type() == ChangeType.STATUS_UPDATED && m.running == null) {
                        Pod pod = (Pod) c.decode().getObject();
                        if (pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase())) {
                            m.running = c.time();
                        }
                    }
                    return true;
                });
        return t;
    }
}
