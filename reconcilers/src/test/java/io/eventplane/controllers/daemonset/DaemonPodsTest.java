package io.eventplane.controllers.daemonset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.eventplane.model.Affinity;
import io.eventplane.model.NodeAffinity;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodTemplateSpec;
import io.eventplane.model.PreferredSchedulingTerm;
import io.eventplane.model.Toleration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DaemonPodsTest {

    private static String show(List<Toleration> ts) {
        return String.join(", ", ts.stream().map(t -> t.getKey() + ":" + t.getEffect()
                + (t.getTolerationSeconds() == null ? "" : "/" + t.getTolerationSeconds())).toList());
    }

    @Test
    @DisplayName("DS-09 DS-11 a daemon pod gets not-ready and unreachable NoExecute (forever), disk, memory and pid "
            + "pressure and unschedulable NoSchedule, after the user's own tolerations")
    void automaticTolerations() {
        PodSpec spec = DaemonSets.fluentd().getSpec().getTemplate().getSpec();
        assertEquals("node-role.kubernetes.io/master:NoSchedule, node.kubernetes.io/not-ready:NoExecute, "
                        + "node.kubernetes.io/unreachable:NoExecute, node.kubernetes.io/disk-pressure:NoSchedule, "
                        + "node.kubernetes.io/memory-pressure:NoSchedule, node.kubernetes.io/pid-pressure:NoSchedule, "
                        + "node.kubernetes.io/unschedulable:NoSchedule",
                show(DaemonPods.withDaemonTolerations(spec)));
        DaemonPods.withDaemonTolerations(spec).stream().skip(1).forEach(t -> assertEquals("Exists", t.getOperator()));
    }

    @Test
    @DisplayName("DS-11 network-unavailable NoSchedule only for pods on the host network")
    void networkUnavailableOnlyWithHostNetwork() {
        PodSpec spec = PodSpec.newBuilder(DaemonSets.fluentd().getSpec().getTemplate().getSpec()).setHostNetwork(true).build();
        List<Toleration> ts = DaemonPods.withDaemonTolerations(spec);
        assertEquals("node.kubernetes.io/network-unavailable:NoSchedule", show(ts.subList(ts.size() - 1, ts.size())));
        assertEquals(8, ts.size());
    }

    @Test
    @DisplayName("DS-11 a user's not-ready toleration with tolerationSeconds gives way to the automatic one (forever)")
    void userTolerationIsReplaced() {
        PodSpec spec = PodSpec.newBuilder().setTolerations(List.of(Toleration.newBuilder()
                .setKey("node.kubernetes.io/not-ready").setOperator("Exists").setEffect("NoExecute")
                .setTolerationSeconds(300L).build())).build();
        List<Toleration> ts = DaemonPods.withDaemonTolerations(spec);
        assertEquals(6, ts.size());
        assertEquals("node.kubernetes.io/not-ready:NoExecute", show(ts.subList(0, 1)));
    }

    @Test
    @DisplayName("DS-16 the pod template carries controller-revision-hash and pod-template-generation; the DaemonSet's "
            + "template is not changed")
    void podTemplateLabels() {
        PodTemplateSpec template = DaemonSets.fluentd().getSpec().getTemplate();
        PodTemplateSpec t = DaemonPods.podTemplate(template, 3L, "abc12");
        assertEquals(Map.of("name", "fluentd-elasticsearch", "controller-revision-hash", "abc12",
                "pod-template-generation", "3"), t.getMetadata().getLabels());
        assertEquals(Map.of("name", "fluentd-elasticsearch"), template.getMetadata().getLabels());
        assertEquals(1, template.getSpec().getTolerations().size());
    }

    private static NodeSelectorRequirement req(String key, String op, String... values) {
        return NodeSelectorRequirement.newBuilder().setKey(key).setOperator(op).setValues(List.of(values)).build();
    }

    static Stream<Arguments> affinities() {
        NodeSelector zone = NodeSelector.newBuilder().setNodeSelectorTerms(List.of(NodeSelectorTerm.newBuilder()
                .setMatchExpressions(List.of(req("zone", "In", "a"))).build())).build();
        PreferredSchedulingTerm preferred = PreferredSchedulingTerm.newBuilder().setWeight(1)
                .setPreference(NodeSelectorTerm.newBuilder().setMatchExpressions(List.of(req("ssd", "Exists"))).build())
                .build();
        return Stream.of(
                Arguments.of("no affinity", null),
                Arguments.of("an affinity without node affinity", new Affinity()),
                Arguments.of("required node affinity on a zone", Affinity.newBuilder().setNodeAffinity(
                        NodeAffinity.newBuilder().setRequiredDuringSchedulingIgnoredDuringExecution(zone).build()).build()),
                Arguments.of("only a preferred term", Affinity.newBuilder().setNodeAffinity(NodeAffinity.newBuilder()
                        .setPreferredDuringSchedulingIgnoredDuringExecution(List.of(preferred)).build()).build()));
    }

    @ParameterizedTest(name = "DS-07 {0}: the required node affinity becomes matchFields metadata.name In [node-2]")
    @MethodSource("affinities")
    void pinnedToItsNode(String name, Affinity affinity) {
        Affinity pinned = DaemonPods.pinnedTo(affinity, "node-2");
        NodeSelector required = pinned.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution();
        assertEquals(List.of(NodeSelectorTerm.newBuilder().setMatchFields(List.of(req("metadata.name", "In", "node-2")))
                .build()), required.getNodeSelectorTerms());
        if (affinity != null && affinity.getNodeAffinity() != null) {
            assertEquals(affinity.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution(),
                    pinned.getNodeAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
        }
        Pod pod = Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("p").build())
                .setSpec(PodSpec.newBuilder().setAffinity(pinned).build()).build();
        assertEquals("node-2", DaemonPods.targetNode(pod), "a pending pod is for the node its affinity names");
        assertEquals("node-3", DaemonPods.targetNode(Pod.newBuilder(pod).setSpec(PodSpec.newBuilder(pod.getSpec())
                .setNodeName("node-3").build()).build()), "a bound pod is for its node");
        assertNull(DaemonPods.targetNode(Pod.newBuilder(pod).setSpec(new PodSpec()).build()));
    }

    static Stream<Arguments> updatedPods() {
        return Stream.of(
                Arguments.of(Map.of("controller-revision-hash", "h2"), true),
                Arguments.of(Map.of("controller-revision-hash", "h1", "pod-template-generation", "2"), true),
                Arguments.of(Map.of("controller-revision-hash", "h1", "pod-template-generation", "1"), false),
                Arguments.of(Map.of(), false));
    }

    @ParameterizedTest(name = "DS-16 a pod labelled {0} is of the current template (hash h2, generation 2): {1}")
    @MethodSource("updatedPods")
    void isUpdated(Map<String, String> labels, boolean updated) {
        Pod pod = Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("p").setLabels(new HashMap<>(labels))
                .build()).setSpec(new PodSpec()).build();
        assertEquals(updated, DaemonPods.isUpdated(pod, "h2", 2L));
    }

    static Stream<Arguments> budgets() {
        return Stream.of(
                Arguments.of(1, 0, 10, 1, 0),
                Arguments.of("10%", 0, 15, 2, 0),
                Arguments.of("25%", 0, 1, 1, 0),
                Arguments.of(0, "30%", 10, 0, 3),
                Arguments.of(0, 2, 5000, 0, 2));
    }

    @ParameterizedTest(name = "DS-16 maxUnavailable {0} maxSurge {1} of {2} nodes: {3} unavailable, {4} surge (rounded up)")
    @MethodSource("budgets")
    void budgets(Object maxUnavailable, Object maxSurge, int desired, int unavailable, int surge) {
        var ds = DaemonSets.rollingUpdate(DaemonSets.fluentd(), maxUnavailable, maxSurge);
        assertEquals(unavailable, DaemonPods.unavailableCount(ds, desired));
        assertEquals(surge, DaemonPods.surgeCount(ds, desired));
        assertEquals(0, DaemonPods.surgeCount(DaemonSets.onDelete(ds), desired), "OnDelete has no budget");
    }
}
