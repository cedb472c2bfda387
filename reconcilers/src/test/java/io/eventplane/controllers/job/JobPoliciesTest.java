package io.eventplane.controllers.job;

import static io.eventplane.controllers.job.JobFailureTest.onCondition;
import static io.eventplane.controllers.job.JobFailureTest.onExitCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodFailurePolicy;
import io.eventplane.model.PodFailurePolicyOnExitCodesRequirement;
import io.eventplane.model.PodFailurePolicyRule;
import io.eventplane.model.PodStatus;
import io.eventplane.model.SuccessPolicy;
import io.eventplane.model.SuccessPolicyRule;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The pure parts: interval notation, the pod failure policy, the success policy (JOB-X01, JOB-X03, JOB-X04). */
class JobPoliciesTest {

    @ParameterizedTest(name = "JOB-X01: \"{0}\" below {1} is \"{2}\" ({3} indexes)")
    @CsvSource(delimiter = '|', value = {
            "1,3-5,7 | 10 | 1,3-5,7 | 5",
            "0,1,2,3 | 10 | 0-3 | 4",
            "0-1 | 10 | 0,1 | 2",
            "2-9 | 5 | 2-4 | 3",
            "7,8 | 5 | '' | 0",
            "1,x,3 | 10 | 1,3 | 2"})
    void intervals(String text, int completions, String shown, int total) {
        OrderedIntervals i = OrderedIntervals.parse(text, completions);
        assertEquals(shown, i.toString());
        assertEquals(total, i.total());
    }

    @Test
    @DisplayName("JOB-X01: adding indexes merges neighbours; has() finds members")
    void mergeAndHas() {
        OrderedIntervals i = OrderedIntervals.parse("1,5-6", 10).withOrderedIndexes(List.of(0, 2, 4, 9));
        assertEquals("0-2,4-6,9", i.toString());
        assertTrue(i.has(5) && i.has(9) && i.has(0));
        assertFalse(i.has(3) || i.has(7) || i.has(10));
        assertEquals("0-6,9", i.merge(OrderedIntervals.parse("3", 10)).toString());
    }

    @ParameterizedTest(name = "JOB-X04: rule indexes \"{0}\", count {1}, succeeded \"{2}\": met {3}")
    @CsvSource(delimiter = '|', value = {
            "1-4 | 3 | 1,3,5 | false",
            "1-4 | 2 | 1,3,5 | true",
            "1-4 |   | 1-4 | true",
            "1-4 |   | 1-3 | false",
            "    | 3 | 0,5,7 | true",
            "    | 4 | 0,5,7 | false"})
    void successPolicy(String indexes, Integer count, String succeeded, boolean met) {
        SuccessPolicy policy = SuccessPolicy.newBuilder().setRules(List.of(SuccessPolicyRule.newBuilder()
                .setSucceededIndexes(indexes).setSucceededCount(count).build())).build();
        Optional<String> m = SuccessPolicies.match(policy, 10, OrderedIntervals.parse(succeeded, 10));
        assertEquals(met, m.isPresent());
        m.ifPresent(msg -> assertEquals("Matched rules at index 0", msg));
    }

    private static Pod failed(int exitCode, String initExitCode, String condition) {
        ContainerStatus app = ContainerStatus.newBuilder().setName("main").setState(ContainerState.newBuilder()
                .setTerminated(ContainerStateTerminated.newBuilder().setExitCode(exitCode).build()).build()).build();
        PodStatus.Builder s = PodStatus.newBuilder().setPhase("Failed").setContainerStatuses(List.of(app));
        if (initExitCode != null) {
            s.setInitContainerStatuses(List.of(ContainerStatus.newBuilder().setName("setup").setState(ContainerState
                    .newBuilder().setTerminated(ContainerStateTerminated.newBuilder()
                            .setExitCode(Integer.parseInt(initExitCode)).build()).build()).build()));
        }
        if (condition != null) {
            s.setConditions(List.of(PodCondition.newBuilder().setType(condition).setStatus("True").build()));
        }
        return Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("p").setNamespace("ns").build())
                .setStatus(s.build()).build();
    }

    @Test
    @DisplayName("JOB-X03: rules are evaluated in order, the first that matches decides; exit code 0 never matches; unknown actions are skipped")
    void podFailurePolicyOrder() {
        PodFailurePolicy policy = PodFailurePolicy.newBuilder().setRules(List.of(
                onExitCodes("Bogus", "In", 5),
                onCondition("Ignore", "DisruptionTarget"),
                onExitCodes("FailJob", "In", 5),
                onExitCodes("Count", "NotIn", 5))).build();
        PodFailurePolicies.Match disrupted = PodFailurePolicies.match(policy, failed(5, null, "DisruptionTarget"));
        assertEquals("Ignore", disrupted.action());
        assertFalse(disrupted.countFailed());
        PodFailurePolicies.Match five = PodFailurePolicies.match(policy, failed(5, null, null));
        assertEquals("FailJob", five.action());
        assertEquals("Container main for pod ns/p failed with exit code 5 matching FailJob rule at index 2",
                five.failJobMessage());
        assertEquals("Count", PodFailurePolicies.match(policy, failed(3, null, null)).action());
        PodFailurePolicies.Match zero = PodFailurePolicies.match(policy, failed(0, null, null));
        assertNull(zero.action(), "exit code 0 matches no rule");
        assertTrue(zero.countFailed());
    }

    @Test
    @DisplayName("JOB-X03: onExitCodes looks at init containers too and honours containerName; onPodConditions names the condition")
    void podFailurePolicyMatching() {
        PodFailurePolicy named = PodFailurePolicy.newBuilder().setRules(List.of(PodFailurePolicyRule.newBuilder()
                .setAction("FailJob").setOnExitCodes(PodFailurePolicyOnExitCodesRequirement.newBuilder()
                        .setContainerName("setup").setOperator("In").setValues(List.of(2)).build()).build())).build();
        assertNull(PodFailurePolicies.match(named, failed(2, null, null)).action(), "another container");
        assertEquals("FailJob", PodFailurePolicies.match(named, failed(0, "2", null)).action());
        PodFailurePolicy conditions = PodFailurePolicy.newBuilder().setRules(List.of(onCondition("FailJob",
                "DisruptionTarget"))).build();
        assertEquals("Pod ns/p has condition DisruptionTarget matching FailJob rule at index 0",
                PodFailurePolicies.match(conditions, failed(1, null, "DisruptionTarget")).failJobMessage());
    }
}
