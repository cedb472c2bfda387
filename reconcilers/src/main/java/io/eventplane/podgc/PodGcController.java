package io.eventplane.podgc;

import io.eventplane.client.ClusterView;
import io.eventplane.core.kinds.Kinds;
import io.eventplane.log.ObjectChanged;
import io.eventplane.model.Node;
import io.eventplane.model.Pod;
import io.eventplane.reconcile.Action;
import io.eventplane.reconcile.PeriodicReconciler;
import io.eventplane.reconcile.Reconciliation;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pod garbage collector (Kubernetes' PodGC) as a {@link PeriodicReconciler}: every tick {@link PodGcDecider}
 * picks the pods to remove (terminated above the threshold, orphans of deleted nodes, unscheduled terminating pods,
 * terminating pods on out-of-service nodes); each is deleted with grace period 0, marked Failed first when it has
 * not finished.
 */
public final class PodGcController implements PeriodicReconciler {
    private static final Logger LOG = LoggerFactory.getLogger(PodGcController.class);

    private final PodGcDecider decider = new PodGcDecider();
    private final int terminatedPodGcThreshold;
    private final Duration period;

    /**
     * @param terminatedPodGcThreshold terminated pods kept before the oldest are deleted (12,500; 0 turns that rule off)
     */
    public PodGcController(int terminatedPodGcThreshold, Duration period) {
        this.terminatedPodGcThreshold = terminatedPodGcThreshold;
        this.period = period;
    }

    @Override
    public Duration period() {
        return period;
    }

    @Override
    public Reconciliation tick(ClusterView view, Instant now) {
        List<Node> nodes = view.objects(Kinds.NODE.kind(), null);
        List<Pod> pods = view.objects(Kinds.POD.kind(), null);
        List<Action> actions = new ArrayList<>();
        for (PodGcDecider.Removal r : decider.decide(now, pods, nodes, terminatedPodGcThreshold)) {
            Pod pod = r.pod();
            LOG.info("PodGC deletes {}/{}: {}", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), r.why());
            Action delete = new Action.Delete(Kinds.POD, pod.getMetadata().getNamespace(), pod.getMetadata().getName(),
                    pod.getMetadata().getUid(), null, null, 0L, null, null);
            actions.add(r.failFirst() == null ? delete : new Action.Then(new Action.UpdateStatus(r.failFirst()), delete));
        }
        return Reconciliation.of(actions);
    }
}
