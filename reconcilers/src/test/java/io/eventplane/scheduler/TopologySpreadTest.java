package io.eventplane.scheduler;

import static io.eventplane.testkit.objects.KubeObjects.labels;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Affinity;
import io.eventplane.model.LabelSelector;
import io.eventplane.model.Node;
import io.eventplane.model.NodeAffinity;
import io.eventplane.model.NodeSelector;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.NodeSelectorTerm;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Taint;
import io.eventplane.model.TopologySpreadConstraint;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The worked examples of spec/pods.md 24.1 (W-T1 ... W-T13) and the fields newer than the seeds (POD-16.21). */
class TopologySpreadTest {
    private final SchedulerDecider decider = new SchedulerDecider(new SchedulerDecider.Profile(0, 100, null));
    private int podSeq;

    // ---- fixtures

    private static Node node(String name, Map<String, String> labels) {
        return TestObjects.node(name, "8", "32Gi", "110", "True", labels);
    }

    private static Node n(String name, String zone) {
        return node(name, zone == null ? labels("node", name) : labels("node", name, "zone", zone));
    }

    /** B4: node1, node2 in zoneA; node3, node4 in zoneB. */
    private static List<Node> b4() {
        return new ArrayList<>(List.of(n("node1", "zoneA"), n("node2", "zoneA"), n("node3", "zoneB"), n("node4", "zoneB")));
    }

    private Pod labelled(String name, Map<String, String> labels) {
        Pod p = TestObjects.pod(name, "100m");
        return Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata()).setLabels(labels).build()).build();
    }

    private Pod foo() {
        return labelled("existing-" + podSeq++, Map.of("foo", "bar"));
    }

    private static TopologySpreadConstraint constraint(String key, int maxSkew, String when) {
        return TopologySpreadConstraint.newBuilder().setMaxSkew(maxSkew).setTopologyKey(key).setWhenUnsatisfiable(when)
                .setLabelSelector(LabelSelector.newBuilder().setMatchLabels(Map.of("foo", "bar")).build()).build();
    }

    private static Pod withConstraints(Pod pod, TopologySpreadConstraint... constraints) {
        return TestObjects.withSpec(pod, PodSpec.newBuilder(pod.getSpec()).setTopologySpreadConstraints(List.of(constraints)).build());
    }

    private Pod mypod(TopologySpreadConstraint... constraints) {
        return withConstraints(labelled("mypod", Map.of("foo", "bar")), constraints);
    }

    /** The snapshot with {@code foo=bar} pods placed: {@code counts} maps node name to how many. */
    private ClusterSnapshot cluster(List<Node> nodes, Map<String, Integer> counts) {
        ClusterSnapshot s = ClusterSnapshot.of(nodes);
        counts.forEach((node, k) -> {
            for (int i = 0; i < k; i++) {
                s.add(node, PodInfo.of(foo()));
            }
        });
        return s;
    }

    private ClusterSnapshot b4WithPods() {
        return cluster(b4(), Map.of("node1", 1, "node2", 1, "node3", 1));
    }

    private List<String> feasible(Pod pod, ClusterSnapshot s) {
        return decider.feasibleNodes(PodInfo.of(pod), s);
    }

    // ---- 24.1

    @Test
    @DisplayName("W-T1 POD-16.3 POD-16.6 POD-16.8 POD-16.22 zone maxSkew 1: zoneA would reach [3,1], so only zoneB (node3, node4) is feasible")
    void wt1() {
        ClusterSnapshot s = b4WithPods();
        Pod pod = mypod(constraint("zone", 1, "DoNotSchedule"));
        assertEquals(List.of("node3", "node4"), feasible(pod, s));
        Placement.Bind b = assertInstanceOf(Placement.Bind.class, decider.decide(pod, s));
        assertTrue(List.of("node3", "node4").contains(b.node()), b.node());
    }

    @Test
    @DisplayName("W-T2 POD-16.6 zone maxSkew 2: zoneA is allowed too, node1-node4 are feasible")
    void wt2() {
        assertEquals(List.of("node1", "node2", "node3", "node4"),
                feasible(mypod(constraint("zone", 2, "DoNotSchedule")), b4WithPods()));
    }

    @Test
    @DisplayName("W-T3 POD-16.2 topologyKey node, maxSkew 1: counts [1,1,1,0], only node4")
    void wt3() {
        assertEquals(List.of("node4"), feasible(mypod(constraint("node", 1, "DoNotSchedule")), b4WithPods()));
    }

    @Test
    @DisplayName("W-T4 POD-16.7 ScheduleAnyway: every node is feasible and the scorer picks zoneB")
    void wt4() {
        Pod pod = mypod(constraint("zone", 1, "ScheduleAnyway"));
        ClusterSnapshot s = b4WithPods();
        assertEquals(List.of("node1", "node2", "node3", "node4"), feasible(pod, s));
        for (long seed = 0; seed < 5; seed++) {
            SchedulerDecider seeded = new SchedulerDecider(new SchedulerDecider.Profile(seed, 100, null));
            String node = assertInstanceOf(Placement.Bind.class, seeded.decide(pod, b4WithPods())).node();
            assertTrue(List.of("node3", "node4").contains(node), node);
        }
    }

    @Test
    @DisplayName("W-T5 POD-16.9 zone and node constraints are ANDed: node4 only")
    void wt5() {
        assertEquals(List.of("node4"), feasible(mypod(constraint("zone", 1, "DoNotSchedule"),
                constraint("node", 1, "DoNotSchedule")), b4WithPods()));
    }

    private List<Node> conflictCluster(boolean node1HasZone) {
        return new ArrayList<>(List.of(n("node1", node1HasZone ? "zoneA" : null), n("node2", "zoneA"), n("node3", "zoneB")));
    }

    @Test
    @DisplayName("W-T6 POD-16.9 conflicting constraints: zone allows node3, node allows node2, mypod stays Pending")
    void wt6() {
        ClusterSnapshot s = cluster(conflictCluster(true), Map.of("node1", 2, "node2", 1, "node3", 2));
        Pod pod = mypod(constraint("zone", 1, "DoNotSchedule"), constraint("node", 1, "DoNotSchedule"));
        assertEquals(List.of(), feasible(pod, s));
        Placement.Unschedulable u = assertInstanceOf(Placement.Unschedulable.class, decider.decide(pod, s));
        assertEquals("0/3 nodes are available: 3 node(s) didn't match pod topology spread constraints.", u.message());
    }

    @Test
    @DisplayName("W-T7 POD-16.11 node1 without a zone label: its pods are not counted, mypod goes to node2 in zoneA")
    void wt7() {
        ClusterSnapshot s = cluster(conflictCluster(false), Map.of("node1", 2, "node2", 1, "node3", 2));
        Pod pod = mypod(constraint("zone", 1, "DoNotSchedule"), constraint("node", 1, "DoNotSchedule"));
        assertEquals(List.of("node2"), feasible(pod, s));
        assertEquals("node2", assertInstanceOf(Placement.Bind.class, decider.decide(pod, s)).node());
    }

    @Test
    @DisplayName("W-T8 POD-16.11 node5 with only zone-typo is never chosen and its pods are not counted")
    void wt8() {
        List<Node> nodes = b4();
        nodes.add(node("node5", labels("node", "node5", "zone-typo", "zoneC")));
        ClusterSnapshot s = cluster(nodes, Map.of("node1", 1, "node2", 1, "node3", 1, "node5", 5));
        Pod pod = mypod(constraint("zone", 1, "DoNotSchedule"));
        assertEquals(List.of("node3", "node4"), feasible(pod, s));
        Placement.Unschedulable onlyNode5 = assertInstanceOf(Placement.Unschedulable.class, decider.decide(
                TestObjects.withSpec(pod, PodSpec.newBuilder(pod.getSpec()).setNodeName("node5").build()), s));
        assertTrue(onlyNode5.message().contains(
                "1 node(s) didn't match pod topology spread constraints (missing required label)"), onlyNode5.message());
    }

    @Test
    @DisplayName("W-T9 POD-16.12 an incoming pod that its selector does not match: zoneB feasible, and (as the real filter) zoneA too; counts unchanged")
    void wt9() {
        ClusterSnapshot s = b4WithPods();
        Pod pod = withConstraints(labelled("mypod", Map.of()), constraint("zone", 1, "DoNotSchedule"));
        List<String> feasible = feasible(pod, s);
        assertTrue(feasible.containsAll(List.of("node3", "node4")), feasible.toString());
        assertEquals(List.of("node1", "node2", "node3", "node4"), feasible);
        PodInfo info = PodInfo.of(pod);
        String node = assertInstanceOf(Placement.Bind.class, decider.decide(info, s)).node();
        s.add(node, info);
        // zoneA still counts 2 and zoneB 1: the next foo=bar pod must still go to zoneB.
        assertEquals(List.of("node3", "node4"), feasible(mypod(constraint("zone", 1, "DoNotSchedule")), s));
    }

    @Test
    @DisplayName("W-T10 POD-16.13 nodeAffinity zone NotIn [zoneC] excludes zoneC from candidates and counting: zoneB; without it only zoneC")
    void wt10() {
        List<Node> nodes = b4();
        nodes.add(n("node5", "zoneC"));
        Pod plain = mypod(constraint("zone", 1, "DoNotSchedule"));
        Pod notC = TestObjects.withSpec(plain, PodSpec.newBuilder(plain.getSpec()).setAffinity(Affinity.newBuilder()
                .setNodeAffinity(NodeAffinity.newBuilder().setRequiredDuringSchedulingIgnoredDuringExecution(
                        NodeSelector.newBuilder().setNodeSelectorTerms(List.of(NodeSelectorTerm.newBuilder()
                                .setMatchExpressions(List.of(NodeSelectorRequirement.newBuilder().setKey("zone")
                                        .setOperator("NotIn").setValues(List.of("zoneC")).build())).build())).build())
                        .build()).build()).build());
        ClusterSnapshot s = cluster(nodes, Map.of("node1", 1, "node2", 1, "node3", 1));

        assertEquals(List.of("node3", "node4"), feasible(notC, s));
        assertEquals(List.of("node5"), feasible(plain, s));
    }

    @Test
    @DisplayName("W-T11 POD-16.6 three zones with 0, 2 and 3 matching pods: the global minimum is 0")
    void wt11() {
        List<Node> nodes = List.of(n("a", "z0"), n("b", "z2"), n("c", "z3"));
        ClusterSnapshot s = cluster(nodes, Map.of("b", 2, "c", 3));
        // maxSkew 2: z0 gives 1-0, z2 gives 3-0 > 2, z3 gives 4-0 > 2: only a minimum of 0 explains {a}.
        assertEquals(List.of("a"), feasible(mypod(constraint("zone", 2, "DoNotSchedule")), s));
        TopologySpread.Filter f = new TopologySpread.Filter(PodInfo.of(mypod()), s, TopologySpread.constraints(
                PodInfo.of(mypod(constraint("zone", 1, "DoNotSchedule"))), s, List.of(), "DoNotSchedule"));
        assertEquals(0, f.min[0]);
    }

    private Pod ownedByReplicaSet(Pod pod) {
        return Pod.newBuilder(pod).setMetadata(ObjectMeta.newBuilder(pod.getMetadata())
                .setLabels(Map.of("app", "web")).build()).build();
    }

    private ClusterSnapshot zonesWithWeb() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            nodes.add(node("n" + i, labels("kubernetes.io/hostname", "n" + i, "topology.kubernetes.io/zone", i <= 2 ? "a" : "b")));
        }
        ClusterSnapshot s = ClusterSnapshot.of(nodes);
        s.workload("default", LabelSelector.newBuilder().setMatchLabels(Map.of("app", "web")).build());
        for (int i = 0; i < 3; i++) {
            s.add("n1", PodInfo.of(ownedByReplicaSet(TestObjects.pod("w" + i, "100m"))));
            s.add("n2", PodInfo.of(ownedByReplicaSet(TestObjects.pod("x" + i, "100m"))));
        }
        return s;
    }

    @Test
    @DisplayName("POD-16.16 the remembered spread counts, kept current as pods are placed, score as counting afresh does")
    void rememberedScoreCountsStayCurrent() {
        ClusterSnapshot live = zonesWithWeb();
        List<PodInfo> placed = new ArrayList<>();
        String[] targets = {"n3", "n1", "n4", "n3", "n2", "n4"};
        for (int i = 0; i < targets.length; i++) {
            PodInfo info = PodInfo.of(ownedByReplicaSet(TestObjects.pod("p" + i, "100m")));
            ClusterSnapshot fresh = zonesWithWeb();
            for (int k = 0; k < placed.size(); k++) {
                fresh.add(targets[k], placed.get(k));
            }
            NodeState[] all = live.nodeArray();
            List<TopologySpread.Constraint> soft = TopologySpread.constraints(info, live, TopologySpread.SYSTEM_DEFAULTS,
                    "ScheduleAnyway");
            int[] remembered = TopologySpread.scores(info, live, soft, true, all, all.length);
            NodeState[] freshNodes = fresh.nodeArray();
            int[] counted = TopologySpread.scores(info, fresh, TopologySpread.constraints(info, fresh,
                    TopologySpread.SYSTEM_DEFAULTS, "ScheduleAnyway"), true, freshNodes, freshNodes.length);
            assertEquals(java.util.Arrays.toString(counted), java.util.Arrays.toString(remembered), "after " + i + " pod(s)");
            live.add(targets[i], info);
            placed.add(info);
        }
        assertEquals(1, live.scoreMemo.size(), "the pods of one workload share one memo");
    }

    @Test
    @DisplayName("W-T12 POD-16.14 POD-16.16 a ReplicaSet's pod gets the system defaults: scored towards the empty zone, never filtered")
    void wt12() {
        Pod pod = ownedByReplicaSet(TestObjects.pod("web-new", "100m"));
        PodInfo info = PodInfo.of(pod);
        ClusterSnapshot s = zonesWithWeb();
        List<TopologySpread.Constraint> soft = TopologySpread.constraints(info, s, TopologySpread.SYSTEM_DEFAULTS,
                "ScheduleAnyway");
        assertEquals(List.of(3, 5), soft.stream().map(TopologySpread.Constraint::maxSkew).toList());
        assertEquals(List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone"),
                soft.stream().map(TopologySpread.Constraint::topologyKey).toList());
        assertEquals(List.of("n1", "n2", "n3", "n4"), decider.feasibleNodes(info, s));
        for (long seed = 0; seed < 5; seed++) {
            SchedulerDecider seeded = new SchedulerDecider(new SchedulerDecider.Profile(seed, 100, null));
            String node = assertInstanceOf(Placement.Bind.class, seeded.decide(info, zonesWithWeb())).node();
            assertTrue(List.of("n3", "n4").contains(node), node);
        }
    }

    @Test
    @DisplayName("POD-16.14 POD-16.16 a bare pod a Service selects gets the system defaults with the Service's selector "
            + "(read from the cluster's Services); a Service without selector, or another namespace's, adds nothing")
    void serviceSelectsPod() {
        List<Node> nodes = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            nodes.add(node("n" + i, labels("kubernetes.io/hostname", "n" + i, "topology.kubernetes.io/zone",
                    i <= 2 ? "a" : "b")));
        }
        Map<String, List<io.eventplane.log.ObjectChanged>> state = Map.of(
                "Service", List.of(service("default", "web", Map.of("app", "web")), service("default", "bare", null),
                        service("other", "web", Map.of("app", "web", "tier", "x"))));
        ClusterSnapshot s = ClusterSnapshot.of(nodes);
        SnapshotBuilder.readMetadata(s, kind -> state.getOrDefault(kind, List.of()));
        for (int i = 0; i < 3; i++) {
            s.add("n1", PodInfo.of(ownedByReplicaSet(TestObjects.pod("w" + i, "100m"))));
            s.add("n2", PodInfo.of(ownedByReplicaSet(TestObjects.pod("x" + i, "100m"))));
        }
        PodInfo bare = PodInfo.of(ownedByReplicaSet(TestObjects.pod("web-new", "100m")));
        assertEquals(Map.of("app", "web"), TopologySpread.workloadSelector(bare, s).getMatchLabels());
        assertEquals(2, TopologySpread.constraints(bare, s, TopologySpread.SYSTEM_DEFAULTS, "ScheduleAnyway").size());
        String node = assertInstanceOf(Placement.Bind.class, decider.decide(bare, s)).node();
        assertTrue(List.of("n3", "n4").contains(node), node);
        PodInfo unselected = PodInfo.of(labelled("loner", Map.of("app", "db")));
        assertEquals(List.of(), TopologySpread.constraints(unselected, s, TopologySpread.SYSTEM_DEFAULTS,
                "ScheduleAnyway"));
    }

    private static io.eventplane.log.ObjectChanged service(String namespace, String name, Map<String, String> selector) {
        io.eventplane.model.Service svc = io.eventplane.model.Service.newBuilder()
                .setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace(namespace).build())
                .setSpec(io.eventplane.model.ServiceSpec.newBuilder().setSelector(selector).build()).build();
        return io.eventplane.log.ObjectChanged.newBuilder()
                .setEnvelope(io.eventplane.log.Envelope.newBuilder().setActor("t").setRequestId(name)
                        .setTime(java.time.Instant.EPOCH).build())
                .setType(io.eventplane.log.ChangeType.CREATED).setKind("Service").setNamespace(namespace).setName(name)
                .setUid(namespace + "-" + name).setResourceVersion(1).setObject(svc).build();
    }

    @Test
    @DisplayName("W-T13 POD-16.14 a pod with its own constraints does not get the cluster defaults")
    void wt13() {
        Pod pod = withConstraints(ownedByReplicaSet(TestObjects.pod("web-new", "100m")), constraint("node", 1, "DoNotSchedule"));
        PodInfo info = PodInfo.of(pod);
        assertEquals(List.of(), TopologySpread.constraints(info, zonesWithWeb(), TopologySpread.SYSTEM_DEFAULTS,
                "ScheduleAnyway"));
        assertEquals(1, TopologySpread.constraints(info, zonesWithWeb(), TopologySpread.SYSTEM_DEFAULTS,
                "DoNotSchedule").size());
    }

    @Test
    @DisplayName("POD-16.18 defaultingType List with no constraints disables the defaults")
    void defaultsDisabled() {
        PodInfo info = PodInfo.of(ownedByReplicaSet(TestObjects.pod("web-new", "100m")));
        assertEquals(List.of(), TopologySpread.constraints(info, zonesWithWeb(), List.of(), "ScheduleAnyway"));
    }

    @Test
    @DisplayName("POD-16.14 cluster default DoNotSchedule constraints (List) filter with the workload's selector")
    void listDefaultsFilter() {
        SchedulerDecider listed = new SchedulerDecider(new SchedulerDecider.Profile(0, 100, List.of(
                TopologySpreadConstraint.newBuilder().setMaxSkew(1).setTopologyKey("topology.kubernetes.io/zone")
                        .setWhenUnsatisfiable("DoNotSchedule").build())));
        assertEquals(List.of("n3", "n4"), listed.feasibleNodes(PodInfo.of(ownedByReplicaSet(TestObjects.pod("web-new", "100m"))),
                zonesWithWeb()));
        // A pod no workload selects gets no defaults.
        assertEquals(List.of("n1", "n2", "n3", "n4"), listed.feasibleNodes(PodInfo.of(TestObjects.pod("lone", "100m")),
                zonesWithWeb()));
    }

    // ---- POD-16.21: fields newer than the seeds

    @Test
    @DisplayName("POD-16.21 minDomains 3 with two zones: the global minimum counts as 0, so only the emptier zone passes at maxSkew 1")
    void minDomains() {
        ClusterSnapshot s = cluster(b4(), Map.of("node1", 1, "node3", 1));
        TopologySpreadConstraint c = TopologySpreadConstraint.newBuilder(constraint("zone", 1, "DoNotSchedule")).build();
        assertEquals(List.of("node1", "node2", "node3", "node4"), feasible(mypod(c), s));
        TopologySpreadConstraint min3 = TopologySpreadConstraint.newBuilder(c).setMinDomains(3).build();
        // [1,1] with min forced to 0: 1 + 1 - 0 = 2 > 1 everywhere.
        assertEquals(List.of(), feasible(mypod(min3), s));
    }

    @Test
    @DisplayName("POD-16.21 nodeAffinityPolicy Ignore counts the domains the pod's node selector excludes")
    void nodeAffinityPolicy() {
        List<Node> nodes = b4();
        nodes.add(n("node5", "zoneC"));
        ClusterSnapshot s = cluster(nodes, Map.of("node1", 1, "node3", 1));
        Pod honor = mypod(constraint("zone", 1, "DoNotSchedule"));
        honor = TestObjects.withSpec(honor, PodSpec.newBuilder(honor.getSpec()).setNodeSelector(Map.of("node", "node2")).build());
        // Honor (default): zoneC is not a domain, min is 1 and node2 (zoneA count 1) passes.
        assertEquals(List.of("node2"), feasible(honor, s));
        TopologySpreadConstraint ignore = TopologySpreadConstraint.newBuilder(constraint("zone", 1, "DoNotSchedule"))
                .setNodeAffinityPolicy("Ignore").build();
        Pod ignoring = withConstraints(honor, ignore);
        // Ignore: zoneC (0) counts, min is 0, node2 would make zoneA 2: rejected.
        assertEquals(List.of(), feasible(ignoring, s));
    }

    @Test
    @DisplayName("POD-16.21 nodeTaintsPolicy Honor leaves out the domains of nodes with untolerated taints")
    void nodeTaintsPolicy() {
        List<Node> nodes = b4();
        Node tainted = n("node5", "zoneC");
        tainted = Node.newBuilder(tainted).setSpec(io.eventplane.model.NodeSpec.newBuilder().setTaints(List.of(
                Taint.newBuilder().setKey("dedicated").setValue("db").setEffect("NoSchedule").build())).build()).build();
        nodes.add(tainted);
        ClusterSnapshot s = cluster(nodes, Map.of("node1", 1, "node2", 1, "node3", 1));
        // Ignore (default): zoneC counts 0, so nothing but the tainted node5 could pass.
        assertEquals(List.of(), feasible(mypod(constraint("zone", 1, "DoNotSchedule")), s));
        TopologySpreadConstraint honor = TopologySpreadConstraint.newBuilder(constraint("zone", 1, "DoNotSchedule"))
                .setNodeTaintsPolicy("Honor").build();
        assertEquals(List.of("node3", "node4"), feasible(mypod(honor), s));
    }

    @Test
    @DisplayName("POD-16.19 pods on a tainted node are still counted (nodeTaintsPolicy Ignore): zoneA's 2 pods on a "
            + "tainted node keep zoneA out")
    void taintedNodesCounted() {
        List<Node> nodes = b4();
        nodes.set(0, Node.newBuilder(nodes.get(0)).setSpec(io.eventplane.model.NodeSpec.newBuilder().setTaints(List.of(
                Taint.newBuilder().setKey("dedicated").setValue("db").setEffect("NoSchedule").build())).build()).build());
        ClusterSnapshot s = cluster(nodes, Map.of("node1", 2, "node3", 1));
        // counted: zoneA 2, zoneB 1; node2 would make zoneA 3, a skew of 2
        assertEquals(List.of("node3", "node4"), feasible(mypod(constraint("zone", 1, "DoNotSchedule")), s));
    }

    @Test
    @DisplayName("POD-16.17 ScheduleAnyway: an empty node without the zone label is not favoured, it gets no spread "
            + "score; the pod goes to the emptier zone")
    void nodesWithoutKeyNotScored() {
        List<Node> nodes = b4();
        nodes.add(n("node5", null));
        Pod pod = mypod(constraint("zone", 1, "ScheduleAnyway"));
        for (long seed = 0; seed < 5; seed++) {
            SchedulerDecider seeded = new SchedulerDecider(new SchedulerDecider.Profile(seed, 100, null));
            String node = assertInstanceOf(Placement.Bind.class, seeded.decide(pod,
                    cluster(nodes, Map.of("node1", 2, "node2", 2, "node3", 1)))).node();
            assertTrue(List.of("node3", "node4").contains(node), node);
        }
    }

    @Test
    @DisplayName("POD-16.21 matchLabelKeys narrows the selector to pods with the incoming pod's value")
    void matchLabelKeys() {
        ClusterSnapshot s = ClusterSnapshot.of(b4());
        for (String node : List.of("node1", "node2", "node3")) {
            s.add(node, PodInfo.of(labelled("old-" + node, Map.of("foo", "bar", "rev", "1"))));
        }
        s.add("node1", PodInfo.of(labelled("new-1", Map.of("foo", "bar", "rev", "2"))));
        TopologySpreadConstraint c = TopologySpreadConstraint.newBuilder(constraint("zone", 1, "DoNotSchedule"))
                .setMatchLabelKeys(List.of("rev")).build();
        Pod rev2 = withConstraints(labelled("mypod", Map.of("foo", "bar", "rev", "2")), c);
        // Only rev=2 pods count: zoneA 1, zoneB 0, so zoneB.
        assertEquals(List.of("node3", "node4"), feasible(rev2, s));
        Pod rev1 = withConstraints(labelled("mypod1", Map.of("foo", "bar", "rev", "1")), c);
        // rev=1: zoneA 2, zoneB 1: zoneB.
        assertEquals(List.of("node3", "node4"), feasible(rev1, s));
        // Without matchLabelKeys all four count: zoneA 3, zoneB 1, zoneB; maxSkew 3 lets zoneA in only with the narrowing.
        TopologySpreadConstraint wide = TopologySpreadConstraint.newBuilder(constraint("zone", 2, "DoNotSchedule")).build();
        assertEquals(List.of("node3", "node4"), feasible(withConstraints(rev2, wide), s));
        TopologySpreadConstraint narrow = TopologySpreadConstraint.newBuilder(wide).setMatchLabelKeys(List.of("rev")).build();
        assertEquals(List.of("node1", "node2", "node3", "node4"), feasible(withConstraints(rev2, narrow), s));
    }

    @Test
    @DisplayName("POD-16.10 only pods of the incoming pod's namespace are counted")
    void sameNamespaceOnly() {
        ClusterSnapshot s = ClusterSnapshot.of(b4());
        for (int i = 0; i < 3; i++) {
            Pod other = foo();
            other = Pod.newBuilder(other).setMetadata(ObjectMeta.newBuilder(other.getMetadata()).setNamespace("other").build()).build();
            s.add("node1", PodInfo.of(other));
        }
        assertEquals(List.of("node1", "node2", "node3", "node4"), feasible(mypod(constraint("zone", 1, "DoNotSchedule")), s));
    }

    @Test
    @DisplayName("POD-16.6 the PreFilter counts shared by a batch of pods stay equal to counts made from scratch as pods are placed")
    void sharedCountsFollowPlacements() {
        List<Node> nodes = b4();
        nodes.add(n("node5", "zoneC"));
        ClusterSnapshot kept = ClusterSnapshot.of(nodes);
        List<String[]> placed = new ArrayList<>();
        TopologySpreadConstraint zone = constraint("zone", 1, "DoNotSchedule");
        TopologySpreadConstraint node = constraint("node", 4, "DoNotSchedule");
        for (int i = 0; i < 15; i++) {
            Pod p = withConstraints(labelled("p" + i, Map.of("foo", "bar")), zone, node);
            PodInfo info = PodInfo.of(p);
            ClusterSnapshot fresh = ClusterSnapshot.of(nodes);
            for (String[] pn : placed) {
                fresh.add(pn[1], PodInfo.of(withConstraints(labelled(pn[0], Map.of("foo", "bar")), zone, node)));
            }
            assertEquals(decider.feasibleNodes(info, fresh), decider.feasibleNodes(info, kept), "pod " + i);
            String chosen = assertInstanceOf(Placement.Bind.class, decider.decide(info, kept)).node();
            kept.add(chosen, info);
            placed.add(new String[] {"p" + i, chosen});
        }
        Map<String, Integer> perZone = new HashMap<>();
        for (String[] pn : placed) {
            perZone.merge(kept.node(pn[1]).labels().get("zone"), 1, Integer::sum);
        }
        assertEquals(Map.of("zoneA", 5, "zoneB", 5, "zoneC", 5), perZone);
    }
}
