package io.eventplane.controllers.daemonset;

import static io.eventplane.controllers.daemonset.DaemonSets.cordoned;
import static io.eventplane.controllers.daemonset.DaemonSets.fluentd;
import static io.eventplane.controllers.daemonset.DaemonSets.node;
import static io.eventplane.controllers.daemonset.DaemonSets.taint;
import static io.eventplane.controllers.daemonset.DaemonSets.withNodeSelector;
import static io.eventplane.controllers.daemonset.DaemonSets.withPodSpec;
import static io.eventplane.controllers.daemonset.DaemonSets.withTaints;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.eventplane.model.Affinity;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.Node;
import io.eventplane.model.NodeAffinity;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which nodes a DaemonSet's pod belongs on: (should run, may continue running). */
class NodeEligibilityTest {

    private static DaemonSet zoneAffinity(String op, String... zones) {
        NodeSelector required = NodeSelector.newBuilder().setNodeSelectorTerms(List.of(NodeSelectorTerm.newBuilder()
                .setMatchExpressions(List.of(NodeSelectorRequirement.newBuilder().setKey("zone").setOperator(op)
                        .setValues(List.of(zones)).build())).build())).build();
        return withPodSpec(fluentd(), s -> s.setAffinity(Affinity.newBuilder().setNodeAffinity(NodeAffinity.newBuilder()
                .setRequiredDuringSchedulingIgnoredDuringExecution(required).build()).build()));
    }

    static Stream<Arguments> verdicts() {
        DaemonSet plain = fluentd();
        DaemonSet ssd = withNodeSelector(fluentd(), Map.of("disk", "ssd"));
        return Stream.of(
                Arguments.of("DS-04 no selector: every node", plain, node("n1"), true, true),
                Arguments.of("DS-04 nodeSelector disk=ssd on an ssd node", ssd, node("n1", Map.of("disk", "ssd")), true, true),
                Arguments.of("DS-04 nodeSelector disk=ssd on another node", ssd, node("n1", Map.of("disk", "hdd")), false, false),
                Arguments.of("DS-04 node affinity zone In [a] in zone a", zoneAffinity("In", "a"),
                        node("n1", Map.of("zone", "a")), true, true),
                Arguments.of("DS-04 node affinity zone NotIn [a] in zone a", zoneAffinity("NotIn", "a"),
                        node("n1", Map.of("zone", "a")), false, false),
                Arguments.of("DS-04 a template nodeName names another node",
                        withPodSpec(fluentd(), s -> s.setNodeName("n2")), node("n1"), false, false),
                Arguments.of("DS-09 a cordoned node (unschedulable taint tolerated)", plain, cordoned(node("n1")), true, true),
                Arguments.of("DS-10 the user's master toleration", plain,
                        withTaints(node("n1"), taint("node-role.kubernetes.io/master", "NoSchedule")), true, true),
                Arguments.of("DS-10 an untolerated NoSchedule taint: no new pod, a running one stays", plain,
                        withTaints(node("n1"), taint("dedicated", "NoSchedule")), false, true),
                Arguments.of("DS-10 an untolerated NoExecute taint: no pod at all", plain,
                        withTaints(node("n1"), taint("dedicated", "NoExecute")), false, false),
                Arguments.of("DS-11 a not-ready node (lifecycle taints): no new pod, the running one stays", plain,
                        withTaints(node("n1"), taint("node.kubernetes.io/not-ready", "NoSchedule"),
                                taint("node.kubernetes.io/not-ready", "NoExecute")), false, true),
                Arguments.of("DS-11 an unreachable node: likewise", plain,
                        withTaints(node("n1"), taint("node.kubernetes.io/unreachable", "NoSchedule"),
                                taint("node.kubernetes.io/unreachable", "NoExecute")), false, true),
                Arguments.of("DS-11 memory, disk and pid pressure are tolerated", plain,
                        withTaints(node("n1"), taint("node.kubernetes.io/memory-pressure", "NoSchedule"),
                                taint("node.kubernetes.io/disk-pressure", "NoSchedule"),
                                taint("node.kubernetes.io/pid-pressure", "NoSchedule")), true, true),
                Arguments.of("DS-11 network-unavailable without hostNetwork", plain,
                        withTaints(node("n1"), taint("node.kubernetes.io/network-unavailable", "NoSchedule")), false, true),
                Arguments.of("DS-11 network-unavailable with hostNetwork", withPodSpec(fluentd(), s -> s.setHostNetwork(true)),
                        withTaints(node("n1"), taint("node.kubernetes.io/network-unavailable", "NoSchedule")), true, true));
    }

    @ParameterizedTest(name = "{0}: should run {3}, may continue {4}")
    @MethodSource("verdicts")
    void verdict(String name, DaemonSet ds, Node node, boolean shouldRun, boolean mayContinue) {
        assertEquals(new NodeEligibility.Verdict(shouldRun, mayContinue), NodeEligibility.of(ds).on(node));
    }
}
