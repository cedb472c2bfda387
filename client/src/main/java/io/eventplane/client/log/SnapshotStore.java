package io.eventplane.client.log;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.log.SnapshotChunk;
import io.eventplane.log.SnapshotManifest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Snapshots of the complete state, kept in two topics: the chunks ({@code ep.snapshots}) and one manifest per complete
 * snapshot ({@code ep.snapshot-index}). A snapshot is only used once its manifest exists and its chunks are still
 * retained, and it is checked against the digest its manifest records; anything else falls back to an older snapshot
 * or to the start of the log. Both topics are derived: deleting them loses nothing.
 */
public final class SnapshotStore {
    /** Objects per chunk: a chunk of large pods stays well under the topic's 8 MB record limit. */
    static final int CHUNK_OBJECTS = 500;
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    /** A snapshot read back: its manifest and a fold positioned at it, ready to continue. */
    public record Loaded(SnapshotManifest manifest, StateFold fold) {
    }

    private final EventplaneConfig config;

    public SnapshotStore(EventplaneConfig config) {
        this.config = config;
    }

    /** Every manifest whose chunks are still retained, oldest first. */
    public List<SnapshotManifest> manifests() {
        List<SnapshotManifest> out = new ArrayList<>();
        new LogReader<>(config, config.topics().snapshotIndex(), LogSerdes.serde(config, SnapshotManifest.class)
                .deserializer()).timeout(TIMEOUT).readAll(r -> {
                    if (r.value() != null) {
                        out.add(r.value());
                    }
                    return true;
                });
        long retainedFrom = beginningOfChunks();
        out.removeIf(m -> m.getFirstChunkOffset() < retainedFrom || m.getPositions().size() != config.partitions());
        out.sort(Comparator.comparing(SnapshotManifest::getTime));
        return out;
    }

    public Optional<Loaded> latest() {
        return pick(m -> true);
    }

    /** The newest snapshot standing for a moment at or before {@code time}. */
    public Optional<Loaded> latestBefore(Instant time) {
        return pick(m -> !m.getTime().isAfter(time));
    }

    /** The newest snapshot whose position is at or before {@code position} in every partition. */
    public Optional<Loaded> latestAtOrBefore(long[] position) {
        return pick(m -> {
            for (int p = 0; p < position.length; p++) {
                if (m.getPositions().get(p) > position[p]) {
                    return false;
                }
            }
            return true;
        });
    }

    private Optional<Loaded> pick(Predicate<SnapshotManifest> usable) {
        List<SnapshotManifest> all = manifests();
        for (int i = all.size() - 1; i >= 0; i--) {
            SnapshotManifest m = all.get(i);
            if (usable.test(m)) {
                Optional<Loaded> loaded = load(m);
                if (loaded.isPresent()) {
                    return loaded;
                }
            }
        }
        return Optional.empty();
    }

    /** Reads a snapshot's chunks; empty when they are incomplete or do not match the manifest's digest. */
    public Optional<Loaded> load(SnapshotManifest m) {
        List<RawChange> objects = new ArrayList<>();
        LogCodec codec = new LogCodec(config);
        int[] chunks = {0};
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "eventplane-snapshot-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 32 * 1024 * 1024);
        props.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, 64 * 1024 * 1024);
        TopicPartition tp = new TopicPartition(config.topics().snapshots(), 0);
        try (KafkaConsumer<String, SnapshotChunk> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                LogSerdes.serde(config, SnapshotChunk.class).deserializer())) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, m.getFirstChunkOffset());
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (consumer.position(tp) <= m.getLastChunkOffset() && System.nanoTime() < deadline) {
                for (var r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.offset() <= m.getLastChunkOffset() && r.value() != null
                            && r.value().getSnapshotId().equals(m.getSnapshotId())) {
                        for (java.nio.ByteBuffer b : r.value().getChanges()) {
                            byte[] wire = new byte[b.remaining()];
                            b.get(wire);
                            objects.add(codec.parse(wire));
                        }
                        chunks[0]++;
                    }
                }
            }
        }
        if (chunks[0] != m.getChunks() || objects.size() != m.getObjects()) {
            return Optional.empty();
        }
        long[] positions = m.getPositions().stream().mapToLong(Long::longValue).toArray();
        long[] offsets = m.getEventOffsets().stream().mapToLong(Long::longValue).toArray();
        StateFold fold = new StateFold(objects, positions, offsets, m.getTime());
        if (!fold.digest().equals(m.getDigest())) {
            return Optional.empty();
        }
        return Optional.of(new Loaded(m, fold));
    }

    /** Writes {@code fold} as a new snapshot: its chunks, then its manifest. */
    public SnapshotManifest write(StateFold fold) {
        String id = "snapshot-" + io.eventplane.core.ResourceVersions.encode(fold.positions());
        Map<String, Object> props = config.kafkaConfig();
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "eventplane-snapshot-writer-" + UUID.randomUUID());
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        try (KafkaProducer<String, SnapshotChunk> chunks = new KafkaProducer<>(props, new StringSerializer(),
                LogSerdes.serde(config, SnapshotChunk.class).serializer());
             KafkaProducer<String, SnapshotManifest> index = new KafkaProducer<>(props, new StringSerializer(),
                     LogSerdes.serde(config, SnapshotManifest.class).serializer())) {
            List<RawChange> all = new ArrayList<>(fold.raw());
            long first = -1;
            long last = -1;
            int n = 0;
            for (int i = 0; i < all.size() || (i == 0 && n == 0); i += CHUNK_OBJECTS) {
                List<java.nio.ByteBuffer> part = new ArrayList<>();
                for (RawChange c : all.subList(i, Math.min(all.size(), i + CHUNK_OBJECTS))) {
                    part.add(java.nio.ByteBuffer.wrap(c.wire()));
                }
                RecordMetadata md = chunks.send(new ProducerRecord<>(config.topics().snapshots(), 0, id,
                        new SnapshotChunk(id, n, part))).get();
                first = first < 0 ? md.offset() : first;
                last = md.offset();
                n++;
            }
            SnapshotManifest manifest = SnapshotManifest.newBuilder()
                    .setSnapshotId(id)
                    .setTime(fold.latestTime())
                    .setPositions(boxed(fold.positions()))
                    .setEventOffsets(boxed(fold.nextOffsets()))
                    .setFirstChunkOffset(first)
                    .setLastChunkOffset(last)
                    .setChunks(n)
                    .setObjects(all.size())
                    .setDigest(fold.digest())
                    .build();
            index.send(new ProducerRecord<>(config.topics().snapshotIndex(), 0, id, manifest)).get();
            return manifest;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while writing a snapshot", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot write a snapshot: " + e.getCause(), e.getCause());
        }
    }

    private long beginningOfChunks() {
        Map<String, Object> props = config.kafkaConfig();
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "eventplane-snapshot-probe-" + UUID.randomUUID());
        TopicPartition tp = new TopicPartition(config.topics().snapshots(), 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(),
                new StringDeserializer())) {
            if (consumer.partitionsFor(tp.topic(), TIMEOUT).isEmpty()) {
                return 0;
            }
            consumer.assign(List.of(tp));
            return consumer.beginningOffsets(List.of(tp), TIMEOUT).getOrDefault(tp, 0L);
        }
    }

    private static List<Long> boxed(long[] values) {
        List<Long> out = new ArrayList<>(values.length);
        for (long v : values) {
            out.add(v);
        }
        return out;
    }
}
