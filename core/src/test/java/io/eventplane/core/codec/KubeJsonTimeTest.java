package io.eventplane.core.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.eventplane.model.Event;
import io.eventplane.model.Pod;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("Timestamps")
class KubeJsonTimeTest {
    private final KubeJson codec = KubeJson.get();

    private Pod podCreatedAt(String time) {
        return codec.parseObject(Fixtures.utf8("{\"metadata\":{\"creationTimestamp\":\"" + time + "\"}}"),
                Pod.class, FieldValidation.STRICT, null);
    }

    @ParameterizedTest(name = "{0} is {1}")
    @CsvSource({
            "2026-11-21T10:00:00Z,          2026-11-21T10:00:00Z",
            "2026-11-21T11:30:00+01:30,     2026-11-21T10:00:00Z",
            "2026-11-21T05:00:00-05:00,     2026-11-21T10:00:00Z",
            "2026-11-21T10:00:00.5Z,        2026-11-21T10:00:00.500Z",
            "2026-11-21T10:00:00.123456789Z, 2026-11-21T10:00:00.123Z",
            "2026-11-21t10:00:00z,          2026-11-21T10:00:00Z",
            "2026-02-28T23:59:59.999+00:00, 2026-02-28T23:59:59.999Z",
    })
    @DisplayName("RFC3339 with offsets and fractions is read, kept to the millisecond")
    void rfc3339Variants(String text, String instant) {
        assertEquals(Instant.parse(instant), podCreatedAt(text).getMetadata().getCreationTimestamp());
    }

    @Test
    @DisplayName("metav1.Time is written in UTC to the second")
    void timeIsWrittenToTheSecond() {
        Pod pod = podCreatedAt("2026-11-21T11:00:00.987+01:00");
        assertEquals("2026-11-21T10:00:00Z", codec.encode(pod).get("metadata").get("creationTimestamp").textValue());
    }

    @ParameterizedTest(name = "\"{0}\" is rejected")
    @ValueSource(strings = {"2026-11-21T10:00:00", "2026-11-21T10:00Z", "2026-11-21", "2026-11-21 10:00:00Z",
            "2026-02-30T10:00:00Z", "2026-11-21T25:00:00Z", "2026-11-21T10:00:00+0100", "",
            "2026-11-21T10:00:00.Z", "2026-11-21T10:00:60Z", "2026-11-21T10:00:00+24:00", "2026-11-21T10:00:00.1234567890Z",
            "2026-11-21T10:00:00Zjunk", "2O26-11-21T10:00:00Z"})
    @DisplayName("anything that is not RFC3339 is a type error at the field's path")
    void nonRfc3339IsRejected(String text) {
        DecodeException e = assertThrows(DecodeException.class, () -> podCreatedAt(text));
        assertEquals(List.of(new FieldError("metadata.creationTimestamp",
                "expected RFC3339 time (e.g. \"2026-11-21T10:00:00Z\"), got string \"" + text + "\"")), e.errors());
    }

    @Test
    @DisplayName("MicroTime keeps and writes six fraction digits")
    void microTime() {
        Event event = codec.parseObject(Fixtures.utf8("""
                {"eventTime":"2026-11-21T12:00:00.123456789+02:00","series":{"count":2,"lastObservedTime":"2026-11-21T10:00:01Z"}}"""),
                Event.class, FieldValidation.STRICT, null);
        assertEquals(Instant.parse("2026-11-21T10:00:00.123456Z"), event.getEventTime());
        assertEquals("2026-11-21T10:00:00.123456Z", codec.encode(event).get("eventTime").textValue());
        assertEquals("2026-11-21T10:00:01.000000Z", codec.encode(event).get("series").get("lastObservedTime").textValue());
    }

    @Test
    @DisplayName("a Time prints as the RFC 3339 formatter prints it, from year 0 to 9999 and beyond")
    void timePrintsAsTheFormatter() {
        java.time.format.DateTimeFormatter formatter = java.time.format.DateTimeFormatter
                .ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(java.time.ZoneOffset.UTC);
        java.util.Random random = new java.util.Random(21);
        long min = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long max = Instant.parse("+12000-01-01T00:00:00Z").getEpochSecond();
        for (int i = 0; i < 20_000; i++) {
            Instant t = Instant.ofEpochSecond(min + (long) (random.nextDouble() * (max - min)), random.nextInt(1_000_000_000));
            assertEquals(formatter.format(t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)), KubeTime.formatTime(t));
        }
        assertEquals("1970-01-01T00:00:00Z", KubeTime.formatTime(Instant.EPOCH));
        assertEquals("1969-12-31T23:59:59Z", KubeTime.formatTime(Instant.ofEpochMilli(-1)));
        assertEquals("9999-12-31T23:59:59Z", KubeTime.formatTime(Instant.parse("9999-12-31T23:59:59.999Z")));
    }
}
