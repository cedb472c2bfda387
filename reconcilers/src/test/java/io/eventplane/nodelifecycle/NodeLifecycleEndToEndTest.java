package io.eventplane.nodelifecycle;

import io.eventplane.core.meta.Taints;
import io.eventplane.podgc.PodGcController;
import io.eventplane.reconcile.Controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.eventplane.client.CommandSender;
import io.eventplane.client.Commands;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ObjectView;
import io.eventplane.client.ViewWaiter;
import io.eventplane.log.ObjectChanged;
import io.eventplane.log.Preconditions;
import io.eventplane.log.Verb;
import io.eventplane.model.Lease;
import io.eventplane.model.LeaseSpec;
import io.eventplane.model.Node;
import io.eventplane.model.NodeCondition;
import io.eventplane.model.NodeStatus;
import io.eventplane.model.ObjectMeta;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.model.Toleration;
import io.eventplane.schemas.Topics;
import io.eventplane.testkit.SharedCluster;
import io.eventplane.testkit.SharedClusterExtension;
import io.eventplane.testkit.VirtualClock;
import io.eventplane.testkit.objects.KubeObjects;
import io.eventplane.topology.WriterService;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node lifecycle controller and PodGC against the real writer, on a virtual clock: test nodes whose Leases the test
 * writes itself (a lost node is one whose lease the test stops renewing).
 */
@ExtendWith(SharedClusterExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeLifecycleEndToEndTest {
    static final Duration DEADLINE = Duration.ofSeconds(60);

    final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-21T10:00:00Z"));
    final Commands user = new Commands("test-user", clock);
    final ViewWaiter waiter = new ViewWaiter();
    WriterService writer;
    ObjectView view;
    CommandSender sender;
    Controller controller;
    Controller podGc;

    @BeforeAll
    void start(@TempDir Path dir) {
        SharedCluster cluster = SharedCluster.get();
        EventplaneConfig config = new EventplaneConfig(cluster.bootstrapServers(), cluster.registryUrl(),
                new Topics("t" + UUID.randomUUID()), 1);
        writer = new WriterService(config, dir.resolve("writer"), 20).start();
        view = new ObjectView(config, "test-view");
        view.addListener(waiter);
        view.start();
        sender = new CommandSender(config, "test-user");
        controller = Controller.periodic(config, "node-controller", "node-controller", clock,
                new NodeLifecycleController(NodeLifecycleConfig.defaults(), Duration.ofMillis(20))).start();
        podGc = Controller.periodic(config, "pod-garbage-collector", "pod-garbage-collector", clock,
                new PodGcController(3, Duration.ofMillis(20))).start();
        waiter.awaitTrue(DEADLINE, () -> writer.isReady() && view.isReady() && controller.isReady() && podGc.isReady(),
                () -> "not ready");
        for (String n : List.of("healthy", "lost", "doomed")) {
            createNode(n);
        }
    }

    @AfterAll
    void stop() {
        for (AutoCloseable c : new AutoCloseable[] {podGc, controller, sender, view, writer}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                // closing anyway
            }
        }
    }

    // ---- the simulated kubelet's part, written by the test

    void send(io.eventplane.log.Command c) {
        sender.send(c);
        sender.flush();
    }

    Optional<ObjectChanged> get(String kind, String ns, String name) {
        return view.get(kind, ns, name);
    }

    <T> T await(java.util.function.Supplier<Optional<T>> what, String failure) {
        return waiter.await(DEADLINE, what, () -> failure);
    }

    void createNode(String name) {
        send(user.create(Node.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).build()).build()));
        Node n = await(() -> get("Node", "", name).map(c -> (Node) c.getObject()), "node " + name);
        setReady(n, "True");
        send(user.create(Lease.newBuilder().setMetadata(ObjectMeta.newBuilder().setName(name).setNamespace("kube-node-lease").build())
                .setSpec(LeaseSpec.newBuilder().setHolderIdentity(name).setLeaseDurationSeconds(40).setRenewTime(clock.instant()).build()).build()));
        await(() -> get("Lease", "kube-node-lease", name), "lease " + name);
    }

    void setReady(Node n, String status) {
        String name = n.getMetadata().getName();
        // The node controller may write the node meanwhile (then this status write is refused as stale): write again
        // on the newest version until the view shows the status, as a kubelet does.
        for (int attempt = 1; ; attempt++) {
            Node current = node(name).orElse(n);
            send(user.updateStatus(Node.newBuilder(current).setStatus(NodeStatus.newBuilder(
                    current.getStatus() == null ? NodeStatus.newBuilder().build() : current.getStatus())
                    .setConditions(List.of(NodeCondition.newBuilder().setType("Ready").setStatus(status)
                            .setReason("KubeletReady").setLastHeartbeatTime(clock.instant()).setLastTransitionTime(clock.instant())
                            .build())).build()).build()));
            try {
                waiter.await(java.time.Duration.ofSeconds(10), () -> node(name)
                        .filter(x -> status.equals(NodeLifecycleDecider.readyStatus(x))), () -> "node " + name
                        + " Ready=" + status);
                return;
            } catch (io.eventplane.client.ViewWaiter.ViewTimeoutException e) {
                if (attempt == 6) {
                    throw e;
                }
            }
        }
    }

    void renew(String name) {
        Lease l = (Lease) get("Lease", "kube-node-lease", name).orElseThrow().getObject();
        send(user.update(Lease.newBuilder(l).setSpec(LeaseSpec.newBuilder(l.getSpec()).setRenewTime(clock.instant()).build()).build()));
        await(() -> get("Lease", "kube-node-lease", name).filter(c -> clock.instant().equals(((Lease) c.getObject()).getSpec().getRenewTime())),
                "lease of " + name + " renewed");
    }

    /** Moves the virtual clock in steps of at most 30 s, renewing the healthy nodes' leases and letting the controller tick. */
    void advance(long seconds, String... renewing) {
        for (long done = 0; done < seconds; ) {
            long step = Math.min(30, seconds - done); // under the 40 s grace period: healthy nodes stay healthy
            clock.advance(Duration.ofSeconds(step));
            done += step;
            for (String n : renewing) {
                renew(n);
            }
            awaitTicks(2);
        }
    }

    /** Ticks both controllers have completed (the fewer of the two). */
    long ticks() {
        return Math.min(controller.metrics().steps(), podGc.metrics().steps());
    }

    /** Waits until the controllers have decided twice more (ticks are not view changes: the waiter would not wake). */
    void awaitTicks(int n) {
        long target = ticks() + n;
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (ticks() < target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the controller stopped ticking");
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    static List<io.eventplane.model.Taint> taints(Node n) {
        return n.getSpec() == null ? null : n.getSpec().getTaints();
    }

    Optional<Node> node(String name) {
        return get("Node", "", name).map(c -> (Node) c.getObject());
    }

    Optional<Pod> pod(String name) {
        return get("Pod", "default", name).map(c -> (Pod) c.getObject());
    }

    Pod boundPod(String name, String node, Toleration... tolerations) {
        send(user.create(KubeObjects.pod(name).tolerations(tolerations).build()));
        Pod p = await(() -> pod(name), "pod " + name);
        send(io.eventplane.log.Command.newBuilder().setEnvelope(user.envelope(null, null)).setVerb(Verb.BIND).setKind("Pod")
                .setNamespace("default").setName(name).setPreconditions(new Preconditions()).setNodeName(node).build());
        Pod bound = await(() -> pod(name).filter(x -> node.equals(x.getSpec().getNodeName())), "pod " + name + " bound");
        send(user.updateStatus(Pod.newBuilder(bound).setStatus(PodStatus.newBuilder(bound.getStatus()).setPhase("Running").build()).build()));
        return await(() -> pod(name).filter(x -> "Running".equals(x.getStatus().getPhase())), "pod " + name + " running");
    }

    static Optional<PodCondition> condition(Pod p, String type) {
        return p.getStatus().getConditions() == null ? Optional.empty()
                : p.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst();
    }

    @Test
    @DisplayName("POD-13.5 a node whose lease stops for 40 s becomes Ready=Unknown and tainted unreachable; pods go after their tolerationSeconds (300 s default from admission) with DisruptionTarget; back, it is untainted")
    void lostNode() {
        Pod standard = boundPod("standard", "lost");
        assertTrue(standard.getSpec().getTolerations().stream().anyMatch(t -> Taints.UNREACHABLE.equals(t.getKey())
                && Long.valueOf(300).equals(t.getTolerationSeconds())), "DefaultTolerationSeconds at admission");
        boundPod("impatient", "lost", Toleration.newBuilder().setKey(Taints.UNREACHABLE).setOperator("Exists")
                .setEffect("NoExecute").setTolerationSeconds(20L).build());
        boundPod("bystander", "healthy");

        advance(40, "healthy", "doomed");
        assertEquals("True", NodeLifecycleDecider.readyStatus(node("lost").orElseThrow()), "not before the grace period");
        advance(10, "healthy", "doomed");
        Node lost = await(() -> node("lost").filter(n -> Taints.has(taints(n), Taints.UNREACHABLE, "NoExecute")),
                "lost node tainted");
        assertEquals("Unknown", NodeLifecycleDecider.readyStatus(lost));
        assertTrue(Taints.has(taints(lost), Taints.UNREACHABLE, "NoSchedule"));
        Instant tainted = taints(lost).stream().filter(t -> "NoExecute".equals(t.getEffect())).findFirst()
                .orElseThrow().getTimeAdded();
        assertEquals("True", NodeLifecycleDecider.readyStatus(node("healthy").orElseThrow()));

        advance(20, "healthy", "doomed");
        Pod impatient = await(() -> pod("impatient").filter(p -> p.getMetadata().getDeletionTimestamp() != null), "impatient evicted");
        PodCondition c = condition(impatient, "DisruptionTarget").orElseThrow();
        assertEquals("DeletionByTaintManager", c.getReason());
        assertNull(pod("standard").orElseThrow().getMetadata().getDeletionTimestamp(), "300 s not yet over");

        advance(Duration.between(clock.instant(), tainted.plusSeconds(290)).toSeconds(), "healthy", "doomed");
        assertNull(pod("standard").orElseThrow().getMetadata().getDeletionTimestamp(), "at 290 s still there");
        advance(10, "healthy", "doomed");
        Pod standardGone = await(() -> pod("standard").filter(p -> p.getMetadata().getDeletionTimestamp() != null), "standard evicted");
        assertTrue(condition(standardGone, "DisruptionTarget").isPresent());
        assertNull(pod("bystander").orElseThrow().getMetadata().getDeletionTimestamp(), "pods on healthy nodes stay");

        renew("lost");
        setReady(node("lost").orElseThrow(), "True");
        Node back = await(() -> node("lost").filter(n -> taints(n) == null), "recovered node untainted");
        assertEquals("True", NodeLifecycleDecider.readyStatus(back));
    }

    @Test
    @DisplayName("W-G1 GC-19 terminated-pod-gc-threshold 3 and 5 terminated pods: PodGC deletes the 2 oldest")
    void terminatedThreshold() {
        for (int i = 1; i <= 5; i++) {
            Pod p = boundPod("done-" + i, "healthy");
            send(user.updateStatus(Pod.newBuilder(p).setStatus(PodStatus.newBuilder(p.getStatus()).setPhase("Succeeded").build()).build()));
            clock.advance(Duration.ofSeconds(1)); // distinct creation times
        }
        waiter.awaitTrue(DEADLINE, () -> pod("done-1").isEmpty() && pod("done-2").isEmpty(), () -> "oldest not collected");
        for (int i = 3; i <= 5; i++) {
            assertTrue(pod("done-" + i).isPresent(), "done-" + i + " kept");
        }
    }

    @Test
    @DisplayName("W-G2 POD-13.3 POD-13.4 a running pod bound to a deleted Node is marked Failed with DisruptionTarget (DeletionByPodGC), then deleted")
    void orphanedByNodeDeletion() {
        boundPod("orphan", "doomed");
        Node doomed = node("doomed").orElseThrow();
        send(user.delete(io.eventplane.core.kinds.Kinds.NODE, "", "doomed", 0L, doomed.getMetadata().getUid()));
        waiter.awaitTrue(DEADLINE, () -> pod("orphan").isEmpty(), () -> "orphan still there: " + pod("orphan"));
        // The log holds the status PodGC wrote before the delete.
        ObjectChanged failed = null;
        try (var history = view.watch(new long[] {0}, ch -> ch.getName().equals("orphan")
                && ch.getType() == io.eventplane.log.ChangeType.STATUS_UPDATED, 100)) {
            for (var e = history.poll(Duration.ofMillis(50)); e != null; e = history.poll(Duration.ofMillis(50))) {
                failed = e.change();
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertNotNull(failed);
        Pod p = (Pod) failed.getObject();
        assertEquals("Failed", p.getStatus().getPhase());
        PodCondition c = condition(p, "DisruptionTarget").orElseThrow();
        assertEquals("DeletionByPodGC", c.getReason());
    }
}
