package io.eventplane.controllers;

import io.eventplane.client.Commands;
import io.eventplane.client.ObjectStore;
import io.eventplane.client.events.EventNotice;
import io.eventplane.controllers.deployment.DeploymentReconciler;
import io.eventplane.controllers.namespace.NamespaceReconciler;
import io.eventplane.controllers.resourcequota.ResourceQuotaReconciler;
import io.eventplane.controllers.serviceaccount.ServiceAccountReconciler;
import io.eventplane.controllers.replicaset.ReplicaReconciler;
import io.eventplane.core.meta.Owners;
import io.eventplane.core.meta.PodStates;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.Reconciler;
import io.eventplane.reconcile.Reconciliation;
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
import io.eventplane.testkit.VirtualClock;
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
 * A cluster in memory for decision tests: the real writer decision ({@link ObjectDecider}) over an {@link ObjectStore},
 * the controllers as the runtime runs them ({@link Reconciler}s: every owned key reconciled on the store, the actions
 * applied through the writer, failures fed back), and a scripted kubelet (bind, run, Ready; images in
 * {@link #badImages} never pull). Each {@link #step()} lets every controller and the kubelet take one step;
 * {@link #settle()} steps until nothing changes. No Kafka, no threads, a virtual clock. A new controller joins with
 * one line in {@link #controllers}.
 */
public final class SimulatedCluster {
    public final VirtualClock clock = new VirtualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ObjectDecider writer = new ObjectDecider(RulesRegistry.standard());
    private final Commands user = new Commands("test-user", clock);
    private final Commands system = new Commands("controllers", clock);
    private final ObjectStore store = new ObjectStore();
    /** The controllers, in the order each round runs them. */
    private final List<Reconciler> controllers = List.of(new DeploymentReconciler(), ReplicaReconciler.replicaSets(),
            ReplicaReconciler.replicationControllers(), new NamespaceReconciler(), new ServiceAccountReconciler(),
            new ResourceQuotaReconciler());

    {
        controllers.forEach(c -> c.index(store));
    }
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
        Decision d = writer.decide(command, store.get(key).orElse(null), ++position);
        d.change().ifPresent(c -> {
            changes++;
            store.apply(c);
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
        return getIn(type, "default", name);
    }

    /** An object of a namespace ("" for a cluster-scoped kind), or null. */
    public <T> T getIn(Class<T> type, String namespace, String name) {
        KindInfo kind = Kinds.byKind(type.getSimpleName()).orElseThrow();
        return store.get(kind.kind(), kind.namespaced() ? namespace : "", name).map(c -> type.cast(c.getObject()))
                .orElse(null);
    }

    /** The objects of one kind in one namespace. */
    public <T> List<T> listIn(Class<T> type, String namespace) {
        return list(type).stream().filter(o -> namespace.equals(ObjectAccess.meta((SpecificRecord) o).getNamespace()))
                .toList();
    }

    /** kubectl delete namespace: Background propagation, as kubectl sends it. */
    public CommandOutcome deleteNamespace(String name) {
        return submit(user.deleteWith(Kinds.NAMESPACE, "", name, new io.eventplane.log.Preconditions(),
                io.eventplane.log.DeleteOptions.newBuilder().setPropagationPolicy("Background").build()));
    }

    public <T> List<T> list(Class<T> type) {
        List<T> out = new ArrayList<>();
        for (ObjectChanged c : store.all()) {
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
            tracked |= a.failedReason() != null;
            CommandOutcome o = submit(a);
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

    /** The command an action stands for, through the writer ({@link Action.Then}: the second once the first is in). */
    private CommandOutcome submit(Action a) {
        if (a instanceof Action.Then t) {
            CommandOutcome first = submit(t.first());
            if (first.getAccepted()) {
                submit(t.then());
            }
            return first;
        }
        if (a instanceof Action.Create x) {
            return submit(system.create(x.object()));
        } else if (a instanceof Action.Update x) {
            return submit(system.update(x.object()));
        } else if (a instanceof Action.UpdateStatus x) {
            return submit(system.updateStatus(x.object()));
        } else if (a instanceof Action.Finalize x) {
            return submit(system.finalize(x.object()));
        }
        Action.Delete x = (Action.Delete) a;
        return submit(system.deleteWith(x.kind(), x.namespace(), x.name(),
                io.eventplane.log.Preconditions.newBuilder().setUid(x.uid()).setResourceVersion(x.resourceVersion()).build(),
                io.eventplane.log.DeleteOptions.newBuilder().setGracePeriodSeconds(x.gracePeriodSeconds())
                        .setPropagationPolicy(x.propagationPolicy()).build()));
    }

    /** One step of {@code controller} for every key it owns, as the runtime would take it. */
    private void step(Reconciler controller) {
        for (String key : List.copyOf(controller.initialKeys(store))) {
            if (store.get(key).isPresent()) {
                apply(controller.reconcile(key, store, clock.instant(), failures.get(key)), key);
            }
        }
    }

    public void stepDeployments() {
        step(controllers.get(0));
    }

    public void stepReplicaSets() {
        step(controllers.get(1));
        step(controllers.get(2));
    }

    // ------------------------------------------------------------------ the kubelet
    /** Binds unbound pods, starts them (Ready unless the image is bad or autoReady is off), finishes deletions. */
    public void stepKubelet() {
        int n = 0;
        for (Pod p : list(Pod.class)) {
            String name = p.getMetadata().getName();
            String namespace = p.getMetadata().getNamespace();
            if (p.getMetadata().getDeletionTimestamp() != null) {
                submit(system.delete(Kinds.POD, namespace, name, 0L, p.getMetadata().getUid()));
                continue;
            }
            if (p.getSpec().getNodeName() == null) {
                submit(system.bind(namespace, name, p.getMetadata().getUid(), "node-" + (n++ % 3)));
                continue;
            }
            if (PodStates.isReady(p) || !"Pending".equals(PodStates.phase(p)) && !autoReady) {
                continue;
            }
            boolean bad = p.getSpec().getContainers().stream().anyMatch(c -> badImages.contains(c.getImage()));
            if (bad) {
                if (!"ImagePullBackOff".equals(waitingReason(p))) {
                    submit(system.updateStatus(withStatus(p, "Pending", false, "ImagePullBackOff")));
                }
            } else if (autoReady) {
                submit(system.updateStatus(withStatus(p, "Running", true, null)));
            } else if ("Pending".equals(PodStates.phase(p))) {
                submit(system.updateStatus(withStatus(p, "Running", false, null)));
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
        submit(system.updateStatus(withStatus(getIn(Pod.class, p.getMetadata().getNamespace(), p.getMetadata().getName()),
                "Running", true, null)));
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
        controllers.forEach(this::step);
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
        return store.get(kind, "default", name);
    }

    public static <T extends SpecificRecord> T copy(T object) {
        return ObjectAccess.copy(object);
    }
}
