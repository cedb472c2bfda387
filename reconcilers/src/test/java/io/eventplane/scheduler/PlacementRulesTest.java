package io.eventplane.scheduler;

import static io.eventplane.testkit.objects.KubeObjects.taint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.eventplane.model.Affinity;
import io.eventplane.model.Container;
import io.eventplane.model.ContainerPort;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.Node;
import io.eventplane.model.NodeAffinity;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.NodeSpec;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodAffinity;
import io.eventplane.model.PodAffinityTerm;
import io.eventplane.model.PodAntiAffinity;
import io.eventplane.model.PodOS;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PreferredSchedulingTerm;
import io.eventplane.model.Taint;
import io.eventplane.model.Toleration;
import io.eventplane.model.WeightedPodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Node affinity, pod (anti-)affinity, taints, node name, host ports and pod OS, as kube-scheduler applies them. */
class PlacementRulesTest {
    private final SchedulerDecider decider = new SchedulerDecider(new SchedulerDecider.Profile(0, 100, List.of()));

    private static Node node(String name, Map<String, String> labels) {
        return TestObjects.node(name, "8", "32Gi", "110", "True", labels);
    }

    private static Node tainted(Node n, Taint... taints) {
        return Node.newBuilder(n).setSpec(NodeSpec.newBuilder().setTaints(List.of(taints)).build()).build();
    }

    private static Pod spec(Pod pod, java.util.function.UnaryOperator<PodSpec.Builder> f) {
        return TestObjects.withSpec(pod, f.apply(PodSpec.newBuilder(pod.getSpec())).build());
    }

    private static Pod labelled(String name, String ns, Map<String, String> labels) {
        Pod p = TestObjects.pod(name, "100m");
        return Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setNamespace(ns).setLabels(labels)
                .setUid("uid-" + ns + "-" + name).build()).build();
    }

    private static NodeSelectorRequirement req(String key, String op, String... values) {
        return NodeSelectorRequirement.newBuilder().setKey(key).setOperator(op).setValues(List.of(values)).build();
    }

    private static Pod requiringNodes(NodeSelectorTerm... terms) {
        return spec(TestObjects.pod("p", "100m"), b -> b.setAffinity(Affinity.newBuilder().setNodeAffinity(
                NodeAffinity.newBuilder().setRequiredDuringSchedulingIgnoredDuringExecution(NodeSelector.newBuilder()
                        .setNodeSelectorTerms(List.of(terms)).build()).build()).build()));
    }

    private static NodeSelectorTerm expressions(NodeSelectorRequirement... r) {
        return NodeSelectorTerm.newBuilder().setMatchExpressions(List.of(r)).build();
    }

    private final ClusterSnapshot gpuCluster = ClusterSnapshot.of(List.of(
            node("n1", Map.of("gpu", "2", "disk", "ssd")),
            node("n2", Map.of("gpu", "8", "disk", "hdd")),
            node("n3", Map.of("disk", "ssd"))));

    static Stream<Arguments> operators() {
        return Stream.of(
                Arguments.of("In", expressions(req("disk", "In", "ssd", "nvme")), List.of("n1", "n3")),
                Arguments.of("NotIn (also nodes without the label)", expressions(req("gpu", "NotIn", "8")), List.of("n1", "n3")),
                Arguments.of("Exists", expressions(req("gpu", "Exists")), List.of("n1", "n2")),
                Arguments.of("DoesNotExist", expressions(req("gpu", "DoesNotExist")), List.of("n3")),
                Arguments.of("Gt compares integers", expressions(req("gpu", "Gt", "4")), List.of("n2")),
                Arguments.of("Lt compares integers", expressions(req("gpu", "Lt", "4")), List.of("n1")),
                Arguments.of("expressions of a term are ANDed", expressions(req("disk", "In", "ssd"), req("gpu", "Exists")),
                        List.of("n1")),
                Arguments.of("matchFields metadata.name In", NodeSelectorTerm.newBuilder().setMatchFields(
                        List.of(req("metadata.name", "In", "n2", "n3"))).build(), List.of("n2", "n3")),
                Arguments.of("matchFields metadata.name NotIn", NodeSelectorTerm.newBuilder().setMatchFields(
                        List.of(req("metadata.name", "NotIn", "n2"))).build(), List.of("n1", "n3")),
                Arguments.of("an empty term matches no node", NodeSelectorTerm.newBuilder().build(), List.of()));
    }

    @ParameterizedTest(name = "required node affinity: {0}")
    @MethodSource("operators")
    void nodeAffinityOperators(String name, NodeSelectorTerm term, List<String> feasible) {
        assertEquals(feasible, decider.feasibleNodes(PodInfo.of(requiringNodes(term)), gpuCluster));
    }

    @Test
    @DisplayName("required node affinity terms are ORed, and ANDed with spec.nodeSelector")
    void termsOredSelectorAnded() {
        Pod p = requiringNodes(expressions(req("gpu", "In", "8")), expressions(req("disk", "In", "ssd")));
        assertEquals(List.of("n1", "n2", "n3"), decider.feasibleNodes(PodInfo.of(p), gpuCluster));
        Pod withSelector = spec(p, b -> b.setNodeSelector(Map.of("disk", "ssd")));
        assertEquals(List.of("n1", "n3"), decider.feasibleNodes(PodInfo.of(withSelector), gpuCluster));
        Placement.Unschedulable u = assertInstanceOf(Placement.Unschedulable.class, decider.decide(
                requiringNodes(expressions(req("gpu", "Gt", "100"))), gpuCluster));
        assertEquals("0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.", u.message());
    }

    @Test
    @DisplayName("preferred node affinity: the node matching the heavier terms wins")
    void preferredNodeAffinity() {
        Pod p = spec(TestObjects.pod("p", "100m"), b -> b.setAffinity(Affinity.newBuilder().setNodeAffinity(
                NodeAffinity.newBuilder().setPreferredDuringSchedulingIgnoredDuringExecution(List.of(
                        PreferredSchedulingTerm.newBuilder().setWeight(10).setPreference(expressions(req("disk", "In", "ssd"))).build(),
                        PreferredSchedulingTerm.newBuilder().setWeight(50).setPreference(expressions(req("gpu", "Exists"))).build()))
                        .build()).build()));
        assertEquals("n1", assertInstanceOf(Placement.Bind.class, decider.decide(p, gpuCluster)).node());
    }

    @Test
    @DisplayName("spec.nodeName: only that node, with kube-scheduler's reason for the others")
    void nodeName() {
        // A pod that names a node is not pending; the filter matters for a pod deciding among candidates (e.g. explanations).
        Pod p = spec(TestObjects.pod("p", "100m"), b -> b.setNodeName("n2"));
        assertEquals(List.of("n2"), decider.feasibleNodes(PodInfo.of(p), gpuCluster));
        Pod gone = spec(TestObjects.pod("p", "100m"), b -> b.setNodeName("n9"));
        assertEquals("0/3 nodes are available: 3 node(s) didn't match the requested node name.",
                assertInstanceOf(Placement.Unschedulable.class, decider.decide(gone, gpuCluster)).message());
    }

    @Test
    @DisplayName("POD-19.2 spec.os.name does not filter: a windows pod without a node selector fits a linux node")
    void podOsDoesNotFilter() {
        Pod p = spec(TestObjects.pod("p", "100m"), b -> b.setOs(PodOS.newBuilder().setName("windows").build()));
        ClusterSnapshot linux = ClusterSnapshot.of(List.of(node("l1", Map.of("kubernetes.io/os", "linux"))));
        assertEquals("l1", assertInstanceOf(Placement.Bind.class, decider.decide(p, linux)).node());
    }

    // ---- taints

    @Test
    @DisplayName("NoSchedule and NoExecute taints must be tolerated (Equal with value, Exists by key, Exists for all); the first untolerated is named")
    void hardTaints() {
        ClusterSnapshot s = ClusterSnapshot.of(List.of(
                tainted(node("a", Map.of()), taint("dedicated", "db", "NoSchedule")),
                tainted(node("b", Map.of()), taint("maintenance", "", "NoExecute")),
                node("c", Map.of())));
        Pod plain = TestObjects.pod("p", "100m");
        assertEquals(List.of("c"), decider.feasibleNodes(PodInfo.of(plain), s));
        Pod db = spec(plain, b -> b.setTolerations(List.of(Toleration.newBuilder().setKey("dedicated").setOperator("Equal")
                .setValue("db").setEffect("NoSchedule").build())));
        assertEquals(List.of("a", "c"), decider.feasibleNodes(PodInfo.of(db), s));
        Pod wrongValue = spec(plain, b -> b.setTolerations(List.of(Toleration.newBuilder().setKey("dedicated")
                .setValue("web").build())));
        assertEquals(List.of("c"), decider.feasibleNodes(PodInfo.of(wrongValue), s));
        Pod maintenance = spec(plain, b -> b.setTolerations(List.of(Toleration.newBuilder().setKey("maintenance")
                .setOperator("Exists").setEffect("NoExecute").setTolerationSeconds(30L).build())));
        assertEquals(List.of("b", "c"), decider.feasibleNodes(PodInfo.of(maintenance), s));
        Pod everything = spec(plain, b -> b.setTolerations(List.of(Toleration.newBuilder().setOperator("Exists").build())));
        assertEquals(List.of("a", "b", "c"), decider.feasibleNodes(PodInfo.of(everything), s));
        Pod wrongEffect = spec(plain, b -> b.setTolerations(List.of(Toleration.newBuilder().setKey("dedicated")
                .setOperator("Exists").setEffect("NoExecute").build())));
        assertEquals(List.of("c"), decider.feasibleNodes(PodInfo.of(wrongEffect), s));
        ClusterSnapshot none = ClusterSnapshot.of(List.of(tainted(node("a", Map.of()), taint("dedicated", "db", "NoSchedule")),
                tainted(node("b", Map.of()), taint("maintenance", "", "NoExecute"))));
        assertEquals("0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: db}, "
                        + "1 node(s) had untolerated taint {maintenance: }.",
                assertInstanceOf(Placement.Unschedulable.class, decider.decide(plain, none)).message());
    }

    @Test
    @DisplayName("a PreferNoSchedule taint does not filter but steers pods to other nodes, unless tolerated")
    void preferNoSchedule() {
        ClusterSnapshot s = ClusterSnapshot.of(List.of(tainted(node("a", Map.of()), taint("spot", "true", "PreferNoSchedule")),
                node("b", Map.of())));
        Pod plain = TestObjects.pod("p", "100m");
        assertEquals(List.of("a", "b"), decider.feasibleNodes(PodInfo.of(plain), s));
        for (int i = 0; i < 5; i++) {
            assertEquals("b", assertInstanceOf(Placement.Bind.class, decider.decide(TestObjects.pod("p" + i, "100m"), s)).node());
        }
        ClusterSnapshot onlyTainted = ClusterSnapshot.of(List.of(tainted(node("a", Map.of()), taint("spot", "true", "PreferNoSchedule"))));
        assertEquals("a", assertInstanceOf(Placement.Bind.class, decider.decide(plain, onlyTainted)).node());
    }

    // ---- host ports

    @Test
    @DisplayName("a host port in use on a node for the same protocol keeps the pod away from it")
    void hostPorts() {
        Pod web = spec(TestObjects.pod("web", "100m"), b -> b.setContainers(List.of(Container.newBuilder(b.getContainers().get(0))
                .setPorts(List.of(ContainerPort.newBuilder().setContainerPort(80).setHostPort(8080).build())).build())));
        ClusterSnapshot s = ClusterSnapshot.of(List.of(node("a", Map.of()), node("b", Map.of())));
        s.add("a", PodInfo.of(Pod.newBuilder(web).setMetadata(ObjectMeta.newBuilder(web.getMetadata()).setUid("other").build()).build()));
        assertEquals(List.of("b"), decider.feasibleNodes(PodInfo.of(web), s));
        assertEquals(List.of("a", "b"), decider.feasibleNodes(PodInfo.of(TestObjects.pod("plain", "100m")), s));
    }

    // ---- pod affinity and anti-affinity

    private static PodAffinityTerm term(String key, Map<String, String> match) {
        return PodAffinityTerm.newBuilder().setTopologyKey(key)
                .setLabelSelector(LabelSelector.newBuilder().setMatchLabels(match).build()).build();
    }

    private static Pod affinity(Pod p, List<PodAffinityTerm> required, List<PodAffinityTerm> antiRequired) {
        return spec(p, b -> b.setAffinity(Affinity.newBuilder()
                .setPodAffinity(required.isEmpty() ? null : PodAffinity.newBuilder()
                        .setRequiredDuringSchedulingIgnoredDuringExecution(required).build())
                .setPodAntiAffinity(antiRequired.isEmpty() ? null : PodAntiAffinity.newBuilder()
                        .setRequiredDuringSchedulingIgnoredDuringExecution(antiRequired).build())
                .build()));
    }

    private static ClusterSnapshot zones() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            nodes.add(node("n" + i, Map.of("kubernetes.io/hostname", "n" + i, "zone", i <= 2 ? "a" : "b")));
        }
        return ClusterSnapshot.of(nodes);
    }

    @Test
    @DisplayName("required pod affinity: only nodes in the topology of a matching pod; the first of a self-affine group may go anywhere")
    void requiredPodAffinity() {
        ClusterSnapshot s = zones();
        Pod web = affinity(labelled("web-0", "default", Map.of("app", "web")), List.of(term("zone", Map.of("app", "cache"))), List.of());
        assertEquals("0/4 nodes are available: 4 node(s) didn't match pod affinity rules.",
                assertInstanceOf(Placement.Unschedulable.class, decider.decide(web, s)).message());
        s.add("n3", PodInfo.of(labelled("cache-0", "default", Map.of("app", "cache"))));
        assertEquals(List.of("n3", "n4"), decider.feasibleNodes(PodInfo.of(web), s));
        Pod otherNs = labelled("cache-1", "other", Map.of("app", "cache"));
        ClusterSnapshot s2 = zones();
        s2.add("n1", PodInfo.of(otherNs));
        assertEquals(List.of(), decider.feasibleNodes(PodInfo.of(web), s2), "terms default to the pod's own namespace");

        Pod selfAffine = affinity(labelled("g-0", "default", Map.of("app", "g")), List.of(term("zone", Map.of("app", "g"))), List.of());
        assertEquals(List.of("n1", "n2", "n3", "n4"), decider.feasibleNodes(PodInfo.of(selfAffine), zones()));
    }

    @Test
    @DisplayName("POD-16.20 required pod anti-affinity allows one matching pod per topology domain: one per node on "
            + "hostname, one per zone on zone; the placed pods' own anti-affinity is honoured too (symmetry)")
    void requiredAntiAffinity() {
        ClusterSnapshot s = zones();
        Pod first = affinity(labelled("web-0", "default", Map.of("app", "web")), List.of(),
                List.of(term("kubernetes.io/hostname", Map.of("app", "web"))));
        s.add("n1", PodInfo.of(first));
        Pod second = affinity(labelled("web-1", "default", Map.of("app", "web")), List.of(),
                List.of(term("kubernetes.io/hostname", Map.of("app", "web"))));
        assertEquals(List.of("n2", "n3", "n4"), decider.feasibleNodes(PodInfo.of(second), s));
        Pod plainWeb = labelled("web-x", "default", Map.of("app", "web"));
        assertEquals(List.of("n2", "n3", "n4"), decider.feasibleNodes(PodInfo.of(plainWeb), s),
                "web-0's anti-affinity keeps other web pods off n1");
        ClusterSnapshot full = zones();
        for (int i = 1; i <= 4; i++) {
            full.add("n" + i, PodInfo.of(affinity(labelled("web-" + i, "default", Map.of("app", "web")), List.of(),
                    List.of(term("kubernetes.io/hostname", Map.of("app", "web"))))));
        }
        assertEquals("0/4 nodes are available: 4 node(s) didn't satisfy existing pods anti-affinity rules.",
                assertInstanceOf(Placement.Unschedulable.class, decider.decide(second, full)).message());
        ClusterSnapshot byZone = zones();
        byZone.add("n1", PodInfo.of(labelled("web-a", "default", Map.of("app", "web"))));
        Pod zoneAnti = affinity(labelled("web-z", "default", Map.of("app", "other")), List.of(), List.of(term("zone", Map.of("app", "web"))));
        assertEquals(List.of("n3", "n4"), decider.feasibleNodes(PodInfo.of(zoneAnti), byZone));
        byZone.add("n3", PodInfo.of(labelled("web-b", "default", Map.of("app", "web"))));
        assertEquals("0/4 nodes are available: 4 node(s) didn't match pod anti-affinity rules.",
                assertInstanceOf(Placement.Unschedulable.class, decider.decide(zoneAnti, byZone)).message());
    }

    @Test
    @DisplayName("namespaceSelector and namespaces widen a term beyond the pod's namespace; matchLabelKeys narrows it")
    void namespacesAndMatchLabelKeys() {
        ClusterSnapshot s = zones().namespace("team-a", Map.of("team", "a")).namespace("team-b", Map.of("team", "b"));
        s.add("n1", PodInfo.of(labelled("db", "team-a", Map.of("app", "db"))));
        PodAffinityTerm bySelector = PodAffinityTerm.newBuilder(term("zone", Map.of("app", "db")))
                .setNamespaceSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("team", "a")).build()).build();
        Pod p = affinity(labelled("web", "default", Map.of("app", "web")), List.of(bySelector), List.of());
        assertEquals(List.of("n1", "n2"), decider.feasibleNodes(PodInfo.of(p), s));
        PodAffinityTerm byList = PodAffinityTerm.newBuilder(term("zone", Map.of("app", "db"))).setNamespaces(List.of("team-a")).build();
        assertEquals(List.of("n1", "n2"), decider.feasibleNodes(PodInfo.of(affinity(labelled("web", "default",
                Map.of("app", "web")), List.of(byList), List.of())), s));
        PodAffinityTerm everywhere = PodAffinityTerm.newBuilder(term("zone", Map.of("app", "db")))
                .setNamespaceSelector(new LabelSelector()).build();
        assertEquals(List.of("n1", "n2"), decider.feasibleNodes(PodInfo.of(affinity(labelled("web", "default",
                Map.of("app", "web")), List.of(everywhere), List.of())), s));

        ClusterSnapshot revs = zones();
        revs.add("n1", PodInfo.of(labelled("web-old", "default", Map.of("app", "web", "rev", "1"))));
        PodAffinityTerm sameRev = PodAffinityTerm.newBuilder(term("kubernetes.io/hostname", Map.of("app", "web")))
                .setMatchLabelKeys(List.of("rev")).build();
        Pod rev2 = affinity(labelled("web-new", "default", Map.of("app", "web", "rev", "2")), List.of(), List.of(sameRev));
        assertEquals(List.of("n1", "n2", "n3", "n4"), decider.feasibleNodes(PodInfo.of(rev2), revs),
                "anti-affinity only against the same revision");
    }

    @Test
    @DisplayName("preferred pod affinity pulls towards a matching pod's zone; preferred anti-affinity pushes away")
    void preferredPodAffinity() {
        ClusterSnapshot s = zones();
        s.add("n1", PodInfo.of(labelled("cache", "default", Map.of("app", "cache"))));
        WeightedPodAffinityTerm w = WeightedPodAffinityTerm.newBuilder().setWeight(100)
                .setPodAffinityTerm(term("zone", Map.of("app", "cache"))).build();
        for (int i = 0; i < 4; i++) {
            Pod near = spec(labelled("near-" + i, "default", Map.of()), b -> b.setAffinity(Affinity.newBuilder()
                    .setPodAffinity(PodAffinity.newBuilder().setPreferredDuringSchedulingIgnoredDuringExecution(List.of(w)).build()).build()));
            String node = assertInstanceOf(Placement.Bind.class, decider.decide(near, s)).node();
            assertEquals("a", s.node(node).labels().get("zone"), node);
            Pod far = spec(labelled("far-" + i, "default", Map.of()), b -> b.setAffinity(Affinity.newBuilder()
                    .setPodAntiAffinity(PodAntiAffinity.newBuilder().setPreferredDuringSchedulingIgnoredDuringExecution(List.of(w)).build()).build()));
            node = assertInstanceOf(Placement.Bind.class, decider.decide(far, s)).node();
            assertEquals("b", s.node(node).labels().get("zone"), node);
        }
    }

    @Test
    @DisplayName("Kubernetes' partial search: with 1,000 nodes the search stops at 42% feasible, and the next search starts where it stopped")
    void partialSearch() {
        SchedulerDecider adaptive = new SchedulerDecider(SchedulerDecider.Profile.defaults());
        assertEquals(420, adaptive.numFeasibleNodesToFind(1000));
        assertEquals(500, adaptive.numFeasibleNodesToFind(5000));
        assertEquals(1250, adaptive.numFeasibleNodesToFind(25000));
        assertEquals(99, adaptive.numFeasibleNodesToFind(99));
        assertEquals(100, adaptive.numFeasibleNodesToFind(150));
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            nodes.add(node(String.format("n%04d", i), Map.of()));
        }
        ClusterSnapshot s = ClusterSnapshot.of(nodes);
        Placement.Bind b = assertInstanceOf(Placement.Bind.class, adaptive.decide(TestObjects.pod("p", "100m"), s));
        assertEquals(420, b.feasible());
        assertEquals(420, s.nextStartNodeIndex());
    }

    @Test
    @DisplayName("the anti-affinity counts shared by a batch follow each placement: one pod of a group per node until full")
    void sharedAntiAffinityCounts() {
        ClusterSnapshot s = zones();
        for (int i = 0; i < 4; i++) {
            Pod p = affinity(labelled("g-" + i, "default", Map.of("group", "g")), List.of(),
                    List.of(term("kubernetes.io/hostname", Map.of("group", "g"))));
            PodInfo info = PodInfo.of(p);
            s.add(assertInstanceOf(Placement.Bind.class, decider.decide(info, s)).node(), info);
        }
        for (int i = 1; i <= 4; i++) {
            assertEquals(1, s.node("n" + i).pods(), "n" + i);
        }
        Pod fifth = affinity(labelled("g-4", "default", Map.of("group", "g")), List.of(),
                List.of(term("kubernetes.io/hostname", Map.of("group", "g"))));
        assertEquals("0/4 nodes are available: 4 node(s) didn't satisfy existing pods anti-affinity rules.",
                assertInstanceOf(Placement.Unschedulable.class, decider.decide(fifth, s)).message());
    }
}
