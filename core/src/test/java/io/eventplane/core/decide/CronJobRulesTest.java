package io.eventplane.core.decide;

import static io.eventplane.core.decide.Decisions.example;
import static io.eventplane.core.decide.Decisions.json;
import static io.eventplane.core.decide.Decisions.merge;
import static io.eventplane.core.decide.Decisions.rejected;
import static io.eventplane.core.decide.Decisions.yaml;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.core.cron.CronSchedule;
import io.eventplane.model.CronJob;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** CronJob defaulting and validation (workloads.md §8.1, §8.2, §8.5). */
class CronJobRulesTest {
    private final Decisions decisions = new Decisions();
    private static final CronJob HELLO = example(CronJob.class, "corrected/cronjob-hello.yaml");

    @Test
    @DisplayName("CJ-X01 CJ-X02 CJ-X03 hello gets concurrencyPolicy Allow, suspend false, history limits 3 and 1; "
            + "its job template only the pod defaults")
    void cronJobDefaults() {
        CronJob cj = decisions.created(HELLO);
        assertEquals("Allow", cj.getSpec().getConcurrencyPolicy());
        assertEquals(false, cj.getSpec().getSuspend());
        assertEquals(3, cj.getSpec().getSuccessfulJobsHistoryLimit());
        assertEquals(1, cj.getSpec().getFailedJobsHistoryLimit());
        assertEquals(yaml("""
                template:
                  spec:
                    containers:
                    - name: hello
                      image: busybox
                      imagePullPolicy: IfNotPresent
                      command: [/bin/sh, -c, date; echo Hello from the Kubernetes cluster]
                      terminationMessagePath: /dev/termination-log
                      terminationMessagePolicy: File
                    restartPolicy: OnFailure
                    terminationGracePeriodSeconds: 30
                    dnsPolicy: ClusterFirst
                    schedulerName: default-scheduler
                """), json(cj.getSpec().getJobTemplate().getSpec()));
        assertEquals(yaml("{}"), json(cj.getStatus()));
    }

    @ParameterizedTest(name = "CJ-04 CJ-05 CJ-07 CJ-X07 the schedule \"{0}\" is accepted")
    @ValueSource(strings = {"*/1 * * * *", "@hourly", "@yearly", "0 0 13 * 5", "30 8 * * MON-FRI", "0 0 1,15 jan,jul ?",
            "5-55/10 */2 * * 0", "@every 1h30m"})
    void validSchedules(String schedule) {
        CronJob cj = merge(HELLO, "{spec: {schedule: '" + schedule + "'}}");
        assertTrue(decisions.create(cj).outcome().getAccepted(), () -> decisions.create(cj).outcome().getMessage());
    }

    static Stream<Arguments> invalidCronJobs() {
        return Stream.of(
                Arguments.of("CJ-04 a schedule of four fields", "{spec: {schedule: '* * * *'}}",
                        "spec.schedule: Invalid value: \"* * * *\": expected exactly 5 fields, found 4: [* * * *]"),
                Arguments.of("CJ-04 minute 60", "{spec: {schedule: '60 * * * *'}}",
                        "spec.schedule: Invalid value: \"60 * * * *\": end of range (60) above maximum (59): 60"),
                Arguments.of("CJ-X07 day-of-week 7", "{spec: {schedule: '0 0 * * 7'}}",
                        "spec.schedule: Invalid value: \"0 0 * * 7\": end of range (7) above maximum (6): 7"),
                Arguments.of("CJ-05 an unknown macro", "{spec: {schedule: '@fortnightly'}}",
                        "spec.schedule: Invalid value: \"@fortnightly\": unrecognized descriptor: @fortnightly"),
                Arguments.of("CJ-04 a word where a number belongs", "{spec: {schedule: 'often * * * *'}}",
                        "spec.schedule: Invalid value: \"often * * * *\": failed to parse int from often: strconv.Atoi: "
                                + "parsing \"often\": invalid syntax"),
                Arguments.of("CJ-04 no schedule", "{spec: {schedule: null}}", "spec.schedule: Required value"),
                Arguments.of("CJ-X04 a TZ prefix in the schedule", "{spec: {schedule: 'CRON_TZ=UTC 0 * * * *'}}",
                        "spec.schedule: Invalid value: \"CRON_TZ=UTC 0 * * * *\": cannot use TZ or CRON_TZ in schedule, "
                                + "use timeZone field instead"),
                Arguments.of("CJ-X04 an unknown time zone", "{spec: {timeZone: Mars/Olympus}}",
                        "spec.timeZone: Invalid value: \"Mars/Olympus\": unknown time zone Mars/Olympus"),
                Arguments.of("CJ-X01 an unknown concurrencyPolicy", "{spec: {concurrencyPolicy: Sometimes}}",
                        "spec.concurrencyPolicy: Unsupported value: \"Sometimes\": supported values: \"Allow\", \"Forbid\", \"Replace\""),
                Arguments.of("CJ-X03 a negative history limit", "{spec: {failedJobsHistoryLimit: -1}}",
                        "spec.failedJobsHistoryLimit: Invalid value: -1: must be greater than or equal to 0"),
                Arguments.of("CJ-08 JOB-02 a job template with restartPolicy Always",
                        "{spec: {jobTemplate: {spec: {template: {spec: {restartPolicy: Always}}}}}}",
                        "spec.jobTemplate.spec.template.spec.restartPolicy: Unsupported value: \"Always\": supported values: "
                                + "\"OnFailure\", \"Never\""),
                Arguments.of("CJ-03 AC-CJ-07 a name of 53 characters", "{metadata: {name: " + "a".repeat(53) + "}}",
                        "metadata.name: Invalid value: \"" + "a".repeat(53) + "\": must be no more than 52 characters"));
    }

    @ParameterizedTest(name = "{0} is rejected")
    @MethodSource("invalidCronJobs")
    void invalidCronJob(String name, String patch, String message) {
        List<String> causes = rejected(decisions.create(merge(HELLO, patch)));
        assertEquals(message, causes.get(0));
    }

    @Test
    @DisplayName("CJ-03 AC-CJ-07 a name of 52 characters is accepted; CJ-X04 an IANA time zone is accepted")
    void boundaries() {
        assertTrue(decisions.create(merge(HELLO, "{metadata: {name: " + "a".repeat(52) + "}, spec: {timeZone: Etc/UTC}}"))
                .outcome().getAccepted());
    }

    @Test
    @DisplayName("CJ-05 macros fire as their expansions; CJ-06 a restricted day-of-month and day-of-week fire on either")
    void scheduleSemantics() {
        ZonedDateTime t = ZonedDateTime.of(2026, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC);
        for (String[] pair : new String[][]{{"@weekly", "0 0 * * 0"}, {"@daily", "0 0 * * *"}, {"@monthly", "0 0 1 * *"},
                {"@yearly", "0 0 1 1 *"}, {"@hourly", "0 * * * *"}}) {
            CronSchedule macro = CronSchedule.parse(pair[0]);
            CronSchedule expanded = CronSchedule.parse(pair[1]);
            for (int h = 0; h < 24 * 400; h += 1) {
                ZonedDateTime at = t.plusHours(h);
                assertEquals(expanded.matches(at), macro.matches(at), pair[0] + " at " + at);
            }
        }
        CronSchedule friday13 = CronSchedule.parse("0 0 13 * 5");
        assertTrue(friday13.matches(ZonedDateTime.of(2026, 1, 2, 0, 0, 0, 0, ZoneOffset.UTC))); // a Friday
        assertTrue(friday13.matches(ZonedDateTime.of(2026, 1, 13, 0, 0, 0, 0, ZoneOffset.UTC))); // a Tuesday, the 13th
        assertFalse(friday13.matches(ZonedDateTime.of(2026, 1, 14, 0, 0, 0, 0, ZoneOffset.UTC)));
        assertTrue(CronSchedule.parse("*/1 * * * *").matches(t.plusMinutes(7))); // CJ-07
    }
}
