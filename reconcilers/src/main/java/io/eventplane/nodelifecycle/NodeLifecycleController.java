package io.eventplane.nodelifecycle;

import io.eventplane.client.ClusterView;
import io.eventplane.client.EventplaneConfig;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Lease;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.PeriodicReconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node lifecycle controller (Kubernetes' node lifecycle and taint-eviction controllers, pods.md POD-13.5) as a
 * {@link PeriodicReconciler}: every tick it reads the Nodes, their Leases in {@code kube-node-lease} and the pods, and
 * {@link NodeLifecycleDecider} decides Ready=Unknown, taints and evictions; the decider's memory (when each node was
 * last probed, the zones' token buckets) carries from tick to tick. The runtime judges each tick only as of the
 * commands the writer has decided, so renewals stuck behind a backlog are not missed renewals.
 */
public final class NodeLifecycleController implements PeriodicReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLifecycleController.class);
    public static final String LEASE_NAMESPACE = "kube-node-lease";

    private final NodeLifecycleDecider decider;
    private final Duration period;
    private NodeLifecycleDecider.State state = NodeLifecycleDecider.State.empty();

    public NodeLifecycleController(NodeLifecycleConfig settings, Duration period) {
        this.decider = new NodeLifecycleDecider(settings);
        this.period = period;
    }

    /** With the settings from the environment and a tick a second. */
    public NodeLifecycleController() {
        this(fromEnvironment(), Duration.ofSeconds(1));
    }

    /** {@code EVENTPLANE_NODE_MONITOR_GRACE_PERIOD} (seconds, 40) and {@code EVENTPLANE_TERMINATED_POD_GC_THRESHOLD} (12500). */
    public static NodeLifecycleConfig fromEnvironment() {
        NodeLifecycleConfig d = NodeLifecycleConfig.defaults();
        return d.withMonitorGracePeriod(Duration.ofSeconds(Long.parseLong(EventplaneConfig.setting(
                        "EVENTPLANE_NODE_MONITOR_GRACE_PERIOD", Long.toString(d.monitorGracePeriod().toSeconds())))))
                .withTerminatedPodGcThreshold(Integer.parseInt(EventplaneConfig.setting(
                        "EVENTPLANE_TERMINATED_POD_GC_THRESHOLD", Integer.toString(d.terminatedPodGcThreshold()))));
    }

    @Override
    public Duration period() {
        return period;
    }

    @Override
    public Reconciliation tick(ClusterView view, Instant now) {
        List<Node> nodes = view.objects(Kinds.NODE.kind(), null);
        Map<String, Instant> leases = new HashMap<>();
        for (ObjectChanged c : view.list(Kinds.LEASE.kind(), LEASE_NAMESPACE)) {
            Lease l = (Lease) c.getObject();
            if (l.getSpec() != null && l.getSpec().getRenewTime() != null) {
                leases.put(c.getName(), l.getSpec().getRenewTime());
            }
        }
        List<Pod> pods = view.objects(Kinds.POD.kind(), null);
        NodeLifecycleDecider.Decision d = decider.decide(now, nodes, leases, pods, state);
        state = d.state();
        List<Action> actions = new ArrayList<>();
        for (Node n : d.statusUpdates()) {
            LOG.info("node {} stopped renewing its lease: Ready=Unknown", n.getMetadata().getName());
            actions.add(new Action.UpdateStatus(n));
        }
        for (Node n : d.taintUpdates()) {
            LOG.info("node {} taints now {}", n.getMetadata().getName(), n.getSpec().getTaints());
            actions.add(new Action.Update(n));
        }
        for (NodeLifecycleDecider.Eviction e : d.evictions()) {
            Pod pod = e.pod();
            LOG.info("evicting {}/{} from node {} (NoExecute taint)", pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), pod.getSpec().getNodeName());
            actions.add(new Action.Then(new Action.UpdateStatus(e.withCondition()), new Action.Delete(Kinds.POD,
                    pod.getMetadata().getNamespace(), pod.getMetadata().getName(), pod.getMetadata().getUid(), null, null)));
        }
        return Reconciliation.of(actions);
    }
}
