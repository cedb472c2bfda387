package io.eventplane.controllers;

import io.eventplane.client.Commands;
import io.eventplane.client.events.EventNotice;
import io.eventplane.controllers.deployment.DeploymentDecider;
import io.eventplane.controllers.replicaset.ReplicaReconciler;
import io.eventplane.core.Keys;
import io.eventplane.core.decide.Decision;
import io.eventplane.core.decide.ObjectDecider;
import io.eventplane.core.decide.RulesRegistry;
import io.eventplane.core.kinds.KindInfo;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.core.meta.ObjectAccess;
import io.eventplane.log.ChangeType;
import io.eventplane.log.Command;
import io.eventplane.log.CommandOutcome;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.ContainerState;
import io.eventplane.model.ContainerStateRunning;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Container;
import io.eventplane.model.Deployment;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodStatus;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * A cluster in memory for decision tests: the real writer decision ({@link ObjectDecider}) over a map, the three
 * controllers' pure decisions, and a scripted kubelet (bind, run, Ready; images in {@link #badImages} never pull).
 * Each {@link #step()} lets every controller and the kubelet take one step; {@link #settle()} steps until nothing
 * changes. No Kafka, no threads, a virtual clock.
 */
public final class SimulatedCluster {
    public final VirtualClock clock = new VirtualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ObjectDecider writer = new ObjectDecider(RulesRegistry.standard());
    private final Commands user = new Commands("test-user", clock);
    private final Commands controllers = new Commands("controllers", clock);
    private final Map<String, ObjectChanged> store = new TreeMap<>();
    private final ReplicaReconciler rsc = ReplicaReconciler.replicaSets();
    private final ReplicaReconciler rcm = ReplicaReconciler.replicationControllers();
    private final Map<String, String> failures = new HashMap<>();
    private final List<Consumer<SimulatedCluster>> invariants = new ArrayList<>();
    private long position;
    private int changes;
    /** Images the kubelet cannot pull: their pods stay Pending with ImagePullBackOff. */
    public final Set<String> badImages = new HashSet<>();
    /** When false, the kubelet binds and starts pods but does not make them Ready ({@link #makeReady} does). */
    public boolean autoReady = true;
    /** Every Event recorded, as "Reason: message". */
    public final List<String> events = new ArrayList<>();
    /** Rejections of controller commands, as "reason: message". */
    public final List<String> rejections = new ArrayList<>();
    /** When positive, creates of pods beyond this count in the namespace are rejected (a quota). */
    public int podQuota = -1;

    // ------------------------------------------------------------------ the writer

    public CommandOutcome submit(Command command) {
        String key = Keys.of(command.getKind(), command.getNamespace(), command.getName());
        if (podQuota >= 0 && command.getKind().equals("Pod") && command.getVerb() == io.eventplane.log.Verb.CREATE
                && list(Pod.class).size() >= podQuota) {
            return CommandOutcome.newBuilder().setEnvelope(command.getEnvelope()).setKind("Pod")
                    .setNamespace(command.getNamespace()).setName(command.getName()).setAccepted(false).setCode(403)
                    .setReason("Forbidden").setMessage("pods \"" + ((Pod) command.getObject()).getMetadata().getGenerateName()
                            + "\" is forbidden: exceeded quota: object-counts, requested: pods=1, used: pods="
                            + list(Pod.class).size() + ", limited: pods=" + podQuota).build();
        }
        Decision d = writer.decide(command, store.get(key), ++position);
        d.change().ifPresent(c -> {
            changes++;
            if (c.getType() == ChangeType.DELETED) {
                store.remove(key);
            } else {
                store.put(key, c);
            }
            for (Consumer<SimulatedCluster> check : invariants) {
                check.accept(this);
            }
        });
        return d.outcome();
    }

    /** Checked after every change the writer appends (spec §1.13: after every reconcile event on the log). */
    public void invariant(Consumer<SimulatedCluster> check) {
        invariants.add(check);
    }

    public CommandOutcome create(SpecificRecord object) {
        return submit(user.create(object));
    }

    public CommandOutcome update(SpecificRecord object) {
        return submit(user.update(object));
    }

    public CommandOutcome delete(KindInfo kind, String name) {
        return submit(user.delete(kind, "default", name, null, null));
    }

    /** A delete with an explicit propagation policy (Background, Foreground, Orphan), as kubectl's --cascade sends. */
    public CommandOutcome delete(KindInfo kind, String name, String propagationPolicy) {
        return submit(user.deleteWith(kind, "default", name, new io.eventplane.log.Preconditions(),
                io.eventplane.log.DeleteOptions.newBuilder().setPropagationPolicy(propagationPolicy).build()));
    }

    public <T> T get(Class<T> type, String name) {
        KindInfo kind = Kinds.byKind(type.getSimpleName()).orElseThrow();
        ObjectChanged c = store.get(Keys.of(kind.kind(), "default", name));
        return c == null ? null : type.cast(c.getObject());
    }

    public <T> List<T> list(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (ObjectChanged c : store.values()) {
            if (type.isInstance(c.getObject())) {
                out.add(type.cast(c.getObject()));
            }
        }
        return out;
    }

    public Deployment deployment(String name) {
        return get(Deployment.class, name);
    }

    /** The Deployment's ReplicaSets, oldest first. */
    public List<ReplicaSet> replicaSetsOf(String deployment) {
        String uid = deployment(deployment).getMetadata().getUid();
        return list(ReplicaSet.class).stream().filter(rs -> Owners.isControlledBy(rs.getMetadata(), uid))
                .sorted(java.util.Comparator.comparing((ReplicaSet rs) -> rs.getMetadata().getCreationTimestamp())
                        .thenComparing(rs -> Long.parseLong(rs.getMetadata().getResourceVersion())))
                .toList();
    }

    public List<Pod> podsOf(String ownerName) {
        return list(Pod.class).stream().filter(p -> Owners.controllerOf(p.getMetadata())
                .map(r -> r.getName().equals(ownerName)).orElse(false)).toList();
    }

    // ------------------------------------------------------------------ the controllers

    private void apply(Reconciliation r, String key) {
        for (EventNotice e : r.events()) {
            events.add(e.reason() + ": " + e.message());
        }
        boolean failed = false;
        boolean tracked = false;
        for (Action a : r.actions()) {
            Command c;
            if (a instanceof Action.Create x) {
                c = controllers.create(x.object());
            } else if (a instanceof Action.Update x) {
                c = controllers.update(x.object());
            } else if (a instanceof Action.UpdateStatus x) {
                c = controllers.updateStatus(x.object());
            } else {
                Action.Delete x = (Action.Delete) a;
                c = controllers.delete(x.kind(), x.namespace(), x.name(), null, x.uid());
            }
            tracked |= a.failedReason() != null;
            CommandOutcome o = submit(c);
            if (o.getAccepted()) {
                if (a.onAccepted() != null) {
                    events.add(a.onAccepted().reason() + ": " + a.onAccepted().message());
                }
            } else {
                rejections.add(o.getReason() + ": " + o.getMessage());
                if (a.failedReason() != null && o.getCode() != 409) {
                    String text = (a instanceof Action.Delete ? "Error deleting: " : "Error creating: ") + o.getMessage();
                    failures.put(key, text);
                    failed = true;
                    events.add(a.failedReason() + ": " + text);
                }
            }
        }
        if (tracked && !failed) {
            failures.remove(key);
        }
    }

    public void stepDeployments() {
        for (Deployment d : list(Deployment.class)) {
            String key = Keys.of("Deployment", "default", d.getMetadata().getName());
            Deployment current = deployment(d.getMetadata().getName());
            if (current != null) {
                apply(DeploymentDecider.decide(current, list(ReplicaSet.class), list(Pod.class), clock.instant()), key);
            }
        }
    }

    public void stepReplicaSets() {
        for (ReplicaSet rs : list(ReplicaSet.class)) {
            String key = Keys.of("ReplicaSet", "default", rs.getMetadata().getName());
            ReplicaSet current = get(ReplicaSet.class, rs.getMetadata().getName());
            if (current != null) {
                apply(rsc.decide(current, list(Pod.class), clock.instant(), failures.get(key)), key);
            }
        }
        for (ReplicationController rc : list(ReplicationController.class)) {
            String key = Keys.of("ReplicationController", "default", rc.getMetadata().getName());
            ReplicationController current = get(ReplicationController.class, rc.getMetadata().getName());
            if (current != null) {
                apply(rcm.decide(current, list(Pod.class), clock.instant(), failures.get(key)), key);
            }
        }
    }

    // ------------------------------------------------------------------ the kubelet

    /** Binds unbound pods, starts them (Ready unless the image is bad or autoReady is off), finishes deletions. */
    public void stepKubelet() {
        int n = 0;
        for (Pod p : list(Pod.class)) {
            String name = p.getMetadata().getName();
            if (p.getMetadata().getDeletionTimestamp() != null) {
                submit(controllers.delete(Kinds.POD, "default", name, 0L, p.getMetadata().getUid()));
                continue;
            }
            if (p.getSpec().getNodeName() == null) {
                submit(controllers.bind("default", name, p.getMetadata().getUid(), "node-" + (n++ % 3)));
                continue;
            }
            if (PodStates.isReady(p) || !"Pending".equals(PodStates.phase(p)) && !autoReady) {
                continue;
            }
            boolean bad = p.getSpec().getContainers().stream().anyMatch(c -> badImages.contains(c.getImage()));
            if (bad) {
                if (!"ImagePullBackOff".equals(waitingReason(p))) {
                    submit(controllers.updateStatus(withStatus(p, "Pending", false, "ImagePullBackOff")));
                }
            } else if (autoReady) {
                submit(controllers.updateStatus(withStatus(p, "Running", true, null)));
            } else if ("Pending".equals(PodStates.phase(p))) {
                submit(controllers.updateStatus(withStatus(p, "Running", false, null)));
            }
        }
    }

    private static String waitingReason(Pod p) {
        if (p.getStatus() == null || p.getStatus().getContainerStatuses() == null) {
            return null;
        }
        return p.getStatus().getContainerStatuses().stream()
                .map(s -> s.getState() == null || s.getState().getWaiting() == null ? null : s.getState().getWaiting().getReason())
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    /** Makes one pod Ready now (for tests that make pods ready one by one). */
    public void makeReady(Pod p) {
        submit(controllers.updateStatus(withStatus(get(Pod.class, p.getMetadata().getName()), "Running", true, null)));
    }

    private Pod withStatus(Pod p, String phase, boolean ready, String waiting) {
        Instant now = clock.instant();
        List<ContainerStatus> statuses = new ArrayList<>();
        for (Container c : p.getSpec().getContainers()) {
            ContainerState state = waiting != null
                    ? ContainerState.newBuilder().setWaiting(ContainerStateWaiting.newBuilder().setReason(waiting).build()).build()
                    : ContainerState.newBuilder().setRunning(ContainerStateRunning.newBuilder().setStartedAt(now).build()).build();
            statuses.add(ContainerStatus.newBuilder().setName(c.getName()).setImage(c.getImage()).setReady(ready)
                    .setRestartCount(0).setState(state).build());
        }
        PodStatus status = PodStatus.newBuilder().setPhase(phase)
                .setConditions(List.of(PodCondition.newBuilder().setType("Ready").setStatus(ready ? "True" : "False")
                        .setLastTransitionTime(now).build()))
                .setContainerStatuses(statuses).build();
        return Pod.newBuilder(p).setStatus(status).build();
    }

    // ------------------------------------------------------------------ running

    /** One round: Deployments, then ReplicaSets and ReplicationControllers, then the kubelet; one second passes. */
    public int step() {
        int before = changes;
        stepDeployments();
        stepReplicaSets();
        stepKubelet();
        clock.advance(Duration.ofSeconds(1));
        return changes - before;
    }

    /** Steps until a round changes nothing. */
    public SimulatedCluster settle() {
        for (int i = 0; i < 500; i++) {
            if (step() == 0) {
                return this;
            }
        }
        throw new AssertionError("the cluster did not settle in 500 rounds");
    }

    public List<String> eventsWithReason(String reason) {
        return events.stream().filter(e -> e.startsWith(reason + ": ")).map(e -> e.substring(reason.length() + 2)).toList();
    }

    public Optional<ObjectChanged> change(String kind, String name) {
        return Optional.ofNullable(store.get(Keys.of(kind, "default", name)));
    }

    public static <T extends SpecificRecord> T copy(T object) {
        return ObjectAccess.copy(object);
    }
}
