package io.eventplane.nodesim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StagesTest {

    static final Path EXAMPLES = Path.of("..", "docs", "examples", "stages");

    @Test
    @DisplayName("the example stage files load")
    void examples() {
        Stages fail = Stages.load(EXAMPLES.resolve("fail-some.yaml"));
        assertEquals(1, fail.stages().size());
        Stages.Stage s = fail.stages().get(0);
        assertEquals("fail-ten-percent", s.name());
        assertEquals(30_000, s.delayMillis());
        assertEquals(10_000, s.jitterMillis());
        assertEquals(10, s.totalWeight());
        assertEquals(new Stages.Next(1, Stages.Action.EXIT, 1), s.next().get(0));
        assertEquals(3, s.selector().matchExpressions().size());

        Stages flaky = Stages.load(EXAMPLES.resolve("flaky-readiness.yaml"));
        assertEquals(2, flaky.stages().size());
        assertEquals("true", flaky.stages().get(0).selector().matchLabels().get("sim.eventplane.io/flaky"));
    }

    @Test
    @DisplayName("an empty file or one without stages declares none; defaults apply")
    void empty() {
        assertTrue(Stages.parse("", "s.yaml").isEmpty());
        assertTrue(Stages.parse("# nothing\n", "s.yaml").isEmpty());
        assertTrue(Stages.parse("stages: []\n", "s.yaml").isEmpty());
    }

    @Test
    @DisplayName("a stage without selector or delay matches every running container at once; weight defaults to 1")
    void minimal() {
        Stages.Stage s = Stages.parse("stages:\n- name: x\n  next:\n  - action: oomKill\n", "s.yaml").stages().get(0);
        assertEquals(0, s.delayMillis());
        assertEquals(new Stages.Next(1, Stages.Action.OOM_KILL, 0), s.next().get(0));
        assertTrue(s.selector().matchExpressions().isEmpty());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown top-level field | stagez: [] | s.yaml:1: stagez: unknown field; known fields: runToCompletion, stages, usage
            stages not a list | stages: {a: 1} | s.yaml:1: stages: must be a list of stages
            name missing | stages:\\n- next: [{action: none}] | s.yaml:2: stages[0].name: is required
            unknown stage field | stages:\\n- name: a\\n  nxt: [] | s.yaml:3: stages[0].nxt: unknown field; known fields: delay, name, next, selector
            next missing | stages:\\n- name: a | s.yaml:2: stages[0].next: is required
            next empty | stages:\\n- name: a\\n  next: [] | s.yaml:3: stages[0].next: must be a non-empty list of next steps
            bad action | stages:\\n- name: a\\n  next:\\n  - action: explode | s.yaml:4: stages[0].next[0].action: unknown action "explode"; known actions: exit, oomKill, unready, ready, livenessFails, none
            exit without code | stages:\\n- name: a\\n  next:\\n  - action: exit | s.yaml:4: stages[0].next[0].exitCode: is required
            exit code out of range | stages:\\n- name: a\\n  next:\\n  - {action: exit, exitCode: 300} | s.yaml:4: stages[0].next[0].exitCode: 300 is not in 0..255
            exit code on another action | stages:\\n- name: a\\n  next:\\n  - {action: none, exitCode: 1} | s.yaml:4: stages[0].next[0].exitCode: only an exit action takes an exit code
            weights add up to 0 | stages:\\n- name: a\\n  next:\\n  - {action: none, weight: 0} | s.yaml:3: stages[0].next: the weights add up to 0
            delay not a number | stages:\\n- name: a\\n  delay:\\n    durationMilliseconds: 30s\\n  next: [{action: none}] | s.yaml:4: stages[0].delay.durationMilliseconds: "30s" is not a whole number
            negative jitter | stages:\\n- name: a\\n  delay: {jitterDurationMilliseconds: -5}\\n  next: [{action: none}] | s.yaml:3: stages[0].delay.jitterDurationMilliseconds: -5 is not in 0..31536000000
            unknown key | stages:\\n- name: a\\n  selector:\\n    matchExpressions:\\n    - {key: .status.phase, operator: In, values: [Running]}\\n  next: [{action: none}] | s.yaml:5: stages[0].selector.matchExpressions[0].key: unknown key ".status.phase"; known keys: pod.phase, pod.namespace, pod.deleting, pod.restartPolicy, container.name, container.image, container.type, container.started, container.ready, container.restartCount
            unknown operator | stages:\\n- name: a\\n  selector:\\n    matchExpressions:\\n    - {key: pod.phase, operator: Exists, values: [Running]}\\n  next: [{action: none}] | s.yaml:5: stages[0].selector.matchExpressions[0].operator: unknown operator "Exists"; known operators: In, NotIn, Gt, Lt
            bad value for a key | stages:\\n- name: a\\n  selector:\\n    matchExpressions:\\n    - key: container.ready\\n      operator: In\\n      values: [yes]\\n  next: [{action: none}] | s.yaml:7: stages[0].selector.matchExpressions[0].values[0]: "yes" is not a value of container.ready (false, true)
            Gt on a text key | stages:\\n- name: a\\n  selector:\\n    matchExpressions:\\n    - {key: container.name, operator: Gt, values: ["1"]}\\n  next: [{action: none}] | s.yaml:5: stages[0].selector.matchExpressions[0].operator: Gt needs a numeric key (container.restartCount)
            values missing | stages:\\n- name: a\\n  selector:\\n    matchExpressions:\\n    - {key: pod.phase, operator: In}\\n  next: [{action: none}] | s.yaml:5: stages[0].selector.matchExpressions[0].values: is required
            duplicate name | stages:\\n- name: a\\n  next: [{action: none}]\\n- name: a\\n  next: [{action: none}] | s.yaml:4: stages[1].name: "a" is the name of an earlier stage
            duplicate field | stages:\\n- name: a\\n  name: b\\n  next: [{action: none}] | s.yaml:3: stages[0].name: appears twice
            matchLabels not a map | stages:\\n- name: a\\n  selector: {matchLabels: [a]}\\n  next: [{action: none}] | s.yaml:3: stages[0].selector.matchLabels: must be a mapping of names to values
            not YAML | stages:\\n- name: [a\\n | s.yaml:3: not valid YAML: expected ',' or ']', but got <stream end>
            """)
    void errors(String what, String text, String message) {
        Stages.InvalidStages e = assertThrows(Stages.InvalidStages.class,
                () -> Stages.parse(text.replace("\\n", "\n"), "s.yaml"), what);
        assertEquals(message, e.getMessage());
    }

    @Test
    @DisplayName("a missing stage file is named in the error")
    void missingFile() {
        Stages.InvalidStages e = assertThrows(Stages.InvalidStages.class,
                () -> Stages.load(Path.of("no-such-dir", "stages.yaml")));
        assertEquals("EVENTPLANE_NODESIM_STAGES: " + Path.of("no-such-dir", "stages.yaml") + ": no such file",
                e.getMessage());
    }
}
