package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.testkit.EmbeddedKafka;
import io.eventplane.topology.HangingTransactions.Action;
import io.eventplane.topology.HangingTransactions.Finding;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real broker on the data a real crash left. Each fixture under {@code src/test/resources} is the log directory of
 * {@code eventplane up}'s broker after a kill -9 during a writer commit (the fault suite's whole-cluster kill), started
 * once and stopped cleanly, so it holds what the restart left; only the partitions the test reads are kept (the
 * broker recreates the others empty):
 * <ul>
 *   <li>{@code broker-after-kill-9}: killed just after PrepareCommit; on the restart the coordinator found every
 *       partition leaderless and recorded the transaction CompleteCommit without a single marker, so it is open on
 *       {@code __consumer_offsets-0}, the events, the outcomes and the store's changelog;
 *   <li>{@code broker-after-kill-9-reinitialized}: the commit's data markers were written before the kill, the
 *       offsets' marker was lost on the restart, and then a writer (before this fix) initialized the same
 *       transactional id, so the coordinator's state is Empty: how that transaction ended is no longer known.
 * </ul>
 */
class HangingTransactionsBrokerTest {
    static final String GROUP = "ep-writer";
    static final TopicPartition COMMANDS = new TopicPartition("ep.commands", 0);
    static final List<String> OUTPUTS = List.of("ep.events", "ep.outcomes", "ep.dlq", "ep.definitions",
            "ep-writer-objects-changelog");
    static final List<TopicPartition> DATA = List.of(new TopicPartition("ep.events", 0),
            new TopicPartition("ep.outcomes", 0), new TopicPartition("ep-writer-objects-changelog", 0));

    /** The lost transaction's offset commit in {@code broker-after-kill-9-reinitialized} (kafka-dump-log). */
    static final long LOST_COMMIT_OFFSET = 575;

    @TempDir
    Path dir;

    @Test
    @DisplayName("a commit whose every marker the restarted broker dropped: nothing of it visible, so it is aborted "
            + "everywhere it is open, and the group's offsets and every partition's committed end are readable again")
    void aCommitWithEveryMarkerLostIsAbortedEverywhere() throws Exception {
        copyFixture("broker-after-kill-9", dir);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(dir).build().start();
             Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
            Map<String, Object> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
            assertThrows(TimeoutException.class, () -> committed(client, Duration.ofSeconds(5)),
                    "the group's offsets are pending (UNSTABLE_OFFSET_COMMIT)");
            for (TopicPartition tp : DATA) {
                assertTrue(committedEnd(admin, tp) < end(admin, tp), tp + ": read_committed readers stop short");
            }

            List<Finding> found = HangingTransactions.repair(client, GROUP, OUTPUTS, COMMANDS);

            assertEquals(1, found.size(), found.toString());
            Finding f = found.get(0);
            assertTrue(f.transactionalId().startsWith("ep-writer-"), f.transactionalId());
            assertEquals(TransactionState.COMPLETE_COMMIT, f.state());
            assertEquals(Action.ABORT, f.action());
            assertEquals(4, f.open().size(), "open on the offsets, events, outcomes and changelog partitions");
            assertNotNull(committed(client, Duration.ofSeconds(30)), "the offsets before the lost commit are readable");
            for (TopicPartition tp : DATA) {
                assertEquals(end(admin, tp), committedEnd(admin, tp), tp + ": its committed end is its end again");
            }
            assertEquals(List.of(), HangingTransactions.repair(client, GROUP, OUTPUTS, COMMANDS),
                    "a second look finds nothing");
        }
    }

    @Test
    @DisplayName("a lost offsets marker whose transaction's end the coordinator no longer knows (state Empty) is "
            + "reported, not guessed: the offsets stay pending")
    void aTransactionWhoseEndIsUnknownIsReportedNotGuessed() throws Exception {
        copyFixture("broker-after-kill-9-reinitialized", dir);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(dir).build().start()) {
            Map<String, Object> client = Map.of("bootstrap.servers", kafka.bootstrapServers());

            List<Finding> found = HangingTransactions.repair(client, GROUP, OUTPUTS, COMMANDS);

            assertEquals(1, found.size(), found.toString());
            assertEquals(TransactionState.EMPTY, found.get(0).state());
            assertEquals(Action.REPORT, found.get(0).action());
            assertThrows(TimeoutException.class, () -> committed(client, Duration.ofSeconds(3)),
                    "left as it was");
        }
    }

    @Test
    @DisplayName("one more transaction of the lost one's id, with an offset commit of a companion group, commits the "
            + "lost transaction's pending offsets: what the writer does for a commit whose offsets' marker alone was lost")
    void aCompanionCommitSettlesTheLostOffsets() throws Exception {
        // In this fixture the lost commit's data markers were written before the kill (its events are committed), so
        // committing its offsets is its right end; the writer leaves it only because the coordinator forgot it.
        copyFixture("broker-after-kill-9-reinitialized", dir);
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(dir).build().start()) {
            Map<String, Object> client = Map.of("bootstrap.servers", kafka.bootstrapServers());
            String id = HangingTransactions.repair(client, GROUP, OUTPUTS, COMMANDS).get(0).transactionalId();

            HangingTransactions.commitOffsets(client, id, HangingTransactions.companionGroup(GROUP, 0, 1), COMMANDS);

            assertEquals(LOST_COMMIT_OFFSET, committed(client, Duration.ofSeconds(30)).offset(),
                    "the offset the lost transaction committed (575), not the one before it (551)");
        }
    }

    @Test
    @DisplayName("a cluster where no group ever committed (no __consumer_offsets topic): nothing to look at")
    void aNewClusterHasNothingToEnd() {
        try (EmbeddedKafka kafka = EmbeddedKafka.builder().logDir(dir).build().start()) {
            assertEquals(List.of(), HangingTransactions.repair(
                    Map.of("bootstrap.servers", kafka.bootstrapServers()), GROUP, OUTPUTS, COMMANDS));
        }
    }

    /** The writer group's committed offset of the commands partition, read as the writer reads it. */
    static OffsetAndMetadata committed(Map<String, Object> client, Duration timeout) {
        Map<String, Object> props = new HashMap<>(client);
        props.put("group.id", GROUP);
        props.put("isolation.level", "read_committed");
        props.put("enable.auto.commit", false);
        try (KafkaConsumer<byte[], byte[]> c =
                     new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            return c.committed(Set.of(COMMANDS), timeout).get(COMMANDS);
        }
    }

    static long end(Admin admin, TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get(30, TimeUnit.SECONDS)
                .offset();
    }

    /** How far a read_committed reader gets: the last stable offset. */
    static long committedEnd(Admin admin, TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest()), new ListOffsetsOptions(IsolationLevel.READ_COMMITTED))
                .partitionResult(tp).get(30, TimeUnit.SECONDS).offset();
    }

    static void copyFixture(String name, Path target) throws IOException, URISyntaxException {
        Path source = Path.of(HangingTransactionsBrokerTest.class.getResource("/" + name + "/meta.properties").toURI())
                .getParent();
        try (Stream<Path> files = Files.walk(source)) {
            files.forEach(p -> {
                try {
                    Path to = target.resolve(source.relativize(p).toString());
                    if (Files.isDirectory(p)) {
                        Files.createDirectories(to);
                    } else {
                        Files.copy(p, to);
                    }
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
