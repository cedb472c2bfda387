package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.eventplane.topology.HangingTransactions.Action;
import io.eventplane.topology.HangingTransactions.Coordinator;
import io.eventplane.topology.HangingTransactions.Finding;
import io.eventplane.topology.HangingTransactions.Seen;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rules that pick which open transactions a starting writer ends, and how. */
class HangingTransactionsTest {
    static final String ID = "ep-writer-6a907086-ddbb-4f56-a2c2-b4306b946214-1";
    static final TopicPartition OFFSETS = new TopicPartition("__consumer_offsets", 0);
    static final TopicPartition EVENTS = new TopicPartition("ep.events", 0);
    static final TopicPartition CHANGELOG = new TopicPartition("ep-writer-objects-changelog", 0);

    static Seen open(TopicPartition tp, int epoch, long since) {
        return new Seen(tp, 1, epoch, since, 0);
    }

    static Seen closed(TopicPartition tp, int epoch) {
        return new Seen(tp, 1, epoch, -1, 0);
    }

    static Coordinator coordinator(TransactionState state, int epoch) {
        return new Coordinator(ID, state, epoch);
    }

    @ParameterizedTest(name = "coordinator state {0}: {1}")
    @CsvSource({
        "ONGOING, LEAVE",
        "PREPARE_COMMIT, WAIT",
        "PREPARE_ABORT, WAIT",
        "PREPARE_EPOCH_FENCE, WAIT",
        "COMPLETE_ABORT, ABORT",
        "EMPTY, REPORT",
        "UNKNOWN, REPORT",
    })
    void theCoordinatorsStateSaysWhatToDo(TransactionState state, Action action) {
        assertEquals(action, HangingTransactions.decide(coordinator(state, 108),
                List.of(open(OFFSETS, 107, 233), open(EVENTS, 107, 650)), List.of(), OFFSETS));
    }

    @Test
    void committedWithItsDataVisibleAndOnlyItsOffsetsOpenItsOffsetsAreCommitted() {
        // the data partitions got the commit marker (epoch 108) before the kill; the offsets' marker was lost
        assertEquals(Action.COMMIT_OFFSETS, HangingTransactions.decide(coordinator(TransactionState.COMPLETE_COMMIT, 108),
                List.of(open(OFFSETS, 107, 233)), List.of(closed(EVENTS, 108), closed(CHANGELOG, 108)), OFFSETS));
    }

    @Test
    void committedWithNothingVisibleItIsAbortedEverywhere() {
        // every marker lost: no partition shows the producer past the transaction's epoch
        assertEquals(Action.ABORT, HangingTransactions.decide(coordinator(TransactionState.COMPLETE_COMMIT, 106),
                List.of(open(OFFSETS, 105, 228), open(EVENTS, 105, 600), open(CHANGELOG, 105, 590)),
                List.of(closed(new TopicPartition("ep.dlq", 0), 101)), OFFSETS));
    }

    @Test
    void committedWithSomeDataMarkedAndSomeNotItIsReported() {
        assertEquals(Action.REPORT, HangingTransactions.decide(coordinator(TransactionState.COMPLETE_COMMIT, 106),
                List.of(open(OFFSETS, 105, 228), open(CHANGELOG, 105, 590)), List.of(closed(EVENTS, 106)), OFFSETS));
    }

    @Test
    void committedWithoutAnEpochBumpVisibilityCannotBeToldSoItIsReported() {
        // transactions V1: markers carry the transaction's own epoch
        assertEquals(Action.REPORT, HangingTransactions.decide(coordinator(TransactionState.COMPLETE_COMMIT, 105),
                List.of(open(OFFSETS, 105, 228), open(EVENTS, 105, 600)), List.of(), OFFSETS));
    }

    @Test
    void aTransactionOpenTheSameOnBothLooksIsFound() {
        List<Seen> seen = List.of(open(OFFSETS, 107, 233), closed(EVENTS, 108));
        List<Finding> found = HangingTransactions.findings(seen, seen,
                Map.of(1L, coordinator(TransactionState.COMPLETE_COMMIT, 108)), "ep-writer-", OFFSETS);
        assertEquals(List.of(new Finding(ID, 1, TransactionState.COMPLETE_COMMIT, Action.COMMIT_OFFSETS,
                List.of(open(OFFSETS, 107, 233)))), found);
    }

    @Test
    void aTransactionThatMovedOnBetweenTheTwoLooksIsLive() {
        Map<Long, Coordinator> committed = Map.of(1L, coordinator(TransactionState.COMPLETE_COMMIT, 108));
        // a live writer's next transaction: another first offset, or none open, a second later
        assertEquals(List.of(), HangingTransactions.findings(List.of(open(OFFSETS, 107, 233)),
                List.of(open(OFFSETS, 108, 240)), committed, "ep-writer-", OFFSETS));
        assertEquals(List.of(), HangingTransactions.findings(List.of(open(OFFSETS, 107, 233)),
                List.of(closed(OFFSETS, 108)), committed, "ep-writer-", OFFSETS));
    }

    @Test
    void anotherApplicationsTransactionIsNotTouched() {
        List<Seen> seen = List.of(open(OFFSETS, 3, 10));
        assertEquals(List.of(), HangingTransactions.findings(seen, seen,
                Map.of(1L, new Coordinator("billing-1", TransactionState.COMPLETE_COMMIT, 4)), "ep-writer-", OFFSETS));
    }

    @Test
    void oneNoCoordinatorListsYetIsLookedAtAgain() {
        // just after a broker restart the transaction coordinator may still be loading its log
        List<Seen> seen = List.of(open(OFFSETS, 3, 10));
        assertEquals(List.of(new Finding("?", 1, TransactionState.UNKNOWN, Action.WAIT, seen)),
                HangingTransactions.findings(seen, seen, Map.of(), "ep-writer-", OFFSETS));
    }

    @Test
    void producersWithNothingOpenAreNotFindings() {
        List<Seen> seen = List.of(closed(OFFSETS, 108), closed(EVENTS, 108));
        assertEquals(List.of(), HangingTransactions.findings(seen, seen,
                Map.of(1L, coordinator(TransactionState.COMPLETE_COMMIT, 108)), "ep-writer-", OFFSETS));
    }

    @ParameterizedTest(name = "group {0} with {1} offsets partitions")
    @CsvSource({"ep-writer, 1", "ep-writer, 50", "test-7f3a-writer, 50", "ep-writer, 7"})
    void theCompanionGroupsOffsetsLiveInTheSamePartition(String group, int partitions) {
        int partition = HangingTransactions.offsetsPartition(group, partitions);
        String companion = HangingTransactions.companionGroup(group, partition, partitions);
        assertNotEquals(group, companion);
        assertEquals(partition, HangingTransactions.offsetsPartition(companion, partitions));
    }
}
