package io.eventplane.core.cron;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Next activation times of tricky schedules, as Kubernetes' parser (robfig/cron v3) computes them: each expected time
 * follows from robfig's rules (its parser's star bit, its Next walking the wall clock), worked out by hand. The rows
 * marked "not cron-utils" are where com.cronutils 9.2.1 (UNIX or a custom 0-6 definition) answers otherwise or
 * refuses the schedule, which is why this parser stays our own. 2026-01-01 is a Thursday.
 */
class CronScheduleTest {

    static Stream<Arguments> nextTimes() {
        return Stream.of(
                Arguments.of("CJ-07 every minute, from mid-minute", "*/1 * * * *", "UTC", "2026-01-01T08:30:30Z",
                        "2026-01-01T08:31:00Z 2026-01-01T08:32:00Z"),
                Arguments.of("CJ-06 AC-CJ-03 Friday or the 13th", "0 0 13 * 5", "UTC", "2026-01-01T00:00:00Z",
                        "2026-01-02T00:00:00Z 2026-01-09T00:00:00Z 2026-01-13T00:00:00Z 2026-01-16T00:00:00Z"),
                Arguments.of("CJ-06 AC-CJ-03 Friday the 13th fires once", "0 0 13 * 5", "UTC", "2026-02-12T00:00:00Z",
                        "2026-02-13T00:00:00Z 2026-02-20T00:00:00Z"),
                Arguments.of("CJ-06 */2 restricts day-of-month (odd days or Mondays)", "0 0 */2 * 1", "UTC",
                        "2026-01-01T00:00:00Z", "2026-01-03T00:00:00Z 2026-01-05T00:00:00Z 2026-01-07T00:00:00Z"),
                Arguments.of("CJ-06 */1 is a star (Mondays only)", "0 0 */1 * 1", "UTC", "2026-01-01T00:00:00Z",
                        "2026-01-05T00:00:00Z 2026-01-12T00:00:00Z"),
                Arguments.of("CJ-06 ? is a star (Mondays only)", "0 0 ? * MON", "UTC", "2026-01-01T00:00:00Z",
                        "2026-01-05T00:00:00Z"),
                Arguments.of("CJ-06 the 1st or Mondays", "0 0 1 * MON", "UTC", "2026-01-26T00:00:00Z",
                        "2026-02-01T00:00:00Z 2026-02-02T00:00:00Z"),
                Arguments.of("CJ-X07 month names and ? (not cron-utils)", "0 0 1 jan,jul ?", "UTC", "2026-01-01T00:00:00Z",
                        "2026-07-01T00:00:00Z 2027-01-01T00:00:00Z"),
                Arguments.of("CJ-X07 a range of day names", "30 8 * * MON-FRI", "UTC", "2026-01-02T09:00:00Z",
                        "2026-01-05T08:30:00Z"),
                Arguments.of("CJ-04 N/step runs to the maximum", "7/15 * * * *", "UTC", "2026-01-01T00:00:00Z",
                        "2026-01-01T00:07:00Z 2026-01-01T00:22:00Z 2026-01-01T00:37:00Z 2026-01-01T00:52:00Z 2026-01-01T01:07:00Z"),
                Arguments.of("CJ-04 a stepped range", "5-55/25 */12 * * *", "UTC", "2026-01-01T00:30:00Z",
                        "2026-01-01T00:55:00Z 2026-01-01T12:05:00Z"),
                Arguments.of("CJ-04 empty list elements are skipped (not cron-utils)", "1,,2 * * * *", "UTC",
                        "2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z 2026-01-01T00:02:00Z 2026-01-01T01:01:00Z"),
                Arguments.of("CJ-04 ? in every field (not cron-utils)", "? ? ? ? ?", "UTC", "2026-01-01T00:00:00Z",
                        "2026-01-01T00:01:00Z"),
                Arguments.of("CJ-04 the last minute of the year", "59 23 31 12 *", "UTC", "2026-12-31T23:59:00Z",
                        "2027-12-31T23:59:00Z"),
                Arguments.of("CJ-04 a leap day", "0 0 29 2 *", "UTC", "2026-01-01T00:00:00Z", "2028-02-29T00:00:00Z"),
                Arguments.of("CJ-05 @weekly is Sunday midnight", "@weekly", "UTC", "2026-01-01T00:00:00Z",
                        "2026-01-04T00:00:00Z 2026-01-11T00:00:00Z"),
                Arguments.of("CJ-05 @every counts from the second", "@every 1h30m", "UTC", "2026-01-01T00:00:00.500Z",
                        "2026-01-01T01:30:00Z 2026-01-01T03:00:00Z"),
                Arguments.of("AC-CJ-09 09:00 at UTC+2 is 07:00 UTC", "0 9 * * *", "+02:00", "2026-01-01T00:00:00Z",
                        "2026-01-01T07:00:00Z 2026-01-02T07:00:00Z"),
                Arguments.of("CJ-X04 a TZ= prefix sets the zone", "TZ=Europe/Berlin 0 9 * * *", "UTC", "2026-01-01T00:00:00Z",
                        "2026-01-01T08:00:00Z"),
                Arguments.of("CJ-X04 spring forward: 02:30 does not exist that day", "30 2 * * *", "America/New_York",
                        "2026-03-08T05:00:00Z", "2026-03-09T06:30:00Z"),
                Arguments.of("CJ-X04 spring forward: hourly goes from 01:00 EST to 03:00 EDT", "0 * * * *", "America/New_York",
                        "2026-03-08T06:00:00Z", "2026-03-08T07:00:00Z 2026-03-08T08:00:00Z"),
                Arguments.of("CJ-X04 fall back: 01:30 happens twice and fires twice (not cron-utils)", "30 1 * * *",
                        "America/New_York", "2026-11-01T04:00:00Z",
                        "2026-11-01T05:30:00Z 2026-11-01T06:30:00Z 2026-11-02T06:30:00Z"));
    }

    @ParameterizedTest(name = "{0}: \"{1}\" in {2} after {3}")
    @MethodSource("nextTimes")
    void nextTimes(String name, String schedule, String zone, String from, String expected) {
        CronSchedule s = CronSchedule.parse(schedule);
        List<String> got = new ArrayList<>();
        Instant t = Instant.parse(from);
        for (int i = 0; i < expected.split(" ").length; i++) {
            t = s.next(t, ZoneId.of(zone));
            got.add(t.toString());
        }
        assertEquals(Arrays.asList(expected.split(" ")), got);
    }

    @Test
    @DisplayName("CJ-04 a schedule that never fires (30 February) has no next time")
    void neverFires() {
        assertNull(CronSchedule.parse("0 0 30 2 *").next(Instant.parse("2026-01-01T00:00:00Z"), ZoneId.of("UTC")));
    }

    @Test
    @DisplayName("CJ-05 AC-CJ-02 each macro fires at the times of its expansion, all year")
    void macrosAcrossAYear() {
        String[][] pairs = {{"@yearly", "0 0 1 1 *"}, {"@annually", "0 0 1 1 *"}, {"@monthly", "0 0 1 * *"},
                {"@weekly", "0 0 * * 0"}, {"@daily", "0 0 * * *"}, {"@midnight", "0 0 * * *"}, {"@hourly", "0 * * * *"}};
        ZoneId utc = ZoneId.of("UTC");
        Instant end = Instant.parse("2027-01-01T00:00:00Z");
        for (String[] pair : pairs) {
            CronSchedule macro = CronSchedule.parse(pair[0]);
            CronSchedule expanded = CronSchedule.parse(pair[1]);
            Instant a = Instant.parse("2025-12-31T23:59:59Z");
            Instant b = a;
            int n = 0;
            while (a != null && a.isBefore(end)) {
                a = macro.next(a, utc);
                b = expanded.next(b, utc);
                assertEquals(b, a, pair[0] + " after " + n + " firings");
                n++;
            }
            assertEquals(switch (pair[0]) {
                case "@yearly", "@annually" -> 2;
                case "@monthly" -> 13;
                case "@weekly" -> 53;
                case "@daily", "@midnight" -> 366;
                default -> 8761;
            }, n, pair[0]);
        }
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("", "empty spec string"),
                Arguments.of("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
                Arguments.of("0 0 * * * *", "expected exactly 5 fields, found 6: [0 0 * * * *]"),
                Arguments.of("60 * * * *", "end of range (60) above maximum (59): 60"),
                Arguments.of("0 0 0 * *", "beginning of range (0) below minimum (1): 0"),
                Arguments.of("0 0 * * 7", "end of range (7) above maximum (6): 7"),
                Arguments.of("0 0 * * 5-1", "beginning of range (5) beyond end of range (1): 5-1"),
                Arguments.of("*/0 * * * *", "step of range should be a positive number: */0"),
                Arguments.of("1-2-3 * * * *", "too many hyphens: 1-2-3"),
                Arguments.of("*/2/3 * * * *", "too many slashes: */2/3"),
                Arguments.of("often * * * *", "failed to parse int from often: strconv.Atoi: parsing \"often\": invalid syntax"),
                Arguments.of("0 0 L * *", "failed to parse int from L: strconv.Atoi: parsing \"L\": invalid syntax"),
                Arguments.of("@Hourly", "unrecognized descriptor: @Hourly"),
                Arguments.of("@fortnightly", "unrecognized descriptor: @fortnightly"),
                Arguments.of("@every often", "failed to parse duration @every often: time: invalid duration \"often\""),
                Arguments.of("CRON_TZ=Mars/Olympus 0 * * * *", "provided bad location Mars/Olympus: unknown time zone Mars/Olympus"));
    }

    @ParameterizedTest(name = "CJ-04 CJ-X07 \"{0}\" is refused: {1}")
    @MethodSource("refused")
    void refused(String schedule, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> CronSchedule.parse(schedule)).getMessage());
    }
}
