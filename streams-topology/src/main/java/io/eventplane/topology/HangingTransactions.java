package io.eventplane.topology;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.AbortTransactionSpec;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.utils.Utils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends a writer transaction that a broker crash left open, before the writer starts.
 *
 * <p>Why: when a broker restarts after kill -9 with a transaction in PrepareCommit, its transaction coordinator resends
 * the markers. For a moment during the restart the broker is fenced and its partitions have no leader, and a
 * coordinator that looks then takes a leaderless partition for a deleted one: it skips the marker and records the
 * transaction complete (Kafka's TransactionMarkerChannelManager, "Couldn't find leader endpoint ... likely deleted").
 * The partitions keep the transaction open for ever. On the writer group's {@code __consumer_offsets} partition every
 * read_committed fetch of its offsets then answers UNSTABLE_OFFSET_COMMIT; on the store's changelog a restore never
 * reaches the end offset; on the event log no read_committed reader gets past it. Kafka Streams waits without end:
 * {@code eventplane up} restarted after a kill -9 failed to become ready in 2 of 12 runs of the fault suite's
 * whole-cluster kill (once with only the offsets' marker lost, once with all four).
 *
 * <p>How: the writer's partitions (its offsets partition and every partition it writes) are looked at twice a second
 * apart. A transaction of this writer's ids open the same on both looks while its coordinator says it ended is nobody's
 * (a live transaction is never complete while open, and a live writer commits well within a second). It is ended as
 * its state allows, never half one way and half the other:
 * <ul>
 *   <li>aborted by its coordinator: aborted where it is open (Kafka's WriteTxnMarkers, as kafka-transactions.sh does);
 *   <li>committed, and open only on the offsets partition (its data already visible): its offsets are committed. A
 *       producer with its transactional id (the same producer id) runs one more transaction holding an offset commit of
 *       a companion group in that partition; its commit marker commits the lost transaction's pending offsets too,
 *       since the group coordinator keeps them by producer id;
 *   <li>committed, and nothing of it visible anywhere (no partition got its marker): aborted everywhere, which is what
 *       a kill just before the commit would have left. Its commands were never answered (every reader is
 *       read_committed), so the writer decides them again, once;
 *   <li>anything else (its end unknown, or data partitions both marked and not) is reported with Kafka's remedy, not
 *       guessed.
 * </ul>
 */
final class HangingTransactions {
    private static final Logger LOG = LoggerFactory.getLogger(HangingTransactions.class);
    static final String OFFSETS_TOPIC = "__consumer_offsets";
    private static final Duration RECHECK = Duration.ofSeconds(1);
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final long WAIT_S = 30;

    /** What to do with a transaction open on the writer's partitions. */
    enum Action {
        /** Committed, open only on the offsets partition: commit its offsets. */
        COMMIT_OFFSETS,
        /** Abort it wherever it is open. */
        ABORT,
        /** Its coordinator is ending it now (markers in flight), or is not answering for it yet: look again. */
        WAIT,
        /** Running: the writer's own business (or its coordinator aborts it when it times out). */
        LEAVE,
        /** Not to be ended without a guess: reported. */
        REPORT
    }

    /** One producer on one partition, as Kafka's DescribeProducers tells it ({@code openSince} -1: no transaction open). */
    record Seen(TopicPartition partition, long producerId, int producerEpoch, long openSince, int coordinatorEpoch) {
        boolean open() {
            return openSince >= 0;
        }
    }

    /** The coordinator's record of a transactional id: its state and its producer's epoch now. */
    record Coordinator(String transactionalId, TransactionState state, int producerEpoch) {
    }

    /** A transaction found open, where, and what to do with it. */
    record Finding(String transactionalId, long producerId, TransactionState state, Action action, List<Seen> open) {
    }

    private HangingTransactions() {
    }

    /**
     * What to do with producer {@code open}'s transaction (every partition where it is open), given what its
     * coordinator says and where the same producer is seen with its transaction closed ({@code closed}).
     */
    static Action decide(Coordinator coordinator, List<Seen> open, List<Seen> closed, TopicPartition offsets) {
        return switch (coordinator.state()) {
            case ONGOING -> Action.LEAVE;
            case PREPARE_COMMIT, PREPARE_ABORT, PREPARE_EPOCH_FENCE -> Action.WAIT;
            case COMPLETE_ABORT -> Action.ABORT;
            case COMPLETE_COMMIT -> {
                if (open.stream().allMatch(s -> s.partition().equals(offsets))) {
                    yield Action.COMMIT_OFFSETS;
                }
                int epoch = open.stream().mapToInt(Seen::producerEpoch).max().orElseThrow();
                // Transactions V2 bump the epoch as a transaction ends, so its markers carry epoch + 1: a partition
                // whose producer is closed at a higher epoch got this transaction's marker. Without the bump (the
                // coordinator at the same epoch) a marked partition cannot be told from one the transaction missed.
                boolean bumped = coordinator.producerEpoch() == epoch + 1;
                boolean visible = closed.stream().anyMatch(s -> s.producerEpoch() > epoch);
                yield bumped && !visible ? Action.ABORT : Action.REPORT;
            }
            default -> Action.REPORT; // EMPTY (a producer with its id started since), UNKNOWN
        };
    }

    /**
     * The transactions of ids starting with {@code idPrefix} open in {@code first} and open the same in {@code second}
     * (two looks at the same partitions), with their coordinators' records by producer id.
     */
    static List<Finding> findings(List<Seen> first, List<Seen> second, Map<Long, Coordinator> coordinators,
                                  String idPrefix, TopicPartition offsets) {
        Map<Long, List<Seen>> byProducer = first.stream().collect(Collectors.groupingBy(Seen::producerId));
        List<Finding> out = new ArrayList<>();
        byProducer.forEach((producer, seen) -> {
            List<Seen> open = seen.stream().filter(Seen::open).toList();
            Coordinator c = coordinators.get(producer);
            if (open.isEmpty() || !second.containsAll(open)) {
                return;
            }
            if (c == null) {
                // no coordinator lists it yet (one still loading its log after a restart): look again
                out.add(new Finding("?", producer, TransactionState.UNKNOWN, Action.WAIT, open));
                return;
            }
            if (!c.transactionalId().startsWith(idPrefix)) {
                return;
            }
            List<Seen> closed = seen.stream().filter(s -> !s.open()).toList();
            out.add(new Finding(c.transactionalId(), producer, c.state(), decide(c, open, closed, offsets), open));
        });
        return out;
    }

    /** The {@code __consumer_offsets} partition that keeps {@code group}'s offsets (Kafka's own placement). */
    static int offsetsPartition(String group, int partitions) {
        return Utils.abs(group.hashCode()) % partitions;
    }

    /** A group name of ours whose offsets live in {@code partition} too. */
    static String companionGroup(String group, int partition, int partitions) {
        for (int i = 0; ; i++) {
            String name = group + "-txn-repair" + (i == 0 ? "" : "-" + i);
            if (offsetsPartition(name, partitions) == partition) {
                return name;
            }
        }
    }

    /**
     * Looks for and ends {@code group}'s hanging transactions (ids {@code group + "-"...}, Kafka Streams' own) on its
     * offsets partition and on every partition of {@code outputs}. Returns what it found; a broker that cannot answer
     * is logged, not thrown (the writer then starts as it would have).
     */
    static List<Finding> repair(Map<String, Object> kafkaConfig, String group, Collection<String> outputs,
                                TopicPartition anchor) {
        try (Admin admin = Admin.create(kafkaConfig)) {
            return repair(admin, kafkaConfig, group, outputs, anchor);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            LOG.warn("writer: could not look for transactions a broker crash left open ({}); starting anyway", e.toString());
            return List.of();
        }
    }

    private static List<Finding> repair(Admin admin, Map<String, Object> kafkaConfig, String group,
                                        Collection<String> outputs, TopicPartition anchor)
            throws ExecutionException, InterruptedException, TimeoutException {
        Map<String, Integer> topics = partitionCounts(admin, outputs);
        Integer offsetsPartitions = topics.remove(OFFSETS_TOPIC);
        if (offsetsPartitions == null) {
            return List.of(); // a new cluster: no group has committed anything yet
        }
        TopicPartition offsets = new TopicPartition(OFFSETS_TOPIC, offsetsPartition(group, offsetsPartitions));
        List<TopicPartition> partitions = new ArrayList<>(List.of(offsets));
        topics.forEach((topic, n) -> {
            for (int p = 0; p < n; p++) {
                partitions.add(new TopicPartition(topic, p));
            }
        });
        long deadline = System.nanoTime() + SETTLE.toNanos();
        String ours = group + "-";
        while (true) {
            List<Seen> first = seen(admin, partitions);
            if (findings(first, first, coordinators(admin, first), ours, offsets).stream()
                    .allMatch(f -> f.action() == Action.LEAVE)) {
                return List.of(); // nothing open, or only running transactions: the usual start, no second look
            }
            Thread.sleep(RECHECK.toMillis());
            List<Finding> found = findings(first, seen(admin, partitions), coordinators(admin, first), ours, offsets);
            if (found.stream().anyMatch(f -> f.action() == Action.WAIT) && System.nanoTime() < deadline) {
                continue;
            }
            String companion = companionGroup(group, offsets.partition(), offsetsPartitions);
            for (Finding f : found) {
                end(admin, kafkaConfig, f, companion, anchor);
            }
            return found;
        }
    }

    /** Partition counts of {@code __consumer_offsets} and of those of {@code outputs} that exist (one request). */
    private static Map<String, Integer> partitionCounts(Admin admin, Collection<String> outputs)
            throws ExecutionException, InterruptedException, TimeoutException {
        List<String> names = new ArrayList<>(List.of(OFFSETS_TOPIC));
        outputs.stream().filter(t -> !names.contains(t)).forEach(names::add);
        Map<String, Integer> out = new HashMap<>();
        for (var e : admin.describeTopics(names).topicNameValues().entrySet()) {
            try {
                out.put(e.getKey(), e.getValue().get(WAIT_S, TimeUnit.SECONDS).partitions().size());
            } catch (ExecutionException missing) {
                if (!(missing.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw missing;
                }
            }
        }
        return out;
    }

    private static List<Seen> seen(Admin admin, List<TopicPartition> partitions)
            throws ExecutionException, InterruptedException, TimeoutException {
        List<Seen> out = new ArrayList<>();
        var result = admin.describeProducers(partitions).all().get(WAIT_S, TimeUnit.SECONDS);
        result.forEach((tp, description) -> {
            for (ProducerState s : description.activeProducers()) {
                out.add(new Seen(tp, s.producerId(), s.producerEpoch(),
                        s.currentTransactionStartOffset().orElse(-1), s.coordinatorEpoch().orElse(0)));
            }
        });
        return out;
    }

    /** The coordinator's record of each producer with an open transaction. */
    private static Map<Long, Coordinator> coordinators(Admin admin, List<Seen> seen)
            throws ExecutionException, InterruptedException, TimeoutException {
        Set<Long> producers = seen.stream().filter(Seen::open).map(Seen::producerId).collect(Collectors.toSet());
        if (producers.isEmpty()) {
            return Map.of();
        }
        Map<String, Long> ids = admin.listTransactions(new ListTransactionsOptions().filterProducerIds(producers))
                .all().get(WAIT_S, TimeUnit.SECONDS).stream()
                .collect(Collectors.toMap(TransactionListing::transactionalId, TransactionListing::producerId));
        if (ids.isEmpty()) {
            return Map.of();
        }
        Map<Long, Coordinator> out = new HashMap<>();
        for (Map.Entry<String, TransactionDescription> e :
                admin.describeTransactions(ids.keySet()).all().get(WAIT_S, TimeUnit.SECONDS).entrySet()) {
            TransactionDescription d = e.getValue();
            out.put(d.producerId(), new Coordinator(e.getKey(), d.state(), d.producerEpoch()));
        }
        return out;
    }

    private static void end(Admin admin, Map<String, Object> kafkaConfig, Finding f, String companion,
                            TopicPartition anchor) throws ExecutionException, InterruptedException, TimeoutException {
        String where = f.open().stream().map(s -> s.partition() + " since offset " + s.openSince())
                .collect(Collectors.joining(", "));
        switch (f.action()) {
            case LEAVE, WAIT -> {
                return;
            }
            case REPORT -> {
                LOG.error("writer: transaction {} (producer id {}) is open on {}, and its coordinator's state is {}: "
                                + "the writer ends only what it can end one way everywhere. Until it is ended the "
                                + "writer may wait at start (UNSTABLE_OFFSET_COMMIT, or a restore that does not end). "
                                + "Kafka's tool aborts it partition by partition: kafka-transactions.sh abort --topic "
                                + "<topic> --partition <p> --start-offset <offset>",
                        f.transactionalId(), f.producerId(), where, f.state());
                return;
            }
            case ABORT -> {
                for (Seen s : f.open()) {
                    admin.abortTransaction(new AbortTransactionSpec(s.partition(), s.producerId(),
                            (short) s.producerEpoch(), s.coordinatorEpoch())).all().get(WAIT_S, TimeUnit.SECONDS);
                }
            }
            case COMMIT_OFFSETS -> commitOffsets(kafkaConfig, f.transactionalId(), companion, anchor);
        }
        String done = f.action() == Action.COMMIT_OFFSETS
                ? "committed its offsets with one more transaction of that id (offsets of group " + companion + ")"
                : f.state() == TransactionState.COMPLETE_ABORT ? "aborted it there, as its coordinator had"
                : "aborted it there (nothing of it was visible; its commands are decided again)";
        LOG.warn("writer: a broker restart left transaction {} (producer id {}) open on {} though its coordinator "
                + "recorded it {}; {}", f.transactionalId(), f.producerId(), where, f.state(), done);
    }

    /** One more transaction of {@code transactionalId}, holding an offset commit of {@code companion}, committed. */
    static void commitOffsets(Map<String, Object> kafkaConfig, String transactionalId, String companion,
                              TopicPartition anchor) {
        Map<String, Object> props = new HashMap<>(kafkaConfig);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, transactionalId + "-repair");
        try (KafkaProducer<byte[], byte[]> producer =
                     new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.sendOffsetsToTransaction(Map.of(anchor, new OffsetAndMetadata(0)),
                    new ConsumerGroupMetadata(companion));
            producer.commitTransaction();
        }
    }
}
