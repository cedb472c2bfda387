package io.eventplane.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.LogSerdes;
import io.eventplane.core.Keys;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.Command;
import io.eventplane.model.Pod;
import io.eventplane.schemas.Topics;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.apache.kafka.common.serialization.Deserializer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code bench writer}'s prepared commands: copies of one encoded create that decode as that many distinct creates. */
class WriterBenchPreparedCommandsTest {
    private final EventplaneConfig config = new EventplaneConfig("localhost:1",
            "mock://bench-" + UUID.randomUUID(), new Topics("bench"), 1);

    @Test
    @DisplayName("every prepared record decodes as the create it stands for: its own name, key and request id")
    void everyRecordDecodesAsItsCreate() {
        Commands build = new Commands("bench");
        WriterBench.PreparedCommands prepared = WriterBench.PreparedCommands.of(config, build, "tp1-", 1_000);
        Command reference = build.create(BenchCommand.pod("tp1-0000000"));
        Set<String> requestIds = new HashSet<>();
        try (Deserializer<Command> decoder = LogSerdes.commands(config).deserializer()) {
            for (int i = 0; i < prepared.size(); i++) {
                Command c = decoder.deserialize(config.topics().commands(), prepared.values[i]);
                String name = String.format("tp1-%07d", i);
                assertEquals(name, c.getName());
                Pod pod = (Pod) c.getObject();
                assertEquals(name, ObjectAccess.meta(pod).getName());
                assertEquals(Keys.of("Pod", "default", name), new String(prepared.keys[i], StandardCharsets.UTF_8));
                requestIds.add(c.getEnvelope().getRequestId());
                // apart from the name and the request id, the create is the one the bench would build
                assertEquals(reference.getVerb(), c.getVerb());
                assertEquals(reference.getEnvelope().getActor(), c.getEnvelope().getActor());
                assertEquals(BenchCommand.pod(name), pod);
            }
        }
        assertEquals(prepared.size(), requestIds.size());
        assertArrayEquals("Pod/default/tp1-".getBytes(StandardCharsets.UTF_8), prepared.keyPrefix);
    }

    @ParameterizedTest(name = "{0} written as {1} digits is {2}")
    @CsvSource({"0, 7, 0000000", "42, 7, 0000042", "9999999, 7, 9999999", "123, 3, 123", "7, 12, 000000000007"})
    void writesFixedWidthNumbers(long value, int width, String expected) {
        byte[] bytes = ("<" + "x".repeat(width) + ">").getBytes(StandardCharsets.US_ASCII);
        WriterBench.PreparedCommands.writeNumber(bytes, 1, width, value);
        assertEquals("<" + expected + ">", new String(bytes, StandardCharsets.US_ASCII));
    }

    @ParameterizedTest(name = "{1} occurs in {0} at {2}")
    @CsvSource(delimiter = ';', value = {"abcabc; abc; 0 3", "aaaa; aa; 0 2", "xyz; q; ''", "tp1-tp1-; tp1-; 0 4"})
    void findsEveryOccurrence(String bytes, String part, String expected) {
        int[] at = WriterBench.PreparedCommands.occurrences(bytes.getBytes(StandardCharsets.UTF_8),
                part.getBytes(StandardCharsets.UTF_8));
        StringBuilder s = new StringBuilder();
        for (int i : at) {
            s.append(s.length() == 0 ? "" : " ").append(i);
        }
        assertEquals(expected, s.toString());
    }
}
