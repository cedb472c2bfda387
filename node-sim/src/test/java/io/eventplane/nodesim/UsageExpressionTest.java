package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UsageExpressionTest {

    @ParameterizedTest(name = "{0} at {1} s is {2}")
    @CsvSource(delimiter = ';', value = {
            "250m; 0; 0.25",
            "250m; 3600; 0.25",
            "128Mi; 10; 134217728",
            "ramp(100m, 900m, 100s); 0; 0.1",
            "ramp(100m, 900m, 100s); 50; 0.5",
            "ramp(100m, 900m, 100s); 100; 0.9",
            "ramp(100m, 900m, 100s); 1000; 0.9",
            "ramp(1, 0, 10s); 5; 0.5",
            "sine(300m, 200m, 40s); 0; 0.3",
            "sine(300m, 200m, 40s); 10; 0.5",
            "sine(300m, 200m, 40s); 30; 0.1",
            "sine(300m, 200m, 40s); 40; 0.3",
            "sine(100m, 200m, 40s); 30; 0",
            "step(100m, 2m, 800m, 7m, 200m); 0; 0.1",
            "step(100m, 2m, 800m, 7m, 200m); 119; 0.1",
            "step(100m, 2m, 800m, 7m, 200m); 120; 0.8",
            "step(100m, 2m, 800m, 7m, 200m); 420; 0.2",
    })
    void evaluates(String text, long seconds, double expected) {
        assertEquals(expected, UsageExpression.parse(text).at(Duration.ofSeconds(seconds)), 1e-9);
    }

    @ParameterizedTest(name = "{0} is first above {1} at {2} ms")
    @CsvSource(delimiter = ';', value = {
            "300Mi; 209715200; 0",
            "ramp(0, 100, 100s); 50; 50001",
            "ramp(0, 100, 100s); 100; -1",
            "step(1, 10s, 2, 20s, 5); 3; 20000",
            "step(1, 10s, 2); 3; -1",
            "sine(0, 10, 40s); 10; -1",
            "sine(5, -5, 40s); 5; 20001",
    })
    void crossesALimit(String text, double limit, long expectedMillis) {
        Optional<Duration> at = UsageExpression.parse(text).firstAbove(limit);
        assertEquals(expectedMillis < 0 ? Optional.empty() : Optional.of(Duration.ofMillis(expectedMillis)), at);
    }

    @Test
    @DisplayName("a sine crosses its limit where its value first exceeds it")
    void sineCrossing() {
        UsageExpression e = UsageExpression.parse("sine(100Mi, 100Mi, 60s)");
        Duration at = e.firstAbove(150.0 * 1024 * 1024).orElseThrow();
        assertTrue(e.at(at) > 150.0 * 1024 * 1024);
        assertTrue(e.at(at.minusMillis(1)) <= 150.0 * 1024 * 1024);
        assertEquals(5000, at.toMillis(), 1);
    }

    @Test
    @DisplayName("a pod's use spread over its containers scales every form")
    void scaled() {
        assertEquals(0.25, UsageExpression.parse("ramp(0, 1, 10s)").scaled(0.5).at(Duration.ofSeconds(5)), 1e-9);
        assertEquals(0.4, UsageExpression.parse("step(0, 1s, 800m)").scaled(0.5).at(Duration.ofSeconds(2)), 1e-9);
    }

    @ParameterizedTest(name = "\"{0}\" is refused: {1}")
    @CsvSource(delimiter = ';', value = {
            "lots; \"lots\" is not a quantity",
            "ramp(1, 2); takes 3 arguments, not 2",
            "ramp(1, 2, soon); \"soon\" is not a duration",
            "sine(1, 1, 0s); the period must be longer than 0",
            "step(1, 2m); step takes a value, then pairs of a time and a value",
            "step(1, 2m, 3, 1m, 4); the step times must increase",
            "wave(1, 2, 3); unknown function \"wave\"",
            "ramp(1, 2, 3s; a closing parenthesis is missing",
    })
    void refused(String text, String why) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UsageExpression.parse(text));
        assertTrue(e.getMessage().contains(why), e.getMessage());
        assertTrue(e.getMessage().contains("ramp(from, to, over)"), e.getMessage());
    }
}
