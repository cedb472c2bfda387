package io.eventplane.controllers;

import io.eventplane.client.EventplaneConfig;
import io.eventplane.client.ServiceIdentities;
import io.eventplane.client.usage.UsageView;
import io.eventplane.controllers.clusterroleaggregation.ClusterRoleAggregationReconciler;
import io.eventplane.controllers.crdfinalizer.CrdFinalizerReconciler;
import io.eventplane.controllers.crdnaming.CrdNamingReconciler;
import io.eventplane.controllers.cronjob.CronJobReconciler;
import io.eventplane.controllers.csrsigning.CsrSigningReconciler;
import io.eventplane.controllers.daemonset.DaemonSetReconciler;
import io.eventplane.controllers.deployment.DeploymentReconciler;
import io.eventplane.controllers.disruption.DisruptionReconciler;
import io.eventplane.controllers.endpoint.EndpointsReconciler;
import io.eventplane.controllers.endpointslice.EndpointSliceReconciler;
import io.eventplane.controllers.eventttl.EventTtlController;
import io.eventplane.controllers.job.JobReconciler;
import io.eventplane.controllers.namespace.NamespaceReconciler;
import io.eventplane.controllers.podautoscaler.PodAutoscalerReconciler;
import io.eventplane.controllers.replicaset.ReplicaReconciler;
import io.eventplane.controllers.resourcequota.ResourceQuotaReconciler;
import io.eventplane.controllers.rootcacertpublisher.RootCaCertPublisher;
import io.eventplane.controllers.serviceaccount.ServiceAccountReconciler;
import io.eventplane.controllers.statefulset.StatefulSetReconciler;
import io.eventplane.controllers.ttlafterfinished.TtlAfterFinishedReconciler;
import io.eventplane.controllers.volume.persistentvolume.PersistentVolumeBinder;
import io.eventplane.controllers.volume.protection.ClaimProtection;
import io.eventplane.controllers.volume.protection.VolumeProtection;
import io.eventplane.controllers.volume.provisioner.SimulatedProvisioner;
import io.eventplane.gc.GarbageCollector;
import io.eventplane.nodelifecycle.NodeLifecycleController;
import io.eventplane.podgc.PodGcController;
import io.eventplane.reconcile.Controller;
import io.eventplane.reconcile.ControllerRuntime;
import io.eventplane.reconcile.LeaderElection;
import io.eventplane.reconcile.PeriodicReconciler;
import io.eventplane.reconcile.Reconciler;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Eventplane's kube-controller-manager: every controller by the name kube-controller-manager's {@code --controllers}
 * flag gives it, one line each. {@code eventplane up} runs them all in one process; the Helm chart runs one process
 * per controller ({@code EVENTPLANE_CONTROLLERS=<name>}), each with a standby when it has two replicas (leader
 * election on the Lease kube-system/&lt;component&gt;).
 *
 * <p>Adding a controller: its package (a {@link Reconciler} or {@link PeriodicReconciler} and tests), one line in
 * {@link #DEFINITIONS}, one name in the Helm chart's {@code controllers.enabled}.
 */
public final class ControllerManager {
    /**
     * One controller.
     *
     * @param name      kube-controller-manager's name for it ({@code deployment}, {@code garbagecollector}, ...)
     * @param actor     its clients' id, and its service account: its commands come from
     *                  {@code system:serviceaccount:kube-system:<actor>} in the log
     *                  ({@link ServiceIdentities#controller})
     * @param component the source component of its Events, and its Lease's name under leader election
     */
    public record Definition(String name, String actor, String component, Factory factory) {
        public Controller create(EventplaneConfig config, Clock clock) {
            return factory.create(config, actor, component, clock).identity(ServiceIdentities.controller(actor));
        }
    }

    /** Builds the controller (not started). */
    @FunctionalInterface
    public interface Factory {
        Controller create(EventplaneConfig config, String actor, String component, Clock clock);
    }

    private static Factory keyed(Supplier<Reconciler> r) {
        return (config, actor, component, clock) -> Controller.keyed(config, actor, component, clock, r.get());
    }

    private static Factory periodic(Supplier<PeriodicReconciler> r) {
        return (config, actor, component, clock) -> Controller.periodic(config, actor, component, clock, r.get());
    }

    /** Every controller, in start order. */
    public static final List<Definition> DEFINITIONS = List.of(
            new Definition("replicaset", "replicaset-controller", "replicaset-controller",
                    keyed(ReplicaReconciler::replicaSets)),
            new Definition("replicationcontroller", "replication-controller", "replication-controller",
                    keyed(ReplicaReconciler::replicationControllers)),
            new Definition("deployment", "deployment-controller", "deployment-controller",
                    keyed(DeploymentReconciler::new)),
            new Definition("daemonset", "daemonset-controller", "daemonset-controller",
                    keyed(DaemonSetReconciler::new)),
            new Definition("statefulset", "statefulset-controller", "statefulset-controller",
                    keyed(StatefulSetReconciler::new)),
            new Definition("disruption", "disruption-controller", "disruption-controller",
                    keyed(DisruptionReconciler::new)),
            new Definition("endpoint", "endpoint-controller", "endpoint-controller",
                    keyed(EndpointsReconciler::new)),
            new Definition("endpointslice", "endpointslice-controller", "endpoint-slice-controller",
                    keyed(EndpointSliceReconciler::new)),
            new Definition("job", "job-controller", "job-controller", keyed(JobReconciler::new)),
            new Definition("ttl-after-finished", "ttl-after-finished-controller", "ttl-after-finished-controller",
                    keyed(TtlAfterFinishedReconciler::new)),
            new Definition("cronjob", "cronjob-controller", "cronjob-controller", keyed(CronJobReconciler::new)),
            new Definition("horizontalpodautoscaling", "horizontal-pod-autoscaler", "horizontal-pod-autoscaler",
                    (config, actor, component, clock) -> Controller.keyed(config, actor, component, clock,
                            new PodAutoscalerReconciler(UsageView.shared(config)))),
            new Definition("garbagecollector", "garbage-collector", "garbage-collector-controller",
                    keyed(GarbageCollector::new)),
            new Definition("nodelifecycle", "node-controller", "node-controller",
                    periodic(NodeLifecycleController::new)),
            new Definition("podgc", "pod-garbage-collector", "pod-garbage-collector",
                    periodic(() -> new PodGcController(
                            NodeLifecycleController.fromEnvironment().terminatedPodGcThreshold(), Duration.ofSeconds(1)))),
            new Definition("namespace", "namespace-controller", "namespace-controller",
                    keyed(NamespaceReconciler::new)),
            new Definition("serviceaccount", "service-account-controller", "service-account-controller",
                    keyed(ServiceAccountReconciler::new)),
            new Definition("resourcequota", "resourcequota-controller", "resourcequota-controller",
                    keyed(ResourceQuotaReconciler::new)),
            new Definition("persistentvolume-binder", "persistentvolume-binder", "persistentvolume-controller",
                    keyed(PersistentVolumeBinder::new)),
            new Definition("pvc-protection", "pvc-protection-controller", "pvc-protection-controller",
                    keyed(ClaimProtection::new)),
            new Definition("pv-protection", "pv-protection-controller", "pv-protection-controller",
                    keyed(VolumeProtection::new)),
            new Definition("sim-provisioner", "sim-provisioner", "sim-provisioner", keyed(SimulatedProvisioner::new)),
            new Definition("crd-finalizer", "crd-finalizer", "apiextensions-apiserver",
                    keyed(CrdFinalizerReconciler::new)),
            new Definition("crd-naming", "crd-naming", "crd-naming-controller", keyed(CrdNamingReconciler::new)),
            new Definition("csrsigning", "certificate-controller", "csrsigning-controller",
                    keyed(CsrSigningReconciler::fromEnvironment)),
            new Definition("clusterrole-aggregation", "clusterrole-aggregation-controller",
                    "clusterrole-aggregation-controller", keyed(ClusterRoleAggregationReconciler::new)),
            // kube-apiserver's --event-ttl (etcd leases there; a controller here, deleting through the writer)
            new Definition("eventttl", "event-ttl-controller", "event-ttl-controller",
                    periodic(EventTtlController::fromEnvironment)),
            new Definition("root-ca-cert-publisher", "root-ca-cert-publisher", "root-ca-cert-publisher",
                    keyed(RootCaCertPublisher::fromEnvironment)));

    private ControllerManager() {
    }

    public static Map<String, Definition> byName() {
        Map<String, Definition> out = new LinkedHashMap<>();
        DEFINITIONS.forEach(d -> out.put(d.name(), d));
        return out;
    }

    /**
     * The definitions {@code names} selects: a comma-separated list of names, {@code *} (or empty) for all, and
     * {@code -name} to leave one out, as kube-controller-manager's {@code --controllers}.
     */
    public static List<Definition> select(String names) {
        Map<String, Definition> all = byName();
        List<String> words = names == null || names.isBlank() ? List.of("*")
                : Arrays.stream(names.split(",")).map(String::trim).filter(w -> !w.isEmpty()).toList();
        List<Definition> out = new ArrayList<>();
        boolean star = words.contains("*");
        for (String w : words) {
            String name = w.startsWith("-") ? w.substring(1) : w;
            if (!name.equals("*") && !all.containsKey(name)) {
                throw new IllegalArgumentException("unknown controller \"" + name + "\"; known: " + all.keySet());
            }
        }
        for (Definition d : DEFINITIONS) {
            boolean wanted = star ? !words.contains("-" + d.name()) : words.contains(d.name());
            if (wanted) {
                out.add(d);
            }
        }
        return out;
    }

    /**
     * Starts the controllers {@code names} selects in this process.
     *
     * @param leaderElect whether each acts only while holding its Lease (several replicas; a standby takes over)
     */
    public static ControllerRuntime start(EventplaneConfig config, Clock clock, String names, boolean leaderElect) {
        List<Controller> controllers = new ArrayList<>();
        for (Definition d : select(names)) {
            Controller c = d.create(config, clock);
            if (leaderElect) {
                c.leaderElection(LeaderElection.Settings.of(d.component()));
            }
            controllers.add(c);
        }
        return ControllerRuntime.start(controllers);
    }

    /**
     * The controller manager as its own process: {@code EVENTPLANE_CONTROLLERS} (or the first argument) selects the
     * controllers (default all), {@code EVENTPLANE_LEADER_ELECT} (default true) runs them with leader election.
     */
    public static void main(String[] args) throws InterruptedException {
        EventplaneConfig config = EventplaneConfig.fromEnvironment();
        String names = args.length > 0 ? args[0] : EventplaneConfig.setting("EVENTPLANE_CONTROLLERS", "*");
        boolean leaderElect = !"false".equals(EventplaneConfig.setting("EVENTPLANE_LEADER_ELECT", "true"));
        start(config, Clock.systemUTC(), names, leaderElect).runUntilShutdown();
    }
}
