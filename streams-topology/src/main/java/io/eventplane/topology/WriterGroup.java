package io.eventplane.topology;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Several writer instances of one cluster in one process: one Kafka Streams application (one consumer group), so the
 * command partitions' tasks are spread across them exactly as across writer processes, each instance with a state
 * directory of its own. With one instance it is just that writer.
 */
public final class WriterGroup implements AutoCloseable {
    private final List<WriterService> writers = new ArrayList<>();

    /** @param instances how many writer instances ({@link EventplaneConfig#configuredWriters()} by default) */
    public WriterGroup(EventplaneConfig config, Path stateDir, long commitIntervalMs, int instances) {
        this(config, stateDir, commitIntervalMs, instances, new ObjectDecider(RulesRegistry.standard()));
    }

    /** Instances deciding with {@code decider} (the fault suite's writer has rules that throw on purpose). */
    public WriterGroup(EventplaneConfig config, Path stateDir, long commitIntervalMs, int instances,
                       ObjectDecider decider) {
        for (int i = 0; i < instances; i++) {
            Path dir = instances == 1 ? stateDir : stateDir.resolve("instance-" + i);
            writers.add(new WriterService(config, dir, commitIntervalMs, decider));
        }
    }

    /** As many instances as {@code EVENTPLANE_WRITERS} says. */
    public WriterGroup(EventplaneConfig config, Path stateDir, long commitIntervalMs) {
        this(config, stateDir, commitIntervalMs, EventplaneConfig.configuredWriters());
    }

    public WriterGroup start() {
        writers.forEach(WriterService::start);
        return this;
    }

    /**
     * Every instance runs and none is restoring its store (a rebalance among them makes this false for a moment).
     */
    public boolean isReady() {
        return writers.stream().allMatch(w -> w.isReady() && w.restoring() == 0);
    }

    /** Store partitions being restored from their changelog, over all instances. */
    public int restoring() {
        return writers.stream().mapToInt(WriterService::restoring).sum();
    }

    public String state() {
        return writers.stream().map(w -> w.state().toString()).collect(Collectors.joining(","));
    }

    public List<WriterService> instances() {
        return List.copyOf(writers);
    }

    @Override
    public void close() {
        // Close in parallel: each close waits for its own tasks' commits, and a rebalance among the rest would
        // otherwise follow each one.
        writers.parallelStream().forEach(WriterService::close);
    }
}
