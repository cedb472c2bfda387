package io.eventplane.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CommitPacingTest {

    /**
     * Fresh commands decided at the given times (ms), each handled as WriterProcessor does: a commit at once when due,
     * otherwise one deferred commit at its due time (run before any command that comes after it). Returns when commits
     * happened and how many commands each carried, "t:n" each.
     */
    private static List<String> run(long... times) {
        CommitPacing pacing = new CommitPacing();
        List<String> commits = new ArrayList<>();
        long deferred = -1;
        int open = 0;
        for (long now : times) {
            if (deferred >= 0 && deferred <= now) {
                pacing.committed(deferred);
                commits.add(deferred + ":" + open);
                open = 0;
                deferred = -1;
            }
            pacing.decided();
            open++;
            long due = pacing.commitDue(now);
            if (due == now) {
                pacing.committed(now);
                commits.add(now + ":" + open);
                open = 0;
                deferred = -1;
            } else if (deferred < 0) {
                deferred = due;
            }
        }
        if (deferred >= 0) {
            commits.add(deferred + ":" + open);
        }
        return commits;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a lone command commits at once                                     | 1000                          | 1000:1
            one after the other, 8 ms apart: each at once (the tick is 5 ms)   | 1000 1008 1016                | 1000:1 1008:1 1016:1
            one after the other, 3 ms apart: each waits for the 5 ms tick      | 1000 1003 1006                | 1000:1 1005:1 1010:1
            two in one tick: they share its end, and the tick grows to 20 ms   | 1000 1001 1002 1006 1007      | 1000:1 1005:2 1025:2
            after a busy tick, a quiet one shortens it again                   | 1000 1001 1002 1030 1060 1068 | 1000:1 1005:2 1030:1 1060:1 1068:1
            a steady 1 per ms keeps the 20 ms tick                             | 1000 1001 1002 1003 1004 1005 1006 1010 1020 1024 1025 1026 | 1000:1 1005:4 1025:5 1045:2
            """)
    @DisplayName("when a fresh command's transaction commits")
    void pacing(String scenario, String times, String expected) {
        long[] t = Arrays.stream(times.trim().split(" +")).mapToLong(Long::parseLong).toArray();
        assertEquals(List.of(expected.trim().split(" +")), run(t), scenario);
    }

    @Test
    @DisplayName("the tick is 5 ms after a commit of one command and 20 ms after one of several")
    void tick() {
        CommitPacing pacing = new CommitPacing();
        assertEquals(CommitPacing.QUIET_TICK_MS, pacing.tick());
        pacing.decided();
        pacing.decided();
        pacing.committed(0);
        assertEquals(CommitPacing.TICK_MS, pacing.tick());
        pacing.decided();
        pacing.committed(20);
        assertEquals(CommitPacing.QUIET_TICK_MS, pacing.tick());
        pacing.committed(40); // a commit that carried nothing (a deferred one whose commands went with an earlier one)
        assertEquals(CommitPacing.QUIET_TICK_MS, pacing.tick());
    }
}
