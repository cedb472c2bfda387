package io.eventplane.nodesim;

import io.eventplane.client.ViewWaiter;

import static io.eventplane.testkit.objects.KubeObjects.container;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.Subscription;
import io.eventplane.client.WatchEvent;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ChangeType;
import io.eventplane.model.Lease;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.ResourceRequirements;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.topology.WriterService;
import io.eventplane.testkit.objects.PodBuilder;
import io.eventplane.testkit.objects.KubeObjects;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Simulated nodes against a real broker, registry and writer. The test plays the scheduler: it binds pods itself.
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeSimulatorIntegrationTest {
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final NodeSimSettings FAST = NodeSimSettings.defaults()
            .withStartDelay(Duration.ZERO, Duration.ofMillis(100))
            .withShutdownDelay(Duration.ofMillis(100))
            .withLeaseRenewInterval(Duration.ofSeconds(1));

    private final Commands user = new Commands("test-user");
    private final ViewWaiter waiter = new ViewWaiter();
    private EventplaneConfig config;
    private WriterService writer;
    private ObjectView view;
    private NodeSimulator nodes;
    private CommandSender sender;

    @BeforeAll
    void start(@TempDir Path dir) {
        SharedCluster cluster = SharedCluster.get();
        config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(), new Topics("t" + UUID.randomUUID()), 1);
        writer = new WriterService(config, dir.resolve("writer"), 20).start();
        view = new ObjectView(config, "test-view");
        view.addListener(waiter);
        view.start();
        nodes = new NodeSimulator(config, 3, NodeShape.defaults(), Clock.systemUTC(), FAST)
                .withEvictionInterval(Duration.ofMillis(500)).start();
        sender = new CommandSender(config, "test-user");
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady() && nodes.isReady()
                        && List.of("node-1", "node-2", "node-3").stream().allMatch(n -> node(n).isPresent() && lease(n).isPresent()),
                () -> "writer " + writer.state() + ", view " + view.isReady() + ", nodes " + nodes.isReady());
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {sender, nodes, view, writer}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    private Optional<Pod> pod(String name) {
        return view.get(Kinds.POD.kind(), "default", name).map(c -> (Pod) c.getObject());
    }

    private Optional<Node> node(String name) {
        return view.get(Kinds.NODE.kind(), "", name).map(c -> (Node) c.getObject());
    }

    private Optional<Lease> lease(String name) {
        return view.get(Kinds.LEASE.kind(), NodeTemplates.LEASE_NAMESPACE, name).map(c -> (Lease) c.getObject());
    }

    private static boolean runningAndReady(Pod p) {
        return p.getStatus() != null && "Running".equals(p.getStatus().getPhase()) && p.getStatus().getConditions()
                .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    /** Creates a pod and binds it to {@code nodeName} as the scheduler would, with the uid the writer gave it. */
    private void createBound(String name, String nodeName) {
        createBound(name, nodeName, ResourceRequirements.newBuilder().setRequests(Map.of("cpu", "100m")).build());
    }

    /** As above; {@code resources} null makes it BestEffort. */
    private void createBound(String name, String nodeName, ResourceRequirements resources) {
        createBound(name, nodeName, resources, Map.of());
    }

    private void createBound(String name, String nodeName, ResourceRequirements resources, Map<String, String> annotations) {
        PodBuilder pod = KubeObjects.pod(name).containers(container("nginx").edit(c -> c.setResources(resources)));
        sender.send(user.create((annotations.isEmpty() ? pod : pod.annotations(annotations)).build()));
        sender.flush();
        Pod created = waiter.await(DEADLINE, () -> pod(name), () -> name + " was not created");
        sender.send(user.bind("default", name, created.getMetadata().getUid(), nodeName));
        sender.flush();
    }

    @Test
    @DisplayName("three nodes register Ready with zones, addresses and a lease each in kube-node-lease, renewed over time")
    void nodesRegisterAndRenewLeases() {
        Set<String> zones = new HashSet<>();
        for (String name : List.of("node-1", "node-2", "node-3")) {
            Node n = node(name).orElseThrow();
            assertTrue(NodeTemplates.isReady(n), name + " is Ready");
            assertEquals(name, n.getMetadata().getLabels().get("kubernetes.io/hostname"));
            assertEquals("4", n.getStatus().getAllocatable().get("cpu"));
            zones.add(n.getMetadata().getLabels().get("topology.kubernetes.io/zone"));
            Lease l = lease(name).orElseThrow();
            assertEquals(name, l.getSpec().getHolderIdentity());
            assertEquals(40, l.getSpec().getLeaseDurationSeconds());
        }
        assertEquals(Set.of("zone-a", "zone-b", "zone-c"), zones);

        Instant first = lease("node-1").orElseThrow().getSpec().getRenewTime();
        waiter.awaitTrue(DEADLINE, () -> lease("node-1").orElseThrow().getSpec().getRenewTime().isAfter(first),
                () -> "node-1's lease was not renewed after " + first);
    }

    @Test
    @DisplayName("POD-3.7 POD-4.2 POD-4.6 POD-6.9 bound pods go Pending (ContainerCreating) -> Running, Ready, with unique pod IPs")
    void boundPodsRun() throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            names.add("run-" + i);
            createBound("run-" + i, "node-" + (1 + i % 3));
        }

        List<Pod> pods = waiter.await(DEADLINE, () -> {
            List<Pod> found = new ArrayList<>();
            for (String n : names) {
                Optional<Pod> p = pod(n).filter(NodeSimulatorIntegrationTest::runningAndReady);
                if (p.isEmpty()) {
                    return Optional.empty();
                }
                found.add(p.get());
            }
            return Optional.of(found);
        }, () -> "not all Running and Ready: " + names.stream().map(n -> n + "=" + pod(n).map(p -> p.getStatus().getPhase())).toList());

        Set<String> ips = new HashSet<>();
        for (Pod p : pods) {
            String node = p.getSpec().getNodeName();
            int index = Integer.parseInt(node.substring("node-".length()));
            assertTrue(p.getStatus().getPodIP().startsWith("10.244." + index + "."), p.getStatus().getPodIP());
            assertTrue(ips.add(p.getStatus().getPodIP()), "unique " + p.getStatus().getPodIP());
            assertEquals(SimNode.of("node-", index).internalIP(), p.getStatus().getHostIP());
            assertEquals("docker.io/library/nginx:latest", p.getStatus().getContainerStatuses().get(0).getImage());
        }

        List<String> waitingReasons = new ArrayList<>();
        try (Subscription history = view.watch(new long[] {0}, c -> c.getName().equals("run-1")
                && c.getType() == ChangeType.STATUS_UPDATED, 100)) {
            for (WatchEvent e = history.poll(Duration.ofMillis(50)); e != null; e = history.poll(Duration.ofMillis(50))) {
                Pod p = (Pod) e.change().getObject();
                var state = p.getStatus().getContainerStatuses().get(0).getState();
                waitingReasons.add(state.getWaiting() == null ? "running" : state.getWaiting().getReason());
            }
        }
        assertEquals(List.of("ContainerCreating", "running"), waitingReasons, "a kubelet's two steps");
    }

    @Test
    @DisplayName("POD-6.11 a pod whose claim is not Bound waits in ContainerCreating without sandbox; its sandbox comes "
            + "once the claim is Bound to a volume, and it runs")
    void podWaitsForItsClaim() throws Exception {
        sender.send(user.create(KubeObjects.persistentVolumeClaim("data").build()));
        sender.flush();
        waiter.await(DEADLINE, () -> view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), "default", "data"), () -> "no claim");
        sender.send(user.create(KubeObjects.pod("mounter").claimVolume("www", "data").build()));
        sender.flush();
        Pod created = waiter.await(DEADLINE, () -> pod("mounter"), () -> "mounter was not created");
        sender.send(user.bind("default", "mounter", created.getMetadata().getUid(), "node-1"));
        sender.flush();
        Pod mounting = waiter.await(DEADLINE, () -> pod("mounter").filter(p -> PodLifecycle.admitted(p) && !PodLifecycle.hasSandbox(p)),
                () -> "mounter does not wait for its volume: " + pod("mounter").map(Pod::getStatus));
        assertNull(mounting.getStatus().getPodIP());
        assertEquals("ContainerCreating", mounting.getStatus().getContainerStatuses().get(0).getState().getWaiting()
                .getReason());

        // The test plays the binder: a volume, the claim's volumeName, then its Bound status.
        sender.send(user.create(KubeObjects.persistentVolume("pv-data").build()));
        var claim = (io.eventplane.model.PersistentVolumeClaim) view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), "default",
                "data").orElseThrow().getObject();
        sender.send(user.update(io.eventplane.model.PersistentVolumeClaim.newBuilder(claim).setSpec(
                io.eventplane.model.PersistentVolumeClaimSpec.newBuilder(claim.getSpec()).setVolumeName("pv-data").build())
                .build()));
        sender.flush();
        var named = waiter.await(DEADLINE, () -> view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), "default", "data")
                .map(c -> (io.eventplane.model.PersistentVolumeClaim) c.getObject())
                .filter(c -> "pv-data".equals(c.getSpec().getVolumeName())), () -> "volumeName not set");
        sender.send(user.updateStatus(io.eventplane.model.PersistentVolumeClaim.newBuilder(named).setStatus(
                io.eventplane.model.PersistentVolumeClaimStatus.newBuilder().setPhase("Bound").build()).build()));
        sender.flush();
        waiter.await(DEADLINE, () -> pod("mounter").filter(NodeSimulatorIntegrationTest::runningAndReady),
                () -> "mounter does not run: " + pod("mounter").map(Pod::getStatus));

        long bound = view.get(Kinds.PERSISTENT_VOLUME_CLAIM.kind(), "default", "data").orElseThrow().getResourceVersion();
        long sandbox = -1;
        try (Subscription history = view.watch(new long[] {0}, c -> c.getName().equals("mounter")
                && c.getType() == ChangeType.STATUS_UPDATED, 100)) {
            for (WatchEvent e = history.poll(Duration.ofMillis(50)); e != null; e = history.poll(Duration.ofMillis(50))) {
                if (sandbox < 0 && ((Pod) e.change().getObject()).getStatus().getPodIP() != null) {
                    sandbox = e.change().getResourceVersion();
                }
            }
        }
        assertTrue(sandbox > bound, "the sandbox (at " + sandbox + ") came after the claim was Bound (at " + bound + ")");
    }

    @Test
    @DisplayName("POD-12.4 POD-12.11 a deleted running pod is stopped and removed by its kubelet with grace period 0")
    void deletedPodIsRemoved() {
        createBound("doomed", "node-2");
        Pod running = waiter.await(DEADLINE, () -> pod("doomed").filter(NodeSimulatorIntegrationTest::runningAndReady),
                () -> "doomed: " + pod("doomed"));

        sender.send(user.delete(Kinds.POD, "default", "doomed", null, running.getMetadata().getUid()));
        sender.flush();

        waiter.awaitTrue(Duration.ofSeconds(20), () -> pod("doomed").isEmpty(),
                () -> "doomed is still there (its grace period is 30 s; the kubelet should remove it well before)");
    }

    @Test
    @DisplayName("a restarted simulator adopts its existing nodes, leases and running pods instead of failing")
    void restartAdopts() {
        NodeSimSettings other = FAST.withNamePrefix("again-");
        String nodeUid;
        try (NodeSimulator first = new NodeSimulator(config, 1, NodeShape.defaults(), Clock.systemUTC(), other).start()) {
            waiter.awaitTrue(DEADLINE, first::isReady, () -> "the first simulator did not register again-1");
            nodeUid = waiter.await(DEADLINE, () -> node("again-1"), () -> "again-1 is not in the view")
                    .getMetadata().getUid();
            createBound("survivor", "again-1");
            waiter.awaitTrue(DEADLINE, () -> pod("survivor").filter(NodeSimulatorIntegrationTest::runningAndReady).isPresent(),
                    () -> "survivor: " + pod("survivor"));
        }
        String podIP = pod("survivor").orElseThrow().getStatus().getPodIP();

        try (NodeSimulator second = new NodeSimulator(config, 1, NodeShape.defaults(), Clock.systemUTC(), other).start()) {
            waiter.awaitTrue(DEADLINE, second::isReady, () -> "the second simulator is not ready");
            assertEquals(nodeUid, node("again-1").orElseThrow().getMetadata().getUid(), "the same node, adopted");

            sender.send(user.delete(Kinds.POD, "default", "survivor", null, pod("survivor").orElseThrow().getMetadata().getUid()));
            sender.flush();
            waiter.awaitTrue(Duration.ofSeconds(20), () -> pod("survivor").isEmpty(),
                    () -> "the adopted pod was not removed after its deletion (it had " + podIP + ")");
        }
    }

    private Optional<String> condition(String node, String type) {
        return node(node).flatMap(n -> n.getStatus().getConditions().stream().filter(c -> type.equals(c.getType()))
                .map(c -> c.getStatus() + "/" + c.getReason()).findFirst());
    }

    @Test
    @DisplayName("POD-14.4 a node put under memory pressure reports it and rejects BestEffort pods (Evicted) but runs Burstable ones; relieved, it reports it")
    void memoryPressure() {
        sender.send(user.update(NodePressure.marked(node("node-1").orElseThrow(), NodePressure.Kind.MEMORY, true)));
        sender.flush();
        waiter.awaitTrue(DEADLINE, () -> condition("node-1", "MemoryPressure").equals(Optional.of("True/KubeletHasInsufficientMemory")),
                () -> "node-1 MemoryPressure: " + condition("node-1", "MemoryPressure"));
        assertEquals(Optional.of("False/KubeletHasNoDiskPressure"), condition("node-1", "DiskPressure"));

        createBound("besteffort", "node-1", null);
        Pod rejected = waiter.await(DEADLINE, () -> pod("besteffort").filter(p -> "Failed".equals(p.getStatus().getPhase())),
                () -> "besteffort: " + pod("besteffort").map(Pod::getStatus));
        assertEquals("Evicted", rejected.getStatus().getReason());
        assertEquals("The node had condition: [MemoryPressure]. ", rejected.getStatus().getMessage());
        createBound("burstable", "node-1");
        waiter.await(DEADLINE, () -> pod("burstable").filter(NodeSimulatorIntegrationTest::runningAndReady),
                () -> "burstable: " + pod("burstable").map(Pod::getStatus));

        sender.send(user.update(NodePressure.marked(node("node-1").orElseThrow(), NodePressure.Kind.MEMORY, false)));
        sender.flush();
        waiter.awaitTrue(DEADLINE, () -> condition("node-1", "MemoryPressure").equals(Optional.of("False/KubeletHasSufficientMemory")),
                () -> "node-1 MemoryPressure: " + condition("node-1", "MemoryPressure"));
        createBound("besteffort-later", "node-1", null);
        waiter.await(DEADLINE, () -> pod("besteffort-later").filter(NodeSimulatorIntegrationTest::runningAndReady),
                () -> "besteffort-later: " + pod("besteffort-later").map(Pod::getStatus));
    }

    @Test
    @DisplayName("W-Q4 POD-14.5 under memory pressure the kubelet evicts the BestEffort pod, then the Burstable one over its request, and keeps the one under it")
    void memoryPressureEviction() throws Exception {
        createBound("hog-be", "node-2", null, Map.of(PressureEviction.USAGE_ANNOTATION, "100Mi"));
        createBound("hog-burst", "node-2", ResourceRequirements.newBuilder().setRequests(Map.of("memory", "64Mi")).build(),
                Map.of(PressureEviction.USAGE_ANNOTATION, "200Mi"));
        createBound("calm", "node-2", ResourceRequirements.newBuilder().setRequests(Map.of("memory", "200Mi")).build(),
                Map.of(PressureEviction.USAGE_ANNOTATION, "100Mi"));
        for (String name : List.of("hog-be", "hog-burst", "calm")) {
            waiter.await(DEADLINE, () -> pod(name).filter(NodeSimulatorIntegrationTest::runningAndReady), () -> name + ": " + pod(name));
        }
        long[] position = view.positions();

        sender.send(user.update(NodePressure.marked(node("node-2").orElseThrow(), NodePressure.Kind.MEMORY, true)));
        sender.flush();
        for (String name : List.of("hog-be", "hog-burst")) {
            Pod evicted = waiter.await(DEADLINE, () -> pod(name).filter(p -> "Failed".equals(p.getStatus().getPhase())),
                    () -> name + ": " + pod(name).map(Pod::getStatus));
            assertEquals("Evicted", evicted.getStatus().getReason());
            assertTrue(evicted.getStatus().getConditions().stream().anyMatch(c -> "DisruptionTarget".equals(c.getType())
                    && "TerminationByKubelet".equals(c.getReason())), evicted.getStatus().getConditions().toString());
        }
        sender.send(user.update(NodePressure.marked(node("node-2").orElseThrow(), NodePressure.Kind.MEMORY, false)));
        sender.flush();
        waiter.awaitTrue(DEADLINE, () -> condition("node-2", "MemoryPressure").equals(Optional.of("False/KubeletHasSufficientMemory")),
                () -> "node-2 MemoryPressure: " + condition("node-2", "MemoryPressure"));

        List<String> failedInOrder = new ArrayList<>();
        try (Subscription history = view.watch(position, c -> c.getType() == ChangeType.STATUS_UPDATED
                && c.getKind().equals(Kinds.POD.kind()), 1000)) {
            for (WatchEvent e = history.poll(Duration.ofMillis(50)); e != null; e = history.poll(Duration.ofMillis(50))) {
                Pod p = (Pod) e.change().getObject();
                if ("Failed".equals(p.getStatus().getPhase()) && "Evicted".equals(p.getStatus().getReason())
                        && "node-2".equals(p.getSpec().getNodeName())) {
                    failedInOrder.add(p.getMetadata().getName());
                }
            }
        }
        assertEquals(List.of("hog-be", "hog-burst"), failedInOrder);
        assertTrue(runningAndReady(pod("calm").orElseThrow()), "calm uses less than its request: " + pod("calm"));

        sender.send(user.delete(Kinds.POD, "default", "hog-be", null, pod("hog-be").orElseThrow().getMetadata().getUid()));
        sender.flush();
        waiter.awaitTrue(DEADLINE, () -> pod("hog-be").isEmpty(), () -> "the evicted pod was not removed: " + pod("hog-be"));
    }

    @Test
    @DisplayName("POD-13.5 a node told to fail stops running its pods; told to recover, it reports Ready and runs them")
    void nodeFailsAndRecovers() {
        Node n3 = node("node-3").orElseThrow();
        sender.send(user.update(NodeFailure.marked(n3, true)));
        sender.flush();
        waiter.awaitTrue(DEADLINE, () -> node("node-3").map(n -> NodeFailure.FAILED.equals(NodeFailure.requested(n)))
                .orElse(false), () -> "node-3 was not marked failed");
        createBound("stranded", "node-3");
        waiter.awaitTrue(DEADLINE, () -> pod("stranded").map(p -> "node-3".equals(p.getSpec().getNodeName())).orElse(false),
                () -> "stranded was not bound");
        assertNull(pod("stranded").orElseThrow().getStatus().getPodIP(), "a failed node starts nothing");

        sender.send(user.update(NodeFailure.marked(node("node-3").orElseThrow(), false)));
        sender.flush();

        waiter.await(DEADLINE, () -> pod("stranded").filter(NodeSimulatorIntegrationTest::runningAndReady),
                () -> "stranded: " + pod("stranded"));
        assertTrue(NodeTemplates.isReady(node("node-3").orElseThrow()));
    }
    @Test
    @DisplayName("POD-3.12 POD-4.7 a stage file named by EVENTPLANE_NODESIM_STAGES drives the pods it selects: "
            + "a selected pod under restartPolicy Never fails with the stage's exit code, the others run on")
    void stagesFromFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("stages.yaml");
        java.nio.file.Files.writeString(file, """
                stages:
                - name: fail-labelled
                  selector:
                    matchLabels: {stage: fail}
                    matchExpressions: [{key: container.restartCount, operator: In, values: ["0"]}]
                  delay: {durationMilliseconds: 500, jitterDurationMilliseconds: 200}
                  next: [{action: exit, exitCode: 7}]
                """);
        String property = Stages.SETTING.toLowerCase().replace('_', '.');
        System.setProperty(property, file.toString());
        NodeSimulator staged;
        try {
            staged = new NodeSimulator(config, 1, NodeShape.defaults(), Clock.systemUTC(), FAST.withNamePrefix("staged-"));
        } finally {
            System.clearProperty(property);
        }
        try (NodeSimulator sim = staged.start()) {
            waiter.awaitTrue(DEADLINE, sim::isReady, () -> "the staged simulator did not register staged-1");
            createBound("chosen", "staged-1", Map.of("stage", "fail"), "Never");
            createBound("spared", "staged-1", Map.of("stage", "keep"), "Never");

            Pod failed = waiter.await(DEADLINE, () -> pod("chosen").filter(p -> "Failed".equals(p.getStatus().getPhase())),
                    () -> "chosen: " + pod("chosen").map(Pod::getStatus));
            var terminated = failed.getStatus().getContainerStatuses().get(0).getState().getTerminated();
            assertEquals(7, terminated.getExitCode());
            assertEquals("Error", terminated.getReason());
            assertEquals(0, failed.getStatus().getContainerStatuses().get(0).getRestartCount());
            assertTrue(failed.getStatus().getConditions().stream().anyMatch(c -> "Ready".equals(c.getType())
                    && "False".equals(c.getStatus()) && "PodCompleted".equals(c.getReason())));

            Pod spared = waiter.await(DEADLINE, () -> pod("spared").filter(NodeSimulatorIntegrationTest::runningAndReady),
                    () -> "spared: " + pod("spared").map(Pod::getStatus));
            assertNull(spared.getStatus().getContainerStatuses().get(0).getState().getTerminated());
        }
    }

    /** Creates a labelled pod with a restart policy and binds it to {@code nodeName}. */
    private void createBound(String name, String nodeName, Map<String, String> labels, String restartPolicy) {
        sender.send(user.create(KubeObjects.pod(name).labels(labels).containers(container("app").image("busybox:1.36"))
                .restartPolicy(restartPolicy).build()));
        sender.flush();
        Pod created = waiter.await(DEADLINE, () -> pod(name), () -> name + " was not created");
        sender.send(user.bind("default", name, created.getMetadata().getUid(), nodeName));
        sender.flush();
    }
}
