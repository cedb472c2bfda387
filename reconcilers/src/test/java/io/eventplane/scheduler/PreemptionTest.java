package io.eventplane.scheduler;

import static io.eventplane.scheduler.TestObjects.container;
import static io.eventplane.scheduler.TestObjects.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.model.Container;
import io.eventplane.model.Node;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PodDisruptionBudgetStatus;
import io.eventplane.model.PodSpec;
import io.eventplane.model.PodStatus;
import io.eventplane.model.PriorityClass;
import io.eventplane.testkit.objects.KubeObjects;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Preemption decisions (kube-scheduler's DefaultPreemption) on small snapshots. */
class PreemptionTest {
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final SchedulerDecider decider = new SchedulerDecider();
    private final Map<String, Pod> pods = new HashMap<>();
    private final List<PodDisruptionBudget> pdbs = new ArrayList<>();
    private final List<PriorityClass> classes = new ArrayList<>();
    private final List<Pod> nominated = new ArrayList<>();

    /** A pending pod with a priority (null: none set) and requests. */
    static Pod pod(String name, Integer priority, Container... containers) {
        Pod p = TestObjects.pod(name, containers);
        return TestObjects.withSpec(p, PodSpec.newBuilder(p.getSpec()).setPriority(priority).build());
    }

    static Pod pod(String name, Integer priority, String cpu) {
        return pod(name, priority, container("c", cpu, null));
    }

    /** {@code p} running on {@code node} since {@code started}. */
    static Pod running(Pod p, String node, Instant started) {
        return Pod.newBuilder(p).setSpec(PodSpec.newBuilder(p.getSpec()).setNodeName(node).build())
                .setStatus(PodStatus.newBuilder().setPhase("Running").setStartTime(started).build()).build();
    }

    private ClusterSnapshot cluster(Node... nodes) {
        return TestObjects.states(nodes);
    }

    private PodInfo place(ClusterSnapshot c, String node, Pod p, Instant started) {
        Pod r = running(p, node, started);
        pods.put(p.getMetadata().getName(), r);
        PodInfo info = PodInfo.of(r);
        c.add(node, info);
        return info;
    }

    private Preemption.Inputs inputs() {
        return new Preemption.Inputs(PodPriorities.of(classes), pdbs, info -> Optional.ofNullable(pods.get(info.name())),
                nominated, T0.plusSeconds(3600));
    }

    private Preemption.Outcome preempt(Pod p, ClusterSnapshot c) {
        return new Preemption(decider).preempt(p, PodInfo.of(p), c, null, inputs());
    }

    private static List<String> names(List<Pod> victims) {
        return victims.stream().map(v -> v.getMetadata().getName()).toList();
    }

    @Test
    @DisplayName("POD-14.6 a full node: the higher pod evicts only what it needs, the lowest first; the pod of middle "
            + "priority is reprieved")
    void evictsFewestLowest() {
        ClusterSnapshot c = cluster(node("node-1", "2", "8Gi", "110"));
        place(c, "node-1", pod("low", 0, "1"), T0);
        place(c, "node-1", pod("middle", 500, "1"), T0);

        Preemption.Nominated n = assertInstanceOf(Preemption.Nominated.class, preempt(pod("high", 1000, "1"), c));

        assertEquals("node-1", n.node());
        assertEquals(List.of("low"), names(n.victims()));
        assertEquals(2, c.node("node-1").podCount, "the trial leaves the snapshot as it was");
    }

    @Test
    @DisplayName("POD-14.8 QoS plays no part in choosing victims: a Guaranteed pod of lower priority goes before a "
            + "BestEffort one of higher priority")
    void qosIgnored() {
        ClusterSnapshot c = cluster(node("node-1", "2", "8Gi", "2"));
        Container guaranteed = KubeObjects.container("c").requests("1", "1Gi").limits("1", "1Gi").build();
        place(c, "node-1", pod("guaranteed", 10, guaranteed), T0);
        place(c, "node-1", pod("besteffort", 20, KubeObjects.container("c").build()), T0);

        Preemption.Nominated n = assertInstanceOf(Preemption.Nominated.class,
                preempt(pod("high", 1000, KubeObjects.container("c").build()), c));

        assertEquals(List.of("guaranteed"), names(n.victims()));
    }

    @Test
    @DisplayName("POD-14.7 BestEffort pods use what is not assigned: beside a Guaranteed pod of 4 of 16 cores, 12 cores "
            + "stay assignable and BestEffort pods always fit")
    void bestEffortUsesUnassigned() {
        ClusterSnapshot c = cluster(node("node-1", "16", "64Gi", "110"));
        c.add("node-1", PodInfo.of(running(pod("guaranteed", 0,
                KubeObjects.container("c").requests("4", "1Gi").limits("4", "1Gi").build()), "node-1", T0)));

        assertInstanceOf(Placement.Bind.class, decider.decide(pod("besteffort", 0, KubeObjects.container("c").build()), c));
        assertInstanceOf(Placement.Bind.class, decider.decide(pod("twelve", 0, "12"), c));
        assertInstanceOf(Placement.Unschedulable.class, decider.decide(pod("thirteen", 0, "13"), c));
    }

    @Test
    @DisplayName("preemptionPolicy Never: the pod waits, nothing is evicted")
    void neverPreempts() {
        ClusterSnapshot c = cluster(node("node-1", "1", "8Gi", "110"));
        place(c, "node-1", pod("low", 0, "1"), T0);
        Pod p = pod("high", 1000, "1");
        p = TestObjects.withSpec(p, PodSpec.newBuilder(p.getSpec()).setPreemptionPolicy("Never").build());

        assertEquals(new Preemption.NotEligible("not eligible due to preemptionPolicy=Never."), preempt(p, c));
    }

    @Test
    @DisplayName("a pod never preempts pods of equal or higher priority")
    void equalOrHigherNeverVictims() {
        ClusterSnapshot c = cluster(node("node-1", "2", "8Gi", "110"));
        place(c, "node-1", pod("same", 1000, "1"), T0);
        place(c, "node-1", pod("higher", 2000, "1"), T0);

        assertEquals(new Preemption.NoCandidate("0/1 nodes are available: 1 No preemption victims found for incoming pod."),
                preempt(pod("high", 1000, "1"), c));
    }

    @Test
    @DisplayName("no candidate: too big even for an empty node, or a node whose taint no eviction cures")
    void noCandidate() {
        Node tainted = Node.newBuilder(node("node-2", "8", "8Gi", "110")).setSpec(io.eventplane.model.NodeSpec.newBuilder()
                .setTaints(List.of(KubeObjects.taint("dedicated", "gpu", "NoSchedule"))).build()).build();
        ClusterSnapshot c = cluster(node("node-1", "2", "8Gi", "110"), tainted);
        place(c, "node-1", pod("low", 0, "1"), T0);

        assertEquals(new Preemption.NoCandidate("0/2 nodes are available: 1 Insufficient cpu, 1 Preemption is not "
                + "helpful for scheduling."), preempt(pod("huge", 1000, "4"), c));
    }

    @Test
    @DisplayName("PodDisruptionBudgets are respected where possible: the node whose victim violates no budget wins")
    void budgetsRespected() {
        ClusterSnapshot c = cluster(node("node-a", "1", "8Gi", "110"), node("node-b", "1", "8Gi", "110"));
        place(c, "node-a", labelled(pod("guarded", 0, "1"), "app", "db"), T0);
        place(c, "node-b", labelled(pod("free", 100, "1"), "app", "web"), T0);
        pdbs.add(budget("db", 0));

        Preemption.Nominated n = assertInstanceOf(Preemption.Nominated.class, preempt(pod("high", 1000, "1"), c));

        assertEquals("node-b", n.node(), "a budget violation outweighs a lower victim priority");
        assertEquals(0, n.pdbViolations());
    }

    @Test
    @DisplayName("a budget is violated only when nothing else helps, and counted")
    void budgetViolatedWhenUnavoidable() {
        ClusterSnapshot c = cluster(node("node-a", "1", "8Gi", "110"));
        place(c, "node-a", labelled(pod("guarded", 0, "1"), "app", "db"), T0);
        pdbs.add(budget("db", 0));

        Preemption.Nominated n = assertInstanceOf(Preemption.Nominated.class, preempt(pod("high", 1000, "1"), c));

        assertEquals(List.of("guarded"), names(n.victims()));
        assertEquals(1, n.pdbViolations());
    }

    @Test
    @DisplayName("node pick: lowest highest victim, then smallest sum, then fewest victims, then the latest start")
    void pickOrder() {
        VictimSelection.Candidate lowTop = candidate("a", 0, victim(5, T0), victim(5, T0));
        VictimSelection.Candidate highTop = candidate("b", 0, victim(10, T0));
        assertEquals("a", VictimSelection.pick(List.of(highTop, lowTop)).node(), "highest victim priority 5 < 10");

        VictimSelection.Candidate bigSum = candidate("c", 0, victim(5, T0), victim(5, T0));
        VictimSelection.Candidate smallSum = candidate("d", 0, victim(5, T0), victim(1, T0));
        assertEquals("d", VictimSelection.pick(List.of(bigSum, smallSum)).node());

        VictimSelection.Candidate two = candidate("e", 0, victim(-2147483648, T0), victim(-2147483648, T0));
        VictimSelection.Candidate one = candidate("f", 0, victim(-2147483648, T0));
        assertEquals("f", VictimSelection.pick(List.of(two, one)).node(), "priorities are shifted to be non-negative");

        VictimSelection.Candidate old = candidate("g", 0, victim(5, T0));
        VictimSelection.Candidate young = candidate("h", 0, victim(5, T0.plusSeconds(60)));
        assertEquals("h", VictimSelection.pick(List.of(old, young)).node(), "the victims that ran the shortest");

        VictimSelection.Candidate violating = candidate("i", 1, victim(0, T0));
        VictimSelection.Candidate clean = candidate("j", 0, victim(100, T0));
        assertEquals("j", VictimSelection.pick(List.of(violating, clean)).node());
        assertEquals("a", VictimSelection.pick(List.of(lowTop, candidate("z", 0, victim(5, T0), victim(5, T0)))).node(),
                "a tie goes to the first");
    }

    @Test
    @DisplayName("a pod whose nominated node still has a victim terminating waits instead of preempting again")
    void waitsForTerminatingVictim() {
        ClusterSnapshot c = cluster(node("node-1", "1", "8Gi", "110"));
        place(c, "node-1", pod("low", 0, "1"), T0);
        Pod victim = PreemptionEffects.disruptionTarget(pods.get("low"), pod("high", 1000, "1"), T0);
        victim.getMetadata().setDeletionTimestamp(T0.plusSeconds(30));
        pods.put("low", victim);
        Pod high = pod("high", 1000, "1");
        high.getStatus().setNominatedNodeName("node-1");

        assertEquals(new Preemption.NotEligible("not eligible due to a terminating pod on the nominated node."),
                preempt(high, c));
    }

    @Test
    @DisplayName("priority comes from the pod's PriorityClass when the class exists (system-node-critical for daemons)")
    void priorityFromClass() {
        classes.add(PriorityClass.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("system-node-critical").build())
                .setValue(2_000_001_000).setPreemptionPolicy("PreemptLowerPriority").build());
        ClusterSnapshot c = cluster(node("node-1", "1", "8Gi", "110"));
        place(c, "node-1", pod("app", 1_000_000, "1"), T0);
        Pod daemon = pod("daemon", null, "1");
        daemon = TestObjects.withSpec(daemon, PodSpec.newBuilder(daemon.getSpec()).setPriorityClassName("system-node-critical").build());

        assertEquals(List.of("app"), names(assertInstanceOf(Preemption.Nominated.class, preempt(daemon, c)).victims()));
    }

    @Test
    @DisplayName("the attempt: FailedScheduling carries the preemption part; a nominated pod holds its node's room "
            + "against lower pods and binds there first")
    void attempt() {
        ClusterSnapshot c = cluster(node("node-1", "1", "8Gi", "110"));
        Pod never = pod("never", 1000, "1");
        never = TestObjects.withSpec(never, PodSpec.newBuilder(never.getSpec()).setPreemptionPolicy("Never").build());
        PodInfo low = place(c, "node-1", pod("low", 0, "1"), T0);
        SchedulingAttempt a = SchedulingAttempt.of(decider, never, PodInfo.of(never), c, null, inputs(), PodInfo::of);
        assertEquals("0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.",
                assertInstanceOf(Placement.Unschedulable.class, a.placement()).message());
        assertNull(a.nominatedNodeName());

        c.remove("node-1", low);
        pods.remove("low");
        Pod high = pod("high", 1000, "1");
        high.getStatus().setNominatedNodeName("node-1");
        nominated.add(high);
        Pod other = pod("other", 10, "1");
        assertInstanceOf(Placement.Unschedulable.class,
                SchedulingAttempt.of(decider, other, PodInfo.of(other), c, null, inputs(), PodInfo::of).placement());
        SchedulingAttempt mine = SchedulingAttempt.of(decider, high, PodInfo.of(high), c, null, inputs(), PodInfo::of);
        assertEquals("node-1", assertInstanceOf(Placement.Bind.class, mine.placement()).node());
        assertEquals(0, c.node("node-1").podCount, "held pods are taken off again");
    }

    @Test
    @DisplayName("the effects: DisruptionTarget PreemptionByScheduler with Kubernetes' message, a delete with the "
            + "victim's own grace period, Preempted \"Preempted by pod <uid> on node <node>\"")
    void effects() {
        Pod victim = running(pod("low", 0, "1"), "node-1", T0);
        Pod high = pod("high", 1000, "1");
        Preemption.Nominated n = new Preemption.Nominated("node-1", List.of(victim), 0, List.of());

        List<io.eventplane.log.Command> cmds = PreemptionEffects.commands(new io.eventplane.client.Commands("s", java.time.Clock.fixed(T0, java.time.ZoneOffset.UTC)),
                high, n, T0);

        assertEquals(2, cmds.size());
        Pod marked = (Pod) cmds.get(0).getObject();
        var cond = marked.getStatus().getConditions().stream().filter(x -> x.getType().equals("DisruptionTarget"))
                .findFirst().orElseThrow();
        assertEquals("PreemptionByScheduler", cond.getReason());
        assertEquals("default-scheduler: preempting to accommodate a higher priority pod", cond.getMessage());
        assertEquals(io.eventplane.log.Verb.DELETE, cmds.get(1).getVerb());
        assertNull(cmds.get(1).getDeleteOptions().getGracePeriodSeconds());
        assertEquals("uid-low", cmds.get(1).getPreconditions().getUid());
        assertEquals("Preempted by pod uid-high on node node-1",
                PreemptionEffects.events(high, n).get(0).message());
        assertTrue(Preemption.terminatingByPreemption(withDeletion(marked)));
    }

    private static Pod withDeletion(Pod p) {
        Pod out = Pod.newBuilder(p).build();
        out.getMetadata().setDeletionTimestamp(T0);
        return out;
    }

    private static Pod labelled(Pod p, String key, String value) {
        Pod out = Pod.newBuilder(p).build();
        out.getMetadata().setLabels(Map.of(key, value));
        return out;
    }

    private static PodDisruptionBudget budget(String app, int allowed) {
        return KubeObjects.podDisruptionBudget(app).selector("app", app)
                .status(PodDisruptionBudgetStatus.newBuilder().setDisruptionsAllowed(allowed).setCurrentHealthy(1)
                        .setDesiredHealthy(1).setExpectedPods(1).build()).build();
    }

    private static int serial;

    private static VictimSelection.Victim victim(int priority, Instant started) {
        Pod p = pod("v" + (serial++), priority, "1");
        return new VictimSelection.Victim(PodInfo.of(p), p, priority, started);
    }

    private static VictimSelection.Candidate candidate(String node, int violations, VictimSelection.Victim... victims) {
        List<VictimSelection.Victim> v = new ArrayList<>(List.of(victims));
        v.sort(VictimSelection.MORE_IMPORTANT_FIRST);
        return new VictimSelection.Candidate(node, v, violations);
    }
}
