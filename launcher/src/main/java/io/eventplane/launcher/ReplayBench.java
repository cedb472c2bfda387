package io.eventplane.launcher;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.client.TopicSetup;
import io.eventplane.client.log.LogReader;
import io.eventplane.client.log.SnapshotStore;
import io.eventplane.client.log.TimeTravel;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Envelope;
import io.eventplane.log.ObjectChanged;
import io.eventplane.schemas.Topics;
import java.io.PrintStream;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * {@code eventplane bench replay}: the rebuild rate of a replay and the latency of time travel. Writes a synthetic
 * history ({@code --pods} running pods, each changed {@code --changes} times, one second of log time per 1,000 changes)
 * to fresh topics, replays it from scratch, takes a snapshot half-way, and rebuilds the moments just before the end
 * with and without it.
 */
final class ReplayBench {
    private ReplayBench() {
    }

    static void run(EventplaneConfig base, int pods, int changesPerPod, PrintStream out) throws Exception {
        EventplaneConfig config = new EventplaneConfig(base.bootstrapServers(), base.registryUrl(),
                new Topics("replaybench" + UUID.randomUUID().toString().substring(0, 8)), 1);
        TopicSetup.ensureTopics(config);
        Instant t0 = Instant.parse("2026-11-21T10:00:00Z");
        long total = (long) pods * changesPerPod;
        long half = total / 2;
        long started = System.nanoTime();
        Map<String, Object> props = config.kafkaConfig();
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        SnapshotStore snapshots = new SnapshotStore(config);
        try (KafkaProducer<String, ObjectChanged> producer = new KafkaProducer<>(props, new StringSerializer(),
                LogSerdes.changes(config).serializer())) {
            long rv = 0;
            for (int round = 0; round < changesPerPod; round++) {
                for (int i = 0; i < pods; i++) {
                    rv++;
                    ObjectChanged seed = ViewBench.runningPod(i, Math.max(1, pods / 30));
                    Instant time = t0.plusMillis(rv);
                    ObjectChanged c = ObjectChanged.newBuilder(seed).setResourceVersion(rv)
                            .setPreviousResourceVersion(round == 0 ? 0 : rv - pods)
                            .setType(round == 0 ? ChangeType.CREATED : ChangeType.STATUS_UPDATED)
                            .setEnvelope(Envelope.newBuilder(seed.getEnvelope()).setTime(time)
                                    .setRequestId("bench-" + rv).build())
                            .build();
                    producer.send(new ProducerRecord<>(config.topics().events(), "Pod/default/" + c.getName(), c));
                    if (rv == half) {
                        producer.flush();
                        long s = System.nanoTime();
                        TimeTravel.Result r = TimeTravel.fromScratch(config, TimeTravel.Target.END, LogReader.Progress.NONE);
                        snapshots.write(r.fold());
                        out.printf("replay: snapshot of %,d objects at change %,d written in %.2f s%n",
                                r.fold().size(), half, (System.nanoTime() - s) / 1e9);
                    }
                }
                out.printf("  ... %,d changes written%n", rv);
            }
        }
        out.printf("replay: wrote %,d changes (%,d pods x %d) to a fresh log in %.1f s%n", total, pods, changesPerPod,
                (System.nanoTime() - started) / 1e9);

        ReplayCommand.Progress progress = new ReplayCommand.Progress(out);
        TimeTravel.Result full = TimeTravel.fromScratch(config, TimeTravel.Target.END, progress);
        progress.done();
        double secs = full.millis() / 1000.0;
        out.printf("replay: rebuilt %,d objects from %,d changes in %.2f s: %,.0f changes/s%n",
                full.fold().size(), full.changesRead(), secs, full.changesRead() / secs);
        long d = System.nanoTime();
        String digest = full.fold().digest();
        out.printf("replay: digest of the complete state in %.2f s: %s%n", (System.nanoTime() - d) / 1e9, digest);

        Instant nearEnd = t0.plusMillis(total - 1);
        TimeTravel travel = new TimeTravel(config, snapshots);
        TimeTravel.Result withSnapshot = travel.rebuild(TimeTravel.Target.at(nearEnd), LogReader.Progress.NONE);
        out.printf("time travel to the last moment but one, from the snapshot: %.2f s (%,d changes folded after it)%n",
                withSnapshot.millis() / 1000.0, withSnapshot.changesRead());
        TimeTravel.Result without = TimeTravel.fromScratch(config, TimeTravel.Target.at(nearEnd), LogReader.Progress.NONE);
        out.printf("time travel to the same moment without a snapshot: %.2f s (%,d changes folded)%n",
                without.millis() / 1000.0, without.changesRead());
        out.printf("time travel: both rebuilds agree: %s%n",
                withSnapshot.fold().digest().equals(without.fold().digest()));
    }
}
