package io.eventplane.controllers.daemonset;

import static io.eventplane.controllers.daemonset.DaemonSets.cordoned;
import static io.eventplane.controllers.daemonset.DaemonSets.fluentd;
import static io.eventplane.controllers.daemonset.DaemonSets.node;
import static io.eventplane.controllers.daemonset.DaemonSets.taint;
import static io.eventplane.controllers.daemonset.DaemonSets.withLabels;
import static io.eventplane.controllers.daemonset.DaemonSets.withNodeSelector;
import static io.eventplane.controllers.daemonset.DaemonSets.withTaints;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.Commands;
import io.eventplane.controllers.SimulatedCluster;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.Taints;
import io.eventplane.model.DaemonSet;
import io.eventplane.model.Node;
import io.eventplane.model.NodeSelectorRequirement;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodSpec;
import io.eventplane.model.Toleration;
import io.eventplane.model.Taint;
import io.eventplane.nodelifecycle.NodeLifecycleConfig;
import io.eventplane.nodelifecycle.NodeLifecycleDecider;
import io.eventplane.podgc.PodGcDecider;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The DaemonSet controller in a simulated cluster: placement, node churn, adoption, replacement (workloads.md §4). */
class DaemonSetControllerTest {
    private static final String DS = "fluentd-elasticsearch";
    private final SimulatedCluster cluster = new SimulatedCluster();
    private final Commands system = new Commands("test-system", cluster.clock);

    private void nodes(String... names) {
        for (String n : names) {
            assertTrue(cluster.create(node(n)).getAccepted());
        }
    }

    private List<Pod> pods() {
        return cluster.podsOf(DS).stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    /** Node name → number of the DaemonSet's pods on it. */
    private Map<String, Integer> podsPerNode() {
        Map<String, Integer> out = new TreeMap<>();
        for (Pod p : pods()) {
            out.merge(DaemonPods.targetNode(p), 1, Integer::sum);
        }
        return out;
    }

    private DaemonSet ds() {
        return cluster.get(DaemonSet.class, DS);
    }

    /** The node as stored (with its resourceVersion, for an update). */
    private Node stored(String name) {
        return cluster.get(Node.class, "", name);
    }

    @Test
    @DisplayName("DS-04 DS-07 DS-08 DS-09 DS-11 AC-DS-01 fluentd-elasticsearch in kube-system on 3 Ready nodes, one "
            + "cordoned: one pod per node, each created unbound, pinned by matchFields metadata.name, bound by the "
            + "scheduler, with the user's master toleration and the automatic ones")
    void seedExampleOnThreeNodes() {
        nodes("node-1", "node-2");
        cluster.create(cordoned(node("node-3")));
        Map<String, String> nodeAtCreation = new HashMap<>();
        cluster.invariant(c -> c.list(Pod.class).forEach(p -> nodeAtCreation.putIfAbsent(p.getMetadata().getName(),
                String.valueOf(p.getSpec().getNodeName()))));
        assertTrue(cluster.create(fluentd("kube-system")).getAccepted());
        cluster.settle();

        List<Pod> pods = cluster.podsOf(DS);
        assertEquals(3, pods.size());
        assertEquals(new TreeSet<>(List.of("node-1", "node-2", "node-3")),
                new TreeSet<>(pods.stream().map(p -> p.getSpec().getNodeName()).toList()));
        for (Pod p : pods) {
            assertEquals("kube-system", p.getMetadata().getNamespace());
            assertEquals("null", nodeAtCreation.get(p.getMetadata().getName()), "DS-07 created without nodeName");
            List<NodeSelectorRequirement> fields = p.getSpec().getAffinity().getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms().get(0).getMatchFields();
            assertEquals(List.of(NodeSelectorRequirement.newBuilder().setKey("metadata.name").setOperator("In")
                    .setValues(List.of(p.getSpec().getNodeName())).build()), fields);
            assertEquals(List.of("node-role.kubernetes.io/master:NoSchedule", "node.kubernetes.io/not-ready:NoExecute",
                    "node.kubernetes.io/unreachable:NoExecute", "node.kubernetes.io/disk-pressure:NoSchedule",
                    "node.kubernetes.io/memory-pressure:NoSchedule", "node.kubernetes.io/pid-pressure:NoSchedule",
                    "node.kubernetes.io/unschedulable:NoSchedule"),
                    p.getSpec().getTolerations().stream().map(t -> t.getKey() + ":" + t.getEffect()).toList());
            assertTrue(Owners.isControlledBy(p.getMetadata(), ds("kube-system").getMetadata().getUid()), "COM-06");
            assertTrue(p.getMetadata().getName().startsWith(DS + "-"));
        }
        var s = ds("kube-system").getStatus();
        assertEquals(List.of(3, 3, 3, 3, 3, 0, 0), List.of(s.getDesiredNumberScheduled(), s.getCurrentNumberScheduled(),
                s.getNumberReady(), n(s.getUpdatedNumberScheduled()), n(s.getNumberAvailable()), n(s.getNumberUnavailable()),
                s.getNumberMisscheduled()));
        assertNull(s.getNumberUnavailable(), "omitted when 0, as Kubernetes does");
        assertEquals(3, cluster.eventsWithReason("SuccessfulCreate").size());
    }

    private DaemonSet ds(String namespace) {
        return cluster.get(DaemonSet.class, namespace, DS);
    }

    @Test
    @DisplayName("DS-04 DS-06 AC-DS-02 nodeSelector disk=ssd on 5 nodes, 2 labelled: 2 pods; labelling a third adds "
            + "its pod in the next step, unlabelling one deletes its pod in the next step")
    void nodeSelectorFollowsLabels() {
        nodes("node-1", "node-2", "node-3", "node-4", "node-5");
        for (String n : List.of("node-1", "node-2")) {
            cluster.update(withLabels(stored(n), Map.of("disk", "ssd")));
        }
        cluster.create(withNodeSelector(fluentd(), Map.of("disk", "ssd")));
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-2", 1), podsPerNode());
        assertEquals(2, ds().getStatus().getDesiredNumberScheduled());

        cluster.update(withLabels(stored("node-3"), Map.of("disk", "ssd")));
        cluster.step();
        assertEquals(Map.of("node-1", 1, "node-2", 1, "node-3", 1), podsPerNode(), "promptly: the next step");

        cluster.update(withLabels(stored("node-1"), Map.of("disk", "hdd")));
        cluster.step();
        assertEquals(Map.of("node-2", 1, "node-3", 1), podsPerNode(), "promptly: the next step");
        cluster.settle();
        assertEquals(2, ds().getStatus().getDesiredNumberScheduled());
        assertEquals(0, ds().getStatus().getNumberMisscheduled());
    }

    @Test
    @DisplayName("DS-05 AC-DS-03 a node that joins gets a pod; a node that is removed loses its pod (PodGC removes "
            + "pods of deleted nodes); a pending pod pinned to a removed node is deleted by the controller")
    void nodeChurn() {
        nodes("node-1", "node-2");
        cluster.create(fluentd());
        cluster.settle();
        nodes("node-3");
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-2", 1, "node-3", 1), podsPerNode());

        cluster.delete(Kinds.NODE, "node-2");
        collectPodsOfDeletedNodes();
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-3", 1), podsPerNode());
        assertEquals(2, ds().getStatus().getDesiredNumberScheduled());

        // a node without room: its pod stays pending, pinned to it; the node goes, so does the pod
        Node full = node("node-full");
        full = Node.newBuilder(full).setStatus(io.eventplane.model.NodeStatus.newBuilder(full.getStatus())
                .setAllocatable(Map.of("cpu", "4", "memory", "16Gi", "pods", "0")).build()).build();
        cluster.create(full);
        cluster.settle();
        Pod pending = pods().stream().filter(p -> "node-full".equals(DaemonPods.targetNode(p))).findFirst().orElseThrow();
        assertNull(pending.getSpec().getNodeName());
        cluster.delete(Kinds.NODE, "node-full");
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-3", 1), podsPerNode());
        assertTrue(cluster.eventsWithReason("SuccessfulDelete").contains("Deleted pod: " + pending.getMetadata().getName()));
    }

    /** What PodGC does with pods bound to nodes that are gone (GC-19). */
    private void collectPodsOfDeletedNodes() {
        for (PodGcDecider.Removal r : new PodGcDecider().decide(cluster.clock.instant(), cluster.list(Pod.class),
                cluster.list(Node.class), 12_500)) {
            Pod p = r.pod();
            cluster.submit(system.delete(Kinds.POD, p.getMetadata().getNamespace(), p.getMetadata().getName(), 0L,
                    p.getMetadata().getUid()));
        }
    }

    @Test
    @DisplayName("DS-10 an untolerated NoSchedule taint keeps new pods off and lets a running pod stay (counted "
            + "misscheduled); an untolerated NoExecute taint removes it")
    void taints() {
        nodes("node-1", "node-2");
        cluster.create(withTaints(node("node-3"), taint("dedicated", "NoSchedule")));
        cluster.create(fluentd());
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-2", 1), podsPerNode());

        cluster.update(withTaints(stored("node-1"), taint("dedicated", "NoSchedule")));
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-2", 1), podsPerNode());
        assertEquals(1, ds().getStatus().getDesiredNumberScheduled());
        assertEquals(1, ds().getStatus().getNumberMisscheduled());

        cluster.update(withTaints(stored("node-2"), taint("dedicated", "NoExecute")));
        cluster.settle();
        assertEquals(Map.of("node-1", 1), podsPerNode());
    }

    @Test
    @DisplayName("DS-11 AC-DS-04 a node that goes NotReady or unreachable (NoSchedule and NoExecute taints) keeps its "
            + "daemon pod, which tolerates the NoExecute taints forever; a new NotReady node gets none until Ready")
    void notReadyNodesKeepTheirPods() {
        nodes("node-1", "node-2");
        cluster.create(fluentd());
        cluster.settle();
        cluster.update(withTaints(stored("node-1"), taint(Taints.NOT_READY, "NoSchedule"), taint(Taints.NOT_READY, "NoExecute")));
        cluster.update(withTaints(stored("node-2"), taint(Taints.UNREACHABLE, "NoSchedule"), taint(Taints.UNREACHABLE, "NoExecute")));
        cluster.create(withTaints(node("node-3"), taint(Taints.NOT_READY, "NoSchedule"), taint(Taints.NOT_READY, "NoExecute")));
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-2", 1), podsPerNode());
        for (Pod p : pods()) {
            for (String key : List.of(Taints.NOT_READY, Taints.UNREACHABLE)) {
                Toleration t = p.getSpec().getTolerations().stream().filter(x -> key.equals(x.getKey())).findFirst()
                        .orElseThrow();
                assertNull(t.getTolerationSeconds(), "tolerated forever: the node lifecycle never evicts it");
                assertTrue(Taints.tolerates(List.of(t), taint(key, "NoExecute")));
            }
        }
        cluster.update(Node.newBuilder(stored("node-3")).setSpec(new io.eventplane.model.NodeSpec()).build()); // Ready
        cluster.settle();
        assertEquals(Map.of("node-1", 1, "node-2", 1, "node-3", 1), podsPerNode());
    }

    @Test
    @DisplayName("DS-11 AC-DS-04 X-03 on an unreachable node the node lifecycle controller's taint eviction takes the "
            + "ordinary pod after its 300 s and never the daemon pod")
    void taintEvictionSparesDaemonPods() {
        nodes("node-1");
        cluster.create(fluentd());
        cluster.create(io.eventplane.controllers.Workloads.barePod("plain", Map.of("app", "plain")));
        cluster.settle();
        Instant tainted = cluster.clock.instant();
        Node unreachable = withTaints(stored("node-1"),
                Taint.newBuilder(taint(Taints.UNREACHABLE, "NoExecute")).setTimeAdded(tainted).build());
        NodeLifecycleDecider decider = new NodeLifecycleDecider(NodeLifecycleConfig.defaults());
        List<String> evicted = decider.decide(tainted.plusSeconds(3600), List.of(unreachable), Map.of(),
                        cluster.list(Pod.class), NodeLifecycleDecider.State.empty())
                .evictions().stream().map(e -> e.pod().getMetadata().getName()).toList();
        assertEquals(List.of("plain"), evicted);
        assertEquals(Map.of("node-1", 1), podsPerNode());
    }

    @Test
    @DisplayName("DS-12 POD-2.1 a pod the user changed stays; a node created later gets a pod from the DaemonSet's template")
    void changedPodsDoNotChangeTheTemplate() {
        nodes("node-1");
        cluster.create(fluentd());
        cluster.settle();
        Pod p = pods().get(0);
        Map<String, String> labels = new HashMap<>(p.getMetadata().getLabels());
        labels.put("debug", "true");
        Map<String, String> annotations = Map.of("note", "changed by hand");
        assertTrue(cluster.update(Pod.newBuilder(p).setMetadata(ObjectMeta.newBuilder(p.getMetadata())
                .setLabels(labels).setAnnotations(annotations).build()).build()).getAccepted());
        nodes("node-2");
        cluster.settle();
        Pod changed = cluster.get(Pod.class, p.getMetadata().getName());
        assertEquals("true", changed.getMetadata().getLabels().get("debug"));
        Pod fresh = pods().stream().filter(x -> "node-2".equals(x.getSpec().getNodeName())).findFirst().orElseThrow();
        assertFalse(fresh.getMetadata().getLabels().containsKey("debug"));
        assertNull(fresh.getMetadata().getAnnotations());
    }

    @Test
    @DisplayName("DS-13 AC-DS-05 an orphaning delete leaves the pods on their nodes; a new DaemonSet with the same "
            + "selector adopts them and their revision and creates none")
    void orphanDeleteThenAdopt() {
        nodes("node-1", "node-2", "node-3");
        cluster.create(fluentd());
        cluster.settle();
        List<String> before = pods().stream().map(p -> p.getMetadata().getName()).sorted().toList();
        String oldUid = ds().getMetadata().getUid();

        assertTrue(cluster.delete(Kinds.DAEMON_SET, "default", DS, "Orphan").getAccepted());
        orphanDependentsAsTheGarbageCollectorDoes(oldUid);
        assertNull(ds());
        cluster.settle();
        assertEquals(before, cluster.list(Pod.class).stream().map(p -> p.getMetadata().getName()).sorted().toList());

        int created = cluster.eventsWithReason("SuccessfulCreate").size();
        cluster.create(fluentd());
        cluster.settle();
        String newUid = ds().getMetadata().getUid();
        assertEquals(before, pods().stream().map(p -> p.getMetadata().getName()).sorted().toList());
        pods().forEach(p -> assertTrue(Owners.isControlledBy(p.getMetadata(), newUid)));
        assertEquals(created, cluster.eventsWithReason("SuccessfulCreate").size(), "no pod created");
        var revisions = cluster.list(io.eventplane.model.ControllerRevision.class);
        assertEquals(1, revisions.size());
        assertTrue(Owners.isControlledBy(revisions.get(0).getMetadata(), newUid), "the revision is adopted too");
        assertEquals(3, n(ds().getStatus().getUpdatedNumberScheduled()));
    }

    /** The garbage collector's orphan mode (GC-16): dependents lose the owner reference, then the finalizer goes. */
    private void orphanDependentsAsTheGarbageCollectorDoes(String uid) {
        for (Pod p : cluster.list(Pod.class)) {
            if (Owners.isControlledBy(p.getMetadata(), uid)) {
                cluster.submit(system.update(Pod.newBuilder(p).setMetadata(Owners.release(p.getMetadata(), uid)).build()));
            }
        }
        for (var r : cluster.list(io.eventplane.model.ControllerRevision.class)) {
            cluster.submit(system.update(io.eventplane.model.ControllerRevision.newBuilder(r)
                    .setMetadata(Owners.release(r.getMetadata(), uid)).build()));
        }
        DaemonSet ds = ds();
        cluster.submit(system.update(DaemonSet.newBuilder(ds).setMetadata(ObjectMeta.newBuilder(ds.getMetadata())
                .setFinalizers(null).build()).build()));
    }

    @Test
    @DisplayName("DS-15 a deleted daemon pod is replaced, a succeeded one is deleted and replaced, a failed one is "
            + "deleted (FailedDaemonPod) and replaced, with a back-off that grows when it keeps failing")
    void replacesDeletedAndFailedPods() {
        nodes("node-1");
        cluster.create(fluentd());
        cluster.settle();
        Pod first = pods().get(0);
        cluster.delete(Kinds.POD, first.getMetadata().getName());
        cluster.settle();
        assertEquals(Map.of("node-1", 1), podsPerNode());
        assertFalse(pods().get(0).getMetadata().getName().equals(first.getMetadata().getName()));

        cluster.finish(pods().get(0), "Succeeded");
        cluster.settle();
        assertEquals(1, cluster.eventsWithReason("SucceededDaemonPod").size());
        assertEquals("Running", pods().get(0).getStatus().getPhase());

        // a pod that fails as soon as it runs: the replacements come ever more slowly
        List<Long> failedAt = new java.util.ArrayList<>();
        for (int i = 0; i < 200 && failedAt.size() < 7; i++) {
            List<Pod> running = pods().stream().filter(p -> "Running".equals(p.getStatus() == null ? null
                    : p.getStatus().getPhase())).toList();
            running.forEach(p -> cluster.finish(p, "Failed"));
            int before = cluster.eventsWithReason("FailedDaemonPod").size();
            cluster.step();
            if (cluster.eventsWithReason("FailedDaemonPod").size() > before) {
                failedAt.add(cluster.clock.instant().getEpochSecond());
            }
        }
        assertEquals(7, failedAt.size());
        assertTrue(failedAt.get(6) - failedAt.get(5) >= 16, "the back-off reached 16 s: " + failedAt);
        String event = cluster.eventsWithReason("FailedDaemonPod").get(0);
        assertTrue(event.startsWith("Found failed daemon pod default/" + DS + "-")
                && event.endsWith(" on node node-1, will try to kill it"), event);
    }

    @Test
    @DisplayName("DS-04 excess pods on a node are deleted, the oldest stays")
    void excessPodsOnANode() {
        nodes("node-1");
        cluster.create(fluentd());
        cluster.settle();
        Pod kept = pods().get(0);
        // an orphan that matches the selector, on the same node: adopted, then found to be one too many
        Pod extra = Pod.newBuilder().setMetadata(ObjectMeta.newBuilder().setName("fluentd-by-hand").setNamespace("default")
                .setLabels(new HashMap<>(DaemonSets.LABELS)).build())
                .setSpec(PodSpec.newBuilder(kept.getSpec()).setNodeName(null).build()).build();
        assertTrue(cluster.create(extra).getAccepted());
        cluster.settle();
        assertEquals(List.of(kept.getMetadata().getName()), pods().stream().map(p -> p.getMetadata().getName()).toList());
        assertTrue(cluster.eventsWithReason("SuccessfulDelete").contains("Deleted pod: fluentd-by-hand"));
    }

    /** A counter Kubernetes omits when 0. */
    private static int n(Integer i) {
        return i == null ? 0 : i;
    }
}
