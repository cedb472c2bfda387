package io.eventplane.controllers;

import io.eventplane.client.Commands;
import io.eventplane.client.CustomKindsFeed;
import io.eventplane.client.ObjectStore;
import io.eventplane.client.events.EventNotice;
import io.eventplane.controllers.cronjob.CronJobReconciler;
import io.eventplane.controllers.daemonset.DaemonSetReconciler;
import io.eventplane.controllers.deployment.DeploymentReconciler;
import io.eventplane.controllers.endpoint.EndpointsReconciler;
import io.eventplane.controllers.endpointslice.EndpointSliceReconciler;
import io.eventplane.controllers.job.JobReconciler;
import io.eventplane.controllers.namespace.NamespaceReconciler;
import io.eventplane.controllers.resourcequota.ResourceQuotaReconciler;
import io.eventplane.controllers.serviceaccount.ServiceAccountReconciler;
import io.eventplane.controllers.replicaset.ReplicaReconciler;
import io.eventplane.controllers.statefulset.StatefulSetReconciler;
import io.eventplane.controllers.volume.persistentvolume.PersistentVolumeBinder;
import io.eventplane.controllers.volume.protection.ClaimProtection;
import io.eventplane.controllers.volume.protection.VolumeProtection;
import io.eventplane.controllers.volume.provisioner.SimulatedProvisioner;
import io.eventplane.core.meta.PersistentVolumes;
import io.eventplane.model.PersistentVolumeClaim;
import io.eventplane.controllers.ttlafterfinished.TtlAfterFinishedReconciler;
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
import io.eventplane.model.ContainerStateTerminated;
import io.eventplane.model.ContainerStateWaiting;
import io.eventplane.model.ContainerStatus;
import io.eventplane.model.Container;
import io.eventplane.model.Deployment;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.model.PodCondition;
import io.eventplane.model.PodDisruptionBudget;
import io.eventplane.model.PriorityClass;
import io.eventplane.model.PodStatus;
import io.eventplane.model.ReplicaSet;
import io.eventplane.model.ReplicationController;
import io.eventplane.testkit.VirtualClock;
import io.eventplane.scheduler.ClusterSnapshot;
import io.eventplane.scheduler.PodInfo;
import io.eventplane.scheduler.Placement;
import io.eventplane.scheduler.PodPriorities;
import io.eventplane.scheduler.Preemption;
import io.eventplane.scheduler.PreemptionEffects;
import io.eventplane.scheduler.SchedulingAttempt;
import io.eventplane.scheduler.SchedulingStatus;
import io.eventplane.scheduler.SchedulerDecider;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.avro.specific.SpecificRecord;

/**
 * A cluster in memory for decision tests: the real writer decision ({@link ObjectDecider}) over an {@link ObjectStore},
 * the controllers as the runtime runs them ({@link Reconciler}s: every owned key reconciled on the store, the actions
 * applied through the writer, failures fed back), and a scripted kubelet (bind, run, Ready; images in
 * {@link #badImages} never pull; a running pod gets an IP). Each {@link #step()} lets every controller and the kubelet take one step;
 * {@link #settle()} steps until nothing changes. No Kafka, no threads, a virtual clock. A new controller joins with
 * one line in {@link #controllers}.
 */
public final class SimulatedCluster {
    public final VirtualClock clock = new VirtualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final ObjectDecider writer = new ObjectDecider(RulesRegistry.standard());
    private final Commands user = new Commands("test-user", clock);
    private final Commands system = new Commands("controllers", clock);
    private final ObjectStore store = new ObjectStore();
    /** The default scheduler's decision, for pods once the cluster has Node objects. */
    private final SchedulerDecider scheduler = new SchedulerDecider();
    /** The controllers, in the order each round runs them. */
    private final List<Reconciler> controllers = List.of(new DeploymentReconciler(), ReplicaReconciler.replicaSets(),
            ReplicaReconciler.replicationControllers(), new DaemonSetReconciler(), new StatefulSetReconciler(),
            new JobReconciler(),
            new TtlAfterFinishedReconciler(), new CronJobReconciler(java.time.ZoneOffset.UTC), new PersistentVolumeBinder(),
            new ClaimProtection(), new VolumeProtection(), new SimulatedProvisioner(), new NamespaceReconciler(),
            new ServiceAccountReconciler(), new ResourceQuotaReconciler(), new EndpointsReconciler(),
            new EndpointSliceReconciler(), new io.eventplane.controllers.crdfinalizer.CrdFinalizerReconciler(),
            new io.eventplane.controllers.crdnaming.CrdNamingReconciler());

    {
        controllers.forEach(c -> c.index(store));
    }
    private final Map<String, String> failures = new HashMap<>();
    private final Map<String, String> podIps = new HashMap<>();
    /** When each key asked to be looked at again (its last requeueAfter), and times tests asked for. */
    private final Map<String, Instant> wakeups = new HashMap<>();
    private final List<Consumer<SimulatedCluster>> eachRound = new ArrayList<>();
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
    /** When set ({@link #withAdmission}), controllers' creates of pods and claims go through the admission chain. */
    private SimulatedAdmission admission;
    /** When positive, creates of pods beyond this count in the namespace are rejected (a quota). */
    public int podQuota = -1;
    /** The kubelet's scheduling of pods with claims. */
    private final SimulatedVolumeBinding volumes = new SimulatedVolumeBinding(system);
    /** Pods with claims the kubelet's scheduling could not place, by name: the scheduler's reason. */
    public final Map<String, String> unschedulable = volumes.unschedulable;
    /**
     * How the containers of a run-to-completion pod (restartPolicy Never or OnFailure) end: after how long, with which
     * exit code; null (the default): they run until the pod is deleted.
     */
    public java.util.function.Function<Pod, Exit> exits = p -> null;

    /** A program's end: {@code after} its start it exits with {@code code}. */
    public record Exit(Duration after, int code) {
    }

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
            CustomKindsFeed.apply(c); // the writer learns custom kinds from what it decides
            for (Consumer<SimulatedCluster> check : invariants) {
                check.accept(this);
            }
        });
        return d.outcome();
    }

    /**
     * Controllers create pods and claims through the admission chain, as the runtime does (LimitRange, ServiceAccount,
     * Priority, ResourceQuota with its reservation); off by default, as the writer alone decides.
     */
    public SimulatedCluster withAdmission() {
        admission = new SimulatedAdmission(store, clock, this::submit);
        return this;
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

    /** A status update as another component writes it (e.g. a Job's conditions where no Job controller runs). */
    public CommandOutcome updateStatus(SpecificRecord object) {
        return submit(system.updateStatus(object));
    }

    public CommandOutcome delete(KindInfo kind, String name) {
        return submit(user.delete(kind, "default", name, null, null));
    }

    /** The object of {@code kind} named {@code name} in the default namespace, or null. */
    public SpecificRecord object(KindInfo kind, String name) {
        return store.get(kind.kind(), "default", name).map(c -> (SpecificRecord) c.getObject()).orElse(null);
    }

    /** A delete with an explicit propagation policy (Background, Foreground, Orphan), as kubectl's --cascade sends. */
    public CommandOutcome delete(KindInfo kind, String name, String propagationPolicy) {
        return submit(user.deleteWith(kind, "default", name, new io.eventplane.log.Preconditions(),
                io.eventplane.log.DeleteOptions.newBuilder().setPropagationPolicy(propagationPolicy).build()));
    }

    /** A delete in any namespace, with a propagation policy (null: the kind's default). */
    public CommandOutcome delete(KindInfo kind, String namespace, String name, String propagationPolicy) {
        return submit(user.deleteWith(kind, namespace, name, new io.eventplane.log.Preconditions(),
                io.eventplane.log.DeleteOptions.newBuilder().setPropagationPolicy(propagationPolicy).build()));
    }

    public <T> T get(Class<T> type, String name) {
        return get(type, "default", name);
    }

    /** Adds Ready nodes node-0 .. node-(n-1), labelled with their hostname (the kubelet binds pods to them). */
    public SimulatedCluster nodes(int n) {
        for (int i = 0; i < n; i++) {
            String name = "node-" + i;
            create(io.eventplane.testkit.objects.KubeObjects.node(name).labels(PersistentVolumes.HOSTNAME_LABEL, name)
                    .capacity("4", "8Gi", "110").ready().build());
        }
        return this;
    }

    /** Deletes a cluster-scoped object (a PersistentVolume, a StorageClass). */
    public CommandOutcome deleteClusterScoped(KindInfo kind, String name) {
        return submit(user.delete(kind, "", name, null, null));
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

    /** An object of a namespace (any namespace for a cluster-scoped kind), or null. */
    public <T> T get(Class<T> type, String namespace, String name) {
        KindInfo kind = Kinds.byKind(type.getSimpleName()).orElseThrow();
        return store.get(kind.kind(), kind.namespaced() ? namespace : "", name).map(c -> type.cast(c.getObject())).orElse(null);
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
            if (first.getAccepted() && submit(t.then()).getAccepted() && t.then().onAccepted() != null) {
                events.add(t.then().onAccepted().reason() + ": " + t.then().onAccepted().message());
            }
            return first;
        }
        if (a instanceof Action.Create x) {
            return admission == null ? submit(system.create(x.object())) : admission.create(system, x.object(), this::submit);
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

    /** One step of the controller of type {@code type}. */
    private void step(Class<? extends Reconciler> type) {
        controllers.stream().filter(type::isInstance).forEach(this::step);
    }

    /**
     * One step of {@code controller} for every key it looks at on start, as the runtime would take it (a key whose
     * object is gone is decided too: the endpoints controller deletes a deleted Service's Endpoints).
     */
    private void step(Reconciler controller) {
        for (String key : List.copyOf(controller.initialKeys(store))) {
            Reconciliation r = controller.reconcile(key, store, clock.instant(), failures.get(key));
            if (r.requeueAfter() == null) {
                wakeups.remove(key);
            } else {
                wakeups.put(key, clock.instant().plus(r.requeueAfter()));
            }
            apply(r, key);
        }
    }

    public void stepDeployments() {
        step(DeploymentReconciler.class);
    }

    public void stepReplicaSets() {
        for (Reconciler r : controllers) {
            if (r instanceof ReplicaReconciler) {
                step(r);
            }
        }
    }

    public void stepJobs() {
        step(JobReconciler.class);
    }

    /** Rounds until {@code done} holds (checked before each round), at most {@code seconds} of virtual time. */
    public SimulatedCluster until(java.util.function.BooleanSupplier done, int seconds) {
        for (int i = 0; i < seconds; i++) {
            if (done.getAsBoolean()) {
                return this;
            }
            step();
        }
        if (!done.getAsBoolean()) {
            throw new AssertionError("not done after " + seconds + " s of virtual time");
        }
        return this;
    }

    /** The endpoints and EndpointSlice controllers alone (a pod seen between deletion and removal). */
    public void stepEndpoints() {
        step(EndpointsReconciler.class);
        step(EndpointSliceReconciler.class);
    }

    // ------------------------------------------------------------------ the kubelet
    /**
     * Binds unbound pods, starts them (Ready unless the image is bad or autoReady is off), ends the programs of
     * run-to-completion pods as {@link #exits} says (0: Succeeded; otherwise Failed, or under OnFailure a restart in
     * place), finishes deletions (a pod held by finalizers is first stopped: Failed, exit code 143 after SIGTERM).
     * Without Node objects pods go round-robin to node-0..2; with them the real scheduler decision places each pod
     * (one that fits nowhere stays Pending).
     */
    public void stepKubelet() {
        int n = 0;
        List<Node> nodes = list(Node.class);
        ClusterSnapshot cluster = nodes.isEmpty() ? null : withBoundPods(ClusterSnapshot.of(nodes));
        Preemption.Inputs preemption = cluster == null ? null : preemptionInputs();
        for (Pod p : list(Pod.class)) {
            String name = p.getMetadata().getName();
            String ns = p.getMetadata().getNamespace();
            if (p.getMetadata().getDeletionTimestamp() != null) {
                boolean held = p.getMetadata().getFinalizers() != null && !p.getMetadata().getFinalizers().isEmpty();
                if (held && !PodStates.isTerminal(p) && p.getSpec().getNodeName() != null) {
                    submit(system.updateStatus(finished(p, "Failed", 143)));
                }
                submit(system.delete(Kinds.POD, ns, name, 0L, p.getMetadata().getUid()));
                continue;
            }
            if (p.getSpec().getNodeName() == null) {
                String preferred = "node-" + (n++ % 3);
                if (!PersistentVolumes.claimNames(p.getSpec()).isEmpty()) {
                    volumes.place(p, preferred, nodes, store, this::submit);
                } else if (cluster == null) {
                    submit(system.bind(ns, name, p.getMetadata().getUid(), preferred));
                } else if (!PodStates.isTerminal(p)) {
                    schedule(p, cluster, preemption);
                }
                continue;
            }
            if (PodStates.isTerminal(p)) {
                continue;
            }
            if (runToCompletion(p)) {
                continue;
            }
            if (PodStates.isReady(p) || !"Pending".equals(PodStates.phase(p)) && !autoReady) {
                continue;
            }
            if (!claimsBound(p)) {
                continue; // the kubelet mounts its volumes first
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

    /**
     * The scheduler's attempt for one pod: a bind, or, when it fits nowhere and may preempt, the victims evicted
     * (DisruptionTarget, graceful delete, Preempted events) and the pod nominated to their node.
     */
    private void schedule(Pod p, ClusterSnapshot cluster, Preemption.Inputs in) {
        SchedulingAttempt attempt = SchedulingAttempt.of(scheduler, p, PodInfo.of(p), cluster, null, in, PodInfo::of);
        if (attempt.placement() instanceof Placement.Bind b) {
            submit(system.bind(p.getMetadata().getNamespace(), p.getMetadata().getName(), p.getMetadata().getUid(), b.node()));
            cluster.add(b.node(), PodInfo.of(p));
        } else if (attempt.preemption() instanceof Preemption.Nominated n
                && attempt.placement() instanceof Placement.Unschedulable why) {
            PreemptionEffects.commands(system, p, n, clock.instant()).forEach(this::submit);
            PreemptionEffects.events(p, n).forEach(e -> events.add(e.reason() + ": " + e.message()));
            SchedulingStatus.unschedulable(p, why, n.node(), clock.instant()).ifPresent(u -> submit(system.updateStatus(u)));
        }
    }

    private Preemption.Inputs preemptionInputs() {
        List<Pod> nominated = list(Pod.class).stream().filter(o -> o.getSpec().getNodeName() == null && o.getStatus() != null
                && o.getStatus().getNominatedNodeName() != null).toList();
        return new Preemption.Inputs(PodPriorities.of(list(PriorityClass.class)), list(PodDisruptionBudget.class),
                info -> Optional.ofNullable(get(Pod.class, info.namespace(), info.name())), nominated, clock.instant());
    }

    /** The pod's IP, given once when it first runs (10.244.0.1, 10.244.0.2, ...). */
    private String podIp(Pod p) {
        return podIps.computeIfAbsent(p.getMetadata().getUid(), uid -> {
            int n = podIps.size() + 1;
            return "10.244." + (n / 250) + "." + (n % 250 + 1);
        });
    }

    /** Every claim of the pod is Bound (the kubelet's volume manager would mount them). */
    private boolean claimsBound(Pod p) {
        for (String claim : PersistentVolumes.claimNames(p.getSpec())) {
            PersistentVolumeClaim c = get(PersistentVolumeClaim.class, p.getMetadata().getNamespace(), claim);
            if (c == null || !"Bound".equals(PersistentVolumes.phase(c))) {
                return false;
            }
        }
        return true;
    }

    /** A running pod whose program's end has come: finished or restarted. Answers whether it was handled. */
    private boolean runToCompletion(Pod p) {
        String policy = p.getSpec().getRestartPolicy();
        if (!"Running".equals(PodStates.phase(p)) || !("Never".equals(policy) || "OnFailure".equals(policy))) {
            return false;
        }
        Exit exit = exits.apply(p);
        ContainerStatus first = p.getStatus().getContainerStatuses() == null ? null : p.getStatus().getContainerStatuses().get(0);
        if (exit == null || first == null || first.getState().getRunning() == null) {
            return false;
        }
        Instant started = first.getState().getRunning().getStartedAt();
        if (clock.instant().isBefore(started.plus(exit.after()))) {
            return false;
        }
        if (exit.code() == 0 || "Never".equals(policy)) {
            submit(system.updateStatus(finished(p, exit.code() == 0 ? "Succeeded" : "Failed", exit.code())));
        } else {
            submit(system.updateStatus(restarted(p, exit.code())));
        }
        return true;
    }

    /** The pod finished: its containers terminated with {@code code}, not Ready. */
    private Pod finished(Pod p, String phase, int code) {
        Instant now = clock.instant();
        List<ContainerStatus> statuses = new ArrayList<>();
        for (Container c : p.getSpec().getContainers()) {
            ContainerStatus old = p.getStatus() == null || p.getStatus().getContainerStatuses() == null ? null
                    : p.getStatus().getContainerStatuses().stream().filter(s -> s.getName().equals(c.getName())).findFirst()
                    .orElse(null);
            Instant started = old != null && old.getState() != null && old.getState().getRunning() != null
                    ? old.getState().getRunning().getStartedAt() : now;
            statuses.add(ContainerStatus.newBuilder().setName(c.getName()).setImage(c.getImage()).setReady(false)
                    .setRestartCount(old == null ? 0 : old.getRestartCount())
                    .setState(ContainerState.newBuilder().setTerminated(ContainerStateTerminated.newBuilder()
                            .setExitCode(code).setReason(code == 0 ? "Completed" : "Error").setStartedAt(started)
                            .setFinishedAt(now).build()).build()).build());
        }
        PodStatus status = PodStatus.newBuilder(p.getStatus() == null ? new PodStatus() : p.getStatus()).setPhase(phase)
                .setConditions(List.of(PodCondition.newBuilder().setType("Ready").setStatus("False")
                        .setReason("PodCompleted").setLastTransitionTime(now).build()))
                .setContainerStatuses(statuses).build();
        return Pod.newBuilder(p).setStatus(status).build();
    }

    /** OnFailure: the kubelet restarts the failed container in the same pod (JOB-12); restartCount goes up. */
    private Pod restarted(Pod p, int code) {
        Instant now = clock.instant();
        List<ContainerStatus> statuses = new ArrayList<>();
        for (ContainerStatus s : p.getStatus().getContainerStatuses()) {
            statuses.add(ContainerStatus.newBuilder(s).setRestartCount(s.getRestartCount() + 1)
                    .setLastState(ContainerState.newBuilder().setTerminated(ContainerStateTerminated.newBuilder()
                            .setExitCode(code).setReason("Error").setFinishedAt(now).build()).build())
                    .setState(ContainerState.newBuilder().setRunning(ContainerStateRunning.newBuilder().setStartedAt(now)
                            .build()).build()).build());
        }
        return Pod.newBuilder(p).setStatus(PodStatus.newBuilder(p.getStatus()).setContainerStatuses(statuses).build()).build();
    }

    private static String waitingReason(Pod p) {
        if (p.getStatus() == null || p.getStatus().getContainerStatuses() == null) {
            return null;
        }
        return p.getStatus().getContainerStatuses().stream()
                .map(s -> s.getState() == null || s.getState().getWaiting() == null ? null : s.getState().getWaiting().getReason())
                .filter(java.util.Objects::nonNull).findFirst().orElse(null);
    }

    /** The pods bound to existing nodes, counted in the snapshot the scheduler decides on. */
    private ClusterSnapshot withBoundPods(ClusterSnapshot cluster) {
        for (Pod p : list(Pod.class)) {
            String node = p.getSpec().getNodeName();
            if (node != null && cluster.hasNode(node) && !PodStates.isTerminal(p)) {
                cluster.add(node, PodInfo.of(p));
            }
        }
        return cluster;
    }

    /** The kubelet reports the pod finished: phase Failed (or Succeeded), its containers terminated. */
    public void finish(Pod p, String phase) {
        Pod current = get(Pod.class, p.getMetadata().getNamespace(), p.getMetadata().getName());
        List<ContainerStatus> statuses = new ArrayList<>();
        for (Container c : current.getSpec().getContainers()) {
            statuses.add(ContainerStatus.newBuilder().setName(c.getName()).setImage(c.getImage()).setReady(false)
                    .setRestartCount(0).setState(ContainerState.newBuilder().setTerminated(
                            io.eventplane.model.ContainerStateTerminated.newBuilder()
                                    .setExitCode("Failed".equals(phase) ? 1 : 0)
                                    .setReason("Failed".equals(phase) ? "Error" : "Completed")
                                    .setFinishedAt(clock.instant()).build()).build()).build());
        }
        submit(system.updateStatus(Pod.newBuilder(current).setStatus(PodStatus.newBuilder().setPhase(phase)
                .setConditions(List.of(PodCondition.newBuilder().setType("Ready").setStatus("False")
                        .setLastTransitionTime(clock.instant()).build()))
                .setContainerStatuses(statuses).build()).build()));
    }

    /** Makes one pod Ready now (for tests that make pods ready one by one). */
    public void makeReady(Pod p) {
        submit(system.updateStatus(withStatus(get(Pod.class, p.getMetadata().getNamespace(), p.getMetadata().getName()),
                "Running", true, null)));
    }

    /** Makes one running pod not Ready (a failing readiness probe). */
    public void makeUnready(Pod p) {
        submit(system.updateStatus(withStatus(get(Pod.class, p.getMetadata().getNamespace(), p.getMetadata().getName()),
                "Running", false, null)));
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
        String ip = "Pending".equals(phase) ? null : podIp(p);
        PodStatus status = PodStatus.newBuilder().setPhase(phase).setPodIP(ip)
                .setPodIPs(ip == null ? null : List.of(io.eventplane.model.PodIP.newBuilder().setIp(ip).build()))
                .setConditions(List.of(PodCondition.newBuilder().setType("Ready").setStatus(ready ? "True" : "False")
                        .setLastTransitionTime(now).build()))
                .setContainerStatuses(statuses).build();
        return Pod.newBuilder(p).setStatus(status).build();
    }

    // ------------------------------------------------------------------ running

    /**
     * One round: every controller (Deployments, ReplicaSets, ..., Jobs, TTL, CronJobs, endpoints and EndpointSlices),
     * then the kubelet and what tests run {@link #everyRound}; one second passes.
     */
    public int step() {
        int before = changes;
        controllers.forEach(this::step);
        stepKubelet();
        eachRound.forEach(c -> c.accept(this));
        clock.advance(Duration.ofSeconds(1));
        return changes - before;
    }

    /** Runs {@code script} at the end of every round (a stand-in for a component the cluster does not run). */
    public void everyRound(Consumer<SimulatedCluster> script) {
        eachRound.add(script);
    }

    /** Makes {@link #runUntil} stop the clock at {@code t} (a script's next deed). */
    public void wakeAt(Instant t) {
        wakeups.put("test/" + t, t);
    }

    /**
     * Runs until {@code end} as the runtime would: rounds while anything changes; when a round changes nothing, the
     * clock jumps to the earliest time a controller asked to be woken (its requeueAfter) or a script named, or to
     * {@code end}. A day of schedules takes a few thousand rounds.
     */
    public SimulatedCluster runUntil(Instant end) {
        while (clock.instant().isBefore(end)) {
            if (step() == 0) {
                Instant now = clock.instant();
                wakeups.values().removeIf(t -> !t.isAfter(now));
                Instant next = wakeups.values().stream().filter(t -> t.isAfter(now)).min(Instant::compareTo).orElse(end);
                clock.advance(Duration.between(now, next.isBefore(end) ? next : end));
            }
        }
        return this;
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

    /** The store the controllers read, as they read it. */
    public io.eventplane.client.ClusterView view() {
        return store;
    }

    public Optional<ObjectChanged> change(String kind, String name) {
        return store.get(kind, "default", name);
    }

    public static <T extends SpecificRecord> T copy(T object) {
        return ObjectAccess.copy(object);
    }
}
